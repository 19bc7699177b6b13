//! The tables behind a portable file: read for export, replaced for import. Import deletes and
//! rewrites only the tables the file carries; the code lock, rate limits, report request and
//! mail outbox are never touched.

use super::{PortableProgress, QuizAnswerRecord, QuizAttemptRecord};
use crate::store::{SIM_CHOICE_KEY, Store, StoreError, now_secs, put_setting};
use domain::progress::Progress;
use rusqlite::{TransactionBehavior, params};
use std::collections::BTreeMap;

/// The progress tables every file version carries (`setting` only for the keys below).
const PROGRESS_TABLES: [&str; 6] = [
    "chapter_read",
    "decision_answer",
    "checklist",
    "chapter_position",
    "ordering_record",
    "scenario_run",
];
/// Settings that are part of the progress.
const PROGRESS_SETTINGS: [&str; 3] = ["last_chapter", "language", SIM_CHOICE_KEY];
/// The quiz tables (version 2), children first.
const QUIZ_TABLES: [&str; 3] = ["quiz_answer", "quiz_order", "quiz_attempt"];
/// How option ids are joined in one column (as the quiz store writes them).
const SEP: char = ',';

fn join(ids: &[String]) -> String {
    ids.join(&SEP.to_string())
}

fn split(ids: &str) -> Vec<String> {
    ids.split(SEP)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

impl Store {
    /// Every quiz attempt with its order and answers, oldest first.
    pub(super) fn quiz_records(&self) -> Result<Vec<QuizAttemptRecord>, StoreError> {
        let read = || -> rusqlite::Result<Vec<QuizAttemptRecord>> {
            let mut attempts = self.conn.prepare(
                "SELECT id, seed, started_at, finished_at, score FROM quiz_attempt ORDER BY id",
            )?;
            let mut order = self
                .conn
                .prepare("SELECT question_id, option_ids FROM quiz_order WHERE attempt_id = ?1")?;
            let mut answers = self.conn.prepare(
                "SELECT question_id, option_ids, correct, answered_at FROM quiz_answer
                 WHERE attempt_id = ?1 ORDER BY answered_at, question_id",
            )?;
            // The attempt rows first (order and answers empty), then each one's children.
            let rows: Vec<QuizAttemptRecord> = attempts
                .query_map([], |r| {
                    Ok(QuizAttemptRecord {
                        id: r.get(0)?,
                        seed: r.get(1)?,
                        started_at: r.get(2)?,
                        finished_at: r.get(3)?,
                        score: r.get(4)?,
                        order: BTreeMap::new(),
                        answers: Vec::new(),
                    })
                })?
                .collect::<Result<_, _>>()?;
            rows.into_iter()
                .map(|record| {
                    let id = record.id;
                    Ok(QuizAttemptRecord {
                        order: order
                            .query_map([id], |r| Ok((r.get(0)?, split(&r.get::<_, String>(1)?))))?
                            .collect::<Result<_, _>>()?,
                        answers: answers
                            .query_map([id], |r| {
                                Ok(QuizAnswerRecord {
                                    question: r.get(0)?,
                                    options: split(&r.get::<_, String>(1)?),
                                    correct: r.get(2)?,
                                    answered_at: r.get(3)?,
                                })
                            })?
                            .collect::<Result<_, _>>()?,
                        ..record
                    })
                })
                .collect()
        };
        read().map_err(|e| self.err(e))
    }

    /// Replaces what `doc` carries in one transaction; everything else stays.
    pub(in crate::store) fn replace(&mut self, doc: &PortableProgress) -> Result<(), StoreError> {
        let write = |conn: &mut rusqlite::Connection| -> rusqlite::Result<()> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let now = now_secs();
            replace_progress(&tx, &doc.progress, now)?;
            if let Some(quiz) = &doc.quiz {
                replace_quiz(&tx, quiz)?;
            }
            if let Some(labs) = &doc.labs {
                tx.execute("DELETE FROM lab_result", [])?;
                for lab in labs {
                    tx.execute(
                        "INSERT INTO lab_result (lab_id, attempts, last_at, solved_at, hints)
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                        params![lab.id, lab.attempts, now, lab.solved_at, lab.hints],
                    )?;
                }
            }
            tx.commit()
        };
        write(&mut self.conn).map_err(|e| self.err(e))
    }
}

/// Chapters, decisions, checklist, positions, ordering game, scenarios and the progress
/// settings, replaced in `tx`.
fn replace_progress(
    tx: &rusqlite::Transaction<'_>,
    progress: &Progress,
    now: i64,
) -> rusqlite::Result<()> {
    for table in PROGRESS_TABLES {
        tx.execute(&format!("DELETE FROM {table}"), [])?;
    }
    for key in PROGRESS_SETTINGS {
        tx.execute("DELETE FROM setting WHERE key = ?1", [key])?;
    }
    for id in &progress.chapters_read {
        tx.execute(
            "INSERT INTO chapter_read (chapter_id, read_at) VALUES (?1, ?2)",
            params![id, now],
        )?;
    }
    for (d, o) in &progress.decisions {
        tx.execute(
            "INSERT INTO decision_answer (decision_id, option_id, answered_at) VALUES (?1, ?2, ?3)",
            params![d, o, now],
        )?;
    }
    for (item, ticked) in &progress.checklist {
        tx.execute(
            "INSERT INTO checklist (item_id, ticked, updated_at) VALUES (?1, ?2, ?3)",
            params![item, ticked, now],
        )?;
    }
    for (chapter, scroll) in &progress.positions {
        tx.execute(
            "INSERT INTO chapter_position (chapter_id, scroll) VALUES (?1, ?2)",
            params![chapter, scroll],
        )?;
    }
    let o = progress.ordering;
    tx.execute(
        "INSERT INTO ordering_record (id, solved, attempts, mistakes) VALUES (1, ?1, ?2, ?3)",
        params![o.solved, o.attempts, o.mistakes],
    )?;
    for id in &progress.scenarios_run {
        tx.execute(
            "INSERT INTO scenario_run (scenario_id, first_run_at) VALUES (?1, ?2)",
            params![id, now],
        )?;
    }
    if let Some(last) = &progress.last_chapter {
        put_setting(tx, "last_chapter", last)?;
    }
    if let Some(lang) = progress.language {
        put_setting(tx, "language", lang.code())?;
    }
    if let Some(choice) = &progress.simulator {
        put_setting(tx, SIM_CHOICE_KEY, &choice.encode())?;
    }
    Ok(())
}

/// Every quiz attempt with its option order and answers, replaced in `tx`.
fn replace_quiz(
    tx: &rusqlite::Transaction<'_>,
    quiz: &[QuizAttemptRecord],
) -> rusqlite::Result<()> {
    for table in QUIZ_TABLES {
        tx.execute(&format!("DELETE FROM {table}"), [])?;
    }
    for a in quiz {
        tx.execute(
            "INSERT INTO quiz_attempt (id, seed, started_at, finished_at, score) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![a.id, a.seed, a.started_at, a.finished_at, a.score],
        )?;
        for (question, options) in &a.order {
            tx.execute(
                "INSERT INTO quiz_order (attempt_id, question_id, option_ids) VALUES (?1, ?2, ?3)",
                params![a.id, question, join(options)],
            )?;
        }
        for answer in &a.answers {
            tx.execute(
                "INSERT INTO quiz_answer (attempt_id, question_id, option_ids, correct, answered_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![a.id, answer.question, join(&answer.options), answer.correct, answer.answered_at],
            )?;
        }
    }
    Ok(())
}

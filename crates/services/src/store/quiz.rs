//! Quiz attempts in the store: the option order is saved when the attempt starts, each answer
//! in its own transaction the moment it is given (resume after quit or kill).

use super::{Store, StoreError, now_secs};
use domain::quiz::Attempt;
use domain::workshop::EventKind;
use rusqlite::{OptionalExtension, TransactionBehavior, params};
use std::collections::BTreeSet;

/// A stored attempt with its bookkeeping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAttempt {
    /// The attempt (order and answers).
    pub attempt: Attempt,
    /// Score once finished.
    pub finished_score: Option<u32>,
}

/// Ids are joined with a separator that content ids cannot contain (they are checked slugs).
const SEP: &str = ",";

fn split(ids: &str) -> impl Iterator<Item = String> + '_ {
    ids.split(SEP).filter(|s| !s.is_empty()).map(str::to_owned)
}

impl Store {
    /// Saves a new attempt with its option order; returns it with its id.
    pub fn start_attempt(&mut self, attempt: &Attempt) -> Result<Attempt, StoreError> {
        let now = now_secs();
        let result = (|| -> rusqlite::Result<i64> {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            // SQLite integers are signed; the seed's bits are kept as they are.
            tx.execute(
                "INSERT INTO quiz_attempt (seed, started_at) VALUES (?1, ?2)",
                params![attempt.seed as i64, now],
            )?;
            let id = tx.last_insert_rowid();
            for (question, ids) in &attempt.order {
                tx.execute(
                    "INSERT INTO quiz_order (attempt_id, question_id, option_ids) VALUES (?1, ?2, ?3)",
                    params![id, question, ids.join(SEP)],
                )?;
            }
            tx.commit()?;
            Ok(id)
        })();
        let id = result.map_err(|e| self.err(e))?;
        Ok(Attempt {
            id,
            ..attempt.clone()
        })
    }

    /// Saves one answer at once; `finished` carries the score when it was the last question.
    pub fn save_answer(
        &mut self,
        attempt_id: i64,
        question_id: &str,
        chosen: &BTreeSet<String>,
        correct: bool,
        finished: Option<u32>,
    ) -> Result<(), StoreError> {
        let now = now_secs();
        let ids: Vec<&str> = chosen.iter().map(String::as_str).collect();
        let result = (|| -> rusqlite::Result<()> {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO quiz_answer (attempt_id, question_id, option_ids, correct, answered_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (attempt_id, question_id) DO UPDATE SET option_ids = excluded.option_ids,
                     correct = excluded.correct, answered_at = excluded.answered_at",
                params![attempt_id, question_id, ids.join(SEP), correct, now],
            )?;
            super::workshop::enqueue(
                &tx,
                &EventKind::QuizAnswer {
                    attempt: attempt_id,
                    question: question_id.to_owned(),
                    options: chosen.iter().cloned().collect(),
                },
            )?;
            if let Some(score) = finished {
                tx.execute(
                    "UPDATE quiz_attempt SET finished_at = ?2, score = ?3 WHERE id = ?1",
                    params![attempt_id, now, score],
                )?;
                super::workshop::enqueue(
                    &tx,
                    &EventKind::QuizScore {
                        attempt: attempt_id,
                        score,
                    },
                )?;
            }
            tx.commit()
        })();
        result.map_err(|e| self.err(e))
    }

    /// The newest attempt, finished or not.
    pub fn latest_attempt(&self) -> Result<Option<StoredAttempt>, StoreError> {
        self.latest_inner().map_err(|e| self.err(e))
    }

    /// The newest finished attempt (the one the report is about).
    pub fn latest_finished_attempt(&self) -> Result<Option<StoredAttempt>, StoreError> {
        let id: Option<i64> = self
            .conn
            .query_row(
                "SELECT id FROM quiz_attempt WHERE finished_at IS NOT NULL ORDER BY id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        match id {
            Some(id) => self.attempt(id).map(Some),
            None => Ok(None),
        }
    }

    /// How many attempts were finished.
    pub fn finished_attempts(&self) -> Result<u32, StoreError> {
        self.conn
            .query_row(
                "SELECT count(*) FROM quiz_attempt WHERE finished_at IS NOT NULL",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    fn latest_inner(&self) -> rusqlite::Result<Option<StoredAttempt>> {
        let id: Option<i64> = self
            .conn
            .query_row(
                "SELECT id FROM quiz_attempt ORDER BY id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        id.map(|id| self.attempt_inner(id)).transpose()
    }

    fn attempt(&self, id: i64) -> Result<StoredAttempt, StoreError> {
        self.attempt_inner(id).map_err(|e| self.err(e))
    }

    fn attempt_inner(&self, id: i64) -> rusqlite::Result<StoredAttempt> {
        let (seed, score): (i64, Option<u32>) = self.conn.query_row(
            "SELECT seed, score FROM quiz_attempt WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let mut attempt = Attempt {
            id,
            seed: seed as u64,
            ..Attempt::default()
        };
        let mut stmt = self
            .conn
            .prepare("SELECT question_id, option_ids FROM quiz_order WHERE attempt_id = ?1")?;
        for row in stmt.query_map([id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })? {
            let (q, ids) = row?;
            attempt.order.insert(q, split(&ids).collect());
        }
        let mut stmt = self
            .conn
            .prepare("SELECT question_id, option_ids FROM quiz_answer WHERE attempt_id = ?1")?;
        for row in stmt.query_map([id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })? {
            let (q, ids) = row?;
            attempt.answers.insert(q, split(&ids).collect());
        }
        Ok(StoredAttempt {
            attempt,
            finished_score: score,
        })
    }
}

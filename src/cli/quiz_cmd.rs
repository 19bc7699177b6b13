//! `queuelab quiz --plain`: the final quiz line by line. Each answer is saved the moment it is
//! given; an unfinished attempt is resumed, a finished one is kept and a new one started.

use super::lines::{Lines, Session};
use super::{Cli, Failure};
use content::{Question, Strings};
use domain::quiz::{Attempt, parse_choice};
use std::collections::BTreeSet;
use std::io::{BufRead, Write};

/// Runs the plain quiz on stdin/stdout.
pub fn run(cli: &Cli, plain: bool) -> Result<(), Failure> {
    if !plain {
        return Err(Failure::usage(
            "the full-screen quiz is in the workshop (run queuelab); use --plain for the line-by-line quiz",
        ));
    }
    let mut session = Session::open(cli)?;
    let stdin = std::io::stdin();
    let mut lines = Lines::new(stdin.lock(), std::io::stdout().lock());
    let result = take(&mut session, &mut lines);
    // Joined to a workshop: hand the saved answers to the host before exiting (at most 2 s).
    super::join_cmd::flush(&mut session.store);
    result
}

fn saved<T>(r: Result<T, services::StoreError>) -> Result<T, Failure> {
    r.map_err(|e| Failure::new(e.to_string()))
}

/// The quiz over any reader and writer.
pub fn take<R: BufRead, W: Write>(
    session: &mut Session,
    lines: &mut Lines<R, W>,
) -> Result<(), Failure> {
    let course = session.content.course(session.lang).clone();
    let (quiz, s) = (&course.quiz, &course.strings);
    let mut total = content::QUESTION_COUNT.to_string();
    lines.say(s.get("quiz.title"))?;
    let mut attempt = match saved(session.store.latest_attempt())? {
        Some(stored) if stored.finished_score.is_none() => {
            let n = (stored.attempt.position(quiz) + 1).to_string();
            total = stored.attempt.total(quiz).to_string();
            lines.say(&s.fill("quiz.resumed", &[("n", &n), ("total", &total)]))?;
            stored.attempt
        }
        previous => {
            if let Some(score) = previous.and_then(|p| p.finished_score) {
                lines.say(&s.fill(
                    "quiz.previous",
                    &[("score", &score.to_string()), ("total", &total)],
                ))?;
            }
            saved(
                session
                    .store
                    .start_attempt(&Attempt::new(quiz, rand::random())),
            )?
        }
    };
    while let Some(question) = attempt.next_question(quiz) {
        let n = (attempt.position(quiz) + 1).to_string();
        lines.say("")?;
        lines.say(&s.fill("quiz.progress", &[("n", &n), ("total", &total)]))?;
        lines.say(&question.prompt)?;
        let shown = attempt.options(question);
        for (i, option) in shown.iter().enumerate() {
            lines.say(&format!("  {}. {}", i + 1, option.text))?;
        }
        lines.say(s.get(if question.multi {
            "quiz.multi_hint"
        } else {
            "quiz.single_hint"
        }))?;
        let picked = loop {
            let Some(line) = lines.ask(s.get("quiz.answer_prompt"))? else {
                lines.say(s.get("quiz.eof"))?;
                return Ok(());
            };
            match parse_choice(&line, shown.len(), question.multi) {
                Ok(picked) => break picked,
                Err(e) => lines.say(&s.fill(
                    e.key(),
                    &[("value", &e.value()), ("count", &shown.len().to_string())],
                ))?,
            }
        };
        let chosen: BTreeSet<String> = picked.iter().map(|i| shown[*i].id.clone()).collect();
        attempt.answer(&question.id, chosen.clone());
        let correct = attempt.is_correct(question);
        let finished = attempt
            .is_complete(quiz)
            .then(|| attempt.score(quiz).correct);
        saved(
            session
                .store
                .save_answer(attempt.id, &question.id, &chosen, correct, finished),
        )?;
        explain(lines, s, question, &attempt, correct)?;
    }
    summary(lines, &course, &attempt)
}

/// Right or wrong, the right answer, the explanation and why each wrong option is wrong.
fn explain<R: BufRead, W: Write>(
    lines: &mut Lines<R, W>,
    s: &Strings,
    question: &Question,
    attempt: &Attempt,
    correct: bool,
) -> Result<(), Failure> {
    lines.say(s.get(if correct { "quiz.right" } else { "quiz.wrong" }))?;
    let shown = attempt.options(question);
    let right: Vec<&str> = shown
        .iter()
        .filter(|o| o.correct)
        .map(|o| o.text.as_str())
        .collect();
    if !correct {
        lines.say(&s.fill("quiz.right_answer", &[("answer", &right.join(" | "))]))?;
    }
    lines.say(&s.fill("quiz.explanation", &[("text", &question.explanation)]))?;
    for (i, option) in shown.iter().enumerate().filter(|(_, o)| !o.correct) {
        lines.say(&s.fill(
            "quiz.option_why",
            &[
                ("n", &(i + 1).to_string()),
                ("text", &option.text),
                ("why", &option.why),
            ],
        ))?;
    }
    Ok(())
}

fn summary<R: BufRead, W: Write>(
    lines: &mut Lines<R, W>,
    course: &content::Course,
    attempt: &Attempt,
) -> Result<(), Failure> {
    let (quiz, s) = (&course.quiz, &course.strings);
    let score = attempt.score(quiz);
    lines.say("")?;
    lines.say(&s.fill(
        "quiz.score",
        &[
            ("score", &score.correct.to_string()),
            ("total", &score.total.to_string()),
        ],
    ))?;
    if let Some(level) = score.level {
        lines.say(&s.fill("quiz.level", &[("level", &level.name)]))?;
        lines.say(s.get("quiz.next_steps"))?;
        // The report's list, from the same source.
        for step in domain::report::next_steps_for(course, attempt) {
            lines.say(&format!("- {step}"))?;
        }
    }
    lines.say("")?;
    let review = attempt.review(quiz);
    if review.is_empty() {
        lines.say(s.get("quiz.review_none"))?;
    } else {
        lines.say(s.get("quiz.review"))?;
        for r in review {
            let text = |opts: &[&content::QuestionOption]| {
                opts.iter()
                    .map(|o| o.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" | ")
            };
            lines.say(&format!("- {}", r.question.prompt))?;
            lines.say(&format!(
                "  {}",
                s.fill("quiz.your_answer", &[("answer", &text(&r.chosen))])
            ))?;
            lines.say(&format!(
                "  {}",
                s.fill("quiz.right_answer", &[("answer", &text(&r.correct))])
            ))?;
        }
    }
    lines.say("")?;
    lines.say(s.get("quiz.report_hint"))
}

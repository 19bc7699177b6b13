//! `queuelab quiz --plain`: the final quiz line by line. Each answer is saved the moment it is
//! given; an unfinished attempt is resumed, a finished one is kept and a new one started.

use super::lines::{Lines, Session};
use super::{Cli, Failure};
use content::key;
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
    lines.say(s.get(key::quiz::TITLE))?;
    let mut attempt = match saved(session.store.latest_attempt())? {
        Some(stored) if stored.finished_score.is_none() => {
            let n = (stored.attempt.position(quiz) + 1).to_string();
            total = stored.attempt.total(quiz).to_string();
            lines.say(&s.fill(key::quiz::RESUMED, &[("n", &n), ("total", &total)]))?;
            stored.attempt
        }
        previous => {
            if let Some(score) = previous.and_then(|p| p.finished_score) {
                lines.say(&s.fill(
                    key::quiz::PREVIOUS,
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
        lines.say(&s.fill(key::quiz::PROGRESS, &[("n", &n), ("total", &total)]))?;
        lines.say(&question.prompt)?;
        let shown = attempt.options(question);
        for (i, option) in shown.iter().enumerate() {
            lines.say(&format!("  {}. {}", i + 1, option.text))?;
        }
        lines.say(s.get(if question.multi {
            key::quiz::MULTI_HINT
        } else {
            key::quiz::SINGLE_HINT
        }))?;
        let picked = loop {
            let Some(line) = lines.ask(s.get(key::quiz::ANSWER_PROMPT))? else {
                lines.say(s.get(key::quiz::EOF))?;
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
    lines.say(s.get(if correct {
        key::quiz::RIGHT
    } else {
        key::quiz::WRONG
    }))?;
    let shown = attempt.options(question);
    let right: Vec<&str> = shown
        .iter()
        .filter(|o| o.correct)
        .map(|o| o.text.as_str())
        .collect();
    if !correct {
        lines.say(&s.fill(key::quiz::RIGHT_ANSWER, &[("answer", &right.join(" | "))]))?;
    }
    lines.say(&s.fill(key::quiz::EXPLANATION, &[("text", &question.explanation)]))?;
    for (i, option) in shown.iter().enumerate().filter(|(_, o)| !o.correct) {
        lines.say(&s.fill(
            key::quiz::OPTION_WHY,
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
        key::quiz::SCORE,
        &[
            ("score", &score.correct.to_string()),
            ("total", &score.total.to_string()),
        ],
    ))?;
    if let Some(level) = score.level {
        lines.say(&s.fill(key::quiz::LEVEL, &[("level", &level.name)]))?;
        lines.say(s.get(key::quiz::NEXT_STEPS))?;
        // The report's list, from the same source.
        for step in domain::report::next_steps_for(course, attempt) {
            lines.say(&format!("- {step}"))?;
        }
    }
    lines.say("")?;
    let review = attempt.review(quiz);
    if review.is_empty() {
        lines.say(s.get(key::quiz::REVIEW_NONE))?;
    } else {
        lines.say(s.get(key::quiz::REVIEW))?;
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
                s.fill(key::quiz::YOUR_ANSWER, &[("answer", &text(&r.chosen))])
            ))?;
            lines.say(&format!(
                "  {}",
                s.fill(key::quiz::RIGHT_ANSWER, &[("answer", &text(&r.correct))])
            ))?;
        }
    }
    lines.say("")?;
    lines.say(s.get(key::quiz::REPORT_HINT))
}

//! `queuelab decide --plain`: the four decisions line by line (situation, numbered options, one
//! answer line each), for screen readers and scripted trainees. Each answer is saved at once.

use super::lines::{Lines, Session};
use super::{Cli, Failure};
use crate::domain::Fact;
use crate::domain::quiz::parse_choice;
use std::io::{BufRead, Write};

/// Runs the plain decisions on stdin/stdout.
pub fn run(cli: &Cli, plain: bool) -> Result<(), Failure> {
    if !plain {
        return Err(Failure::usage(
            "the decision cards are in the workshop's chapters (run queuelab); use --plain for the line-by-line decisions",
        ));
    }
    let mut session = Session::open(cli)?;
    let stdin = std::io::stdin();
    let mut lines = Lines::new(stdin.lock(), std::io::stdout().lock());
    let result = decide(&mut session, &mut lines);
    super::join_cmd::flush(&mut session.store);
    result
}

/// The decisions over any reader and writer.
pub fn decide<R: BufRead, W: Write>(
    session: &mut Session,
    lines: &mut Lines<R, W>,
) -> Result<(), Failure> {
    let course = session.course().clone();
    let s = &course.strings;
    let total = course.decisions.len().to_string();
    lines.say(s.get("decide.title"))?;
    for (i, decision) in course.decisions.iter().enumerate() {
        lines.say("")?;
        lines.say(&s.fill(
            "decide.progress",
            &[("n", &(i + 1).to_string()), ("total", &total)],
        ))?;
        lines.say(&decision.title)?;
        lines.say(&decision.situation)?;
        for (k, option) in decision.options.iter().enumerate() {
            lines.say(&format!("  {}. {}", k + 1, option.text))?;
        }
        lines.say(&decision.instruction)?;
        let count = decision.options.len();
        let picked = loop {
            let Some(line) = lines.ask(s.get("quiz.answer_prompt"))? else {
                lines.say(s.get("decide.eof"))?;
                return Ok(());
            };
            match parse_choice(&line, count, false) {
                Ok(picked) => break picked,
                Err(e) => lines.say(&s.fill(
                    e.key(),
                    &[("value", &e.value()), ("count", &count.to_string())],
                ))?,
            }
        };
        let Some(option) = picked.first().and_then(|k| decision.options.get(*k)) else {
            continue;
        };
        session
            .store
            .save(&Fact::DecisionAnswered {
                decision: decision.id.clone(),
                option: option.id.clone(),
            })
            .map_err(|e| Failure::new(e.to_string()))?;
        lines.say(s.get(if option.correct {
            "decision.correct"
        } else {
            "decision.wrong"
        }))?;
        lines.say(&option.feedback)?;
        lines.say(&decision.explanation)?;
    }
    Ok(())
}

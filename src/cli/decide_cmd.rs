//! `queuelab decide --plain`: the four decisions line by line (situation, numbered options, one
//! answer line each), for screen readers and scripted trainees. Each answer is saved at once; a
//! second run continues at the first decision not yet answered and never overwrites an answer
//! (in a workshop the first answer is the trainee's vote).

use super::lines::{Lines, Session};
use super::{Cli, Failure};
use domain::Fact;
use domain::quiz::parse_choice;
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
    let answered = session
        .store
        .load()
        .map_err(|e| Failure::new(e.to_string()))?
        .decisions;
    lines.say(s.get("decide.title"))?;
    let mut asked = false;
    for (i, decision) in course.decisions.iter().enumerate() {
        let progress = s.fill(
            "decide.progress",
            &[("n", &(i + 1).to_string()), ("total", &total)],
        );
        if let Some(chosen) = answered.get(&decision.id) {
            let number = decision
                .options
                .iter()
                .position(|o| &o.id == chosen)
                .map_or_else(|| "?".to_owned(), |k| (k + 1).to_string());
            let text = decision
                .option(chosen)
                .map_or(chosen.as_str(), |o| o.text.as_str());
            lines.say(&format!("{progress}: {}", decision.title))?;
            lines.say(&s.fill("decide.already", &[("number", &number), ("option", text)]))?;
            continue;
        }
        asked = true;
        lines.say("")?;
        lines.say(&progress)?;
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
    if !asked {
        lines.say(s.get("decide.all_answered"))?;
    }
    Ok(())
}

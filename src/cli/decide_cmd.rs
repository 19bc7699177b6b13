//! `queuelab decide --plain [N]`: the four decisions line by line (situation, numbered options,
//! one answer line each), for screen readers and scripted trainees; with N only decision N.
//! Each answer is saved at once and never overwritten. A joined trainee's command line follows
//! the room as the reader does: while the instructor holds right/wrong it only says the answer
//! is saved, and while a second vote on a decision is open the answer is the second vote.

use super::lines::{Lines, Session};
use super::{Cli, Failure};
use app::pace::RoomVotes;
use content::key;
use content::{Decision, Strings};
use domain::Fact;
use domain::quiz::parse_choice;
use domain::workshop::EventKind;
use services::Store;
use services::trainee::{self, client::deadline_in};
use std::io::{BufRead, Write};

/// How long the command waits for the host's word on the room.
const ROOM_POLL_MS: u64 = 3_000;
/// Most queued events read when looking for second votes still on their way.
const PENDING_LOOKED_AT: usize = 10_000;

/// Runs the plain decisions on stdin/stdout.
pub fn run(cli: &Cli, plain: bool, only: Option<usize>) -> Result<(), Failure> {
    if !plain {
        return Err(Failure::usage(
            "the decision cards are in the workshop's chapters (run queuelab); use --plain for the line-by-line decisions",
        ));
    }
    let mut session = Session::open(cli)?;
    let room = read_room(&session.store);
    let stdin = std::io::stdin();
    let mut lines = Lines::new(stdin.lock(), std::io::stdout().lock());
    if room.unreached {
        lines.say(session.course().strings.get(key::decide::ROOM_UNREACHED))?;
    }
    let result = decide(&mut session, &room.votes, only, &mut lines);
    super::join_cmd::flush(&mut session.store);
    result
}

/// The room as this command sees it.
struct Room {
    votes: RoomVotes,
    /// Joined, but the host did not answer: right/wrong waits and no round counts as open.
    unreached: bool,
}

/// Asks the host how the room votes now. Not joined: a learner alone, every verdict shown.
/// The second votes still waiting in the outbox count as given, so a second run does not ask
/// again what the host has not received yet.
fn read_room(store: &Store) -> Room {
    let Ok(Some(member)) = store.membership() else {
        return Room {
            votes: RoomVotes::default(),
            unreached: false,
        };
    };
    let (mut votes, unreached) = match trainee::poll_paces(&member, 0, deadline_in(ROOM_POLL_MS)) {
        Ok(reply) => (RoomVotes::from(&reply), false),
        Err(e) => {
            services::log::warn(&format!("decide: the room's votes: {e}"));
            let held = RoomVotes {
                held: true,
                ..RoomVotes::default()
            };
            (held, true)
        }
    };
    for queued in store
        .pending_events(PENDING_LOOKED_AT, None)
        .unwrap_or_default()
    {
        if let EventKind::SecondVote { decision, .. } = queued.event.kind {
            votes.second_given.insert(decision);
        }
    }
    Room { votes, unreached }
}

/// What an answer to a decision would be now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Round {
    /// The trainee's first answer: the vote the room counts.
    First,
    /// The instructor's second vote on it is open and this trainee has not voted in it yet.
    Second,
    /// Nothing to answer: answered, and no round waits for this trainee.
    Closed,
}

impl Round {
    fn of(decision: &str, answered: bool, votes: &RoomVotes) -> Round {
        if votes.in_second_vote(decision) {
            if votes.second_given.contains(decision) {
                Round::Closed
            } else {
                Round::Second
            }
        } else if answered {
            Round::Closed
        } else {
            Round::First
        }
    }
}

/// The decisions over any reader and writer: all of them in course order, or only decision
/// `only` (1-based).
pub fn decide<R: BufRead, W: Write>(
    session: &mut Session,
    votes: &RoomVotes,
    only: Option<usize>,
    lines: &mut Lines<R, W>,
) -> Result<(), Failure> {
    let course = session.course().clone();
    let s = &course.strings;
    let total = course.decisions.len();
    let picked = pick(&course.decisions, only, s)?;
    let answered = session
        .store
        .load()
        .map_err(|e| Failure::new(e.to_string()))?
        .decisions;
    lines.say(s.get(key::decide::TITLE))?;
    let mut asked = false;
    for (i, decision) in picked {
        let progress = s.fill(
            key::decide::PROGRESS,
            &[("n", &(i + 1).to_string()), ("total", &total.to_string())],
        );
        let first = answered.get(&decision.id).map(String::as_str);
        let round = Round::of(&decision.id, first.is_some(), votes);
        if round == Round::Closed {
            // The title carries the number ("Decision 1: …").
            lines.say(&decision.title)?;
            say_closed(decision, first, votes, only.is_some(), s, lines)?;
            continue;
        }
        asked = true;
        show_decision(decision, round, first, &progress, s, lines)?;
        let Some(option) = ask_option(decision, s, lines)? else {
            lines.say(s.get(key::decide::EOF))?;
            return Ok(());
        };
        let (d, o) = (decision.id.clone(), option.id.clone());
        let fact = match round {
            Round::Second => Fact::SecondVote {
                decision: d,
                option: o,
            },
            _ => Fact::DecisionAnswered {
                decision: d,
                option: o,
            },
        };
        session
            .store
            .save(&fact)
            .map_err(|e| Failure::new(e.to_string()))?;
        if votes.verdict_shown(&decision.id) {
            say_verdict(decision, &option.id, s, lines)?;
        } else {
            lines.say(s.get(if round == Round::Second {
                key::decide::HELD_SECOND
            } else {
                key::decide::HELD
            }))?;
        }
    }
    if !asked && only.is_none() {
        lines.say(s.get(key::decide::ALL_ANSWERED))?;
    }
    Ok(())
}

/// Decides which decisions to ask: all of them in course order, or only decision `only`
/// (1-based; one that does not exist is a usage error).
fn pick<'a>(
    decisions: &'a [Decision],
    only: Option<usize>,
    s: &Strings,
) -> Result<Vec<(usize, &'a Decision)>, Failure> {
    let total = decisions.len();
    Ok(match only {
        None => decisions.iter().enumerate().collect(),
        Some(n) => match n.checked_sub(1).and_then(|i| decisions.get(i)) {
            Some(d) => vec![(n - 1, d)],
            None => {
                return Err(Failure::usage(s.fill(
                    key::decide::NO_SUCH,
                    &[("value", &n.to_string()), ("total", &total.to_string())],
                )));
            }
        },
    })
}

/// Shows an open decision: its number, title, (in the second round) that the second vote is
/// open and the learner's first answer, the situation, the numbered options and what to type.
fn show_decision<R: BufRead, W: Write>(
    decision: &Decision,
    round: Round,
    first: Option<&str>,
    progress: &str,
    s: &Strings,
    lines: &mut Lines<R, W>,
) -> Result<(), Failure> {
    lines.say("")?;
    lines.say(progress)?;
    lines.say(&decision.title)?;
    if round == Round::Second {
        lines.say(s.get(key::decide::SECOND_OPEN))?;
        if let Some(first) = first {
            lines.say(&numbered(s, key::decide::YOUR_FIRST, decision, first))?;
        }
    }
    lines.say(&decision.situation)?;
    for (k, option) in decision.options.iter().enumerate() {
        lines.say(&format!("  {}. {}", k + 1, option.text))?;
    }
    lines.say(&decision.instruction)?;
    Ok(())
}

/// Reads option numbers until one fits; None when the input ends.
fn ask_option<'d, R: BufRead, W: Write>(
    decision: &'d Decision,
    s: &Strings,
    lines: &mut Lines<R, W>,
) -> Result<Option<&'d content::DecisionOption>, Failure> {
    let count = decision.options.len();
    loop {
        let Some(line) = lines.ask(s.get(key::quiz::ANSWER_PROMPT))? else {
            return Ok(None);
        };
        match parse_choice(&line, count, false) {
            Ok(picked) => {
                if let Some(option) = picked.first().and_then(|k| decision.options.get(*k)) {
                    return Ok(Some(option));
                }
            }
            Err(e) => lines.say(&s.fill(
                e.key(),
                &[("value", &e.value()), ("count", &count.to_string())],
            ))?,
        }
    }
}

/// A decision with nothing to answer now: what was given, and that no round is open for it.
/// Asked by its number, it also shows right/wrong where the room may see it.
fn say_closed<R: BufRead, W: Write>(
    decision: &Decision,
    first: Option<&str>,
    votes: &RoomVotes,
    asked_by_number: bool,
    s: &Strings,
    lines: &mut Lines<R, W>,
) -> Result<(), Failure> {
    if votes.in_second_vote(&decision.id) {
        return lines.say(s.get(key::decide::SECOND_ALREADY));
    }
    let Some(first) = first else {
        return Ok(());
    };
    lines.say(&numbered(s, key::decide::ALREADY, decision, first))?;
    if asked_by_number && votes.verdict_shown(&decision.id) {
        say_verdict(decision, first, s, lines)?;
    }
    Ok(())
}

/// Right or wrong, the chosen option's feedback and the decision's explanation.
fn say_verdict<R: BufRead, W: Write>(
    decision: &Decision,
    chosen: &str,
    s: &Strings,
    lines: &mut Lines<R, W>,
) -> Result<(), Failure> {
    let Some(option) = decision.option(chosen) else {
        return Ok(());
    };
    lines.say(s.get(if option.correct {
        key::decision::CORRECT
    } else {
        key::decision::WRONG
    }))?;
    lines.say(&option.feedback)?;
    lines.say(&decision.explanation)
}

/// The string `key` with `{number}` and `{option}` filled as every screen numbers an option
/// (1-4 and its text).
fn numbered(s: &Strings, key: content::Key, decision: &Decision, option: &str) -> String {
    let number = decision
        .options
        .iter()
        .position(|o| o.id == option)
        .map_or_else(|| "?".to_owned(), |k| (k + 1).to_string());
    let text = decision.option(option).map_or(option, |o| o.text.as_str());
    s.fill(key, &[("number", &number), ("option", text)])
}

#[cfg(test)]
mod tests {
    use super::{RoomVotes, Round};

    fn votes(held: bool, revealed: &[&str], open: &[&str], given: &[&str]) -> RoomVotes {
        let set = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect();
        RoomVotes {
            held,
            revealed: set(revealed),
            second_open: set(open),
            second_given: set(given),
        }
    }

    #[test]
    fn an_open_second_vote_asks_again_once_and_a_reveal_closes_it() {
        let open = votes(true, &[], &["d1"], &[]);
        assert_eq!(Round::of("d1", true, &open), Round::Second);
        assert_eq!(Round::of("d1", false, &open), Round::Second);
        assert_eq!(Round::of("d2", true, &open), Round::Closed);
        assert_eq!(Round::of("d2", false, &open), Round::First);
        let given = votes(true, &[], &["d1"], &["d1"]);
        assert_eq!(Round::of("d1", true, &given), Round::Closed);
        let revealed = votes(true, &["d1"], &["d1"], &[]);
        assert_eq!(Round::of("d1", true, &revealed), Round::Closed);
    }
}

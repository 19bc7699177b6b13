//! The instructor's pacing on the trainee's side: the newest command shows as a banner in the
//! status row; one key follows it (opens the chapter, the scenario in its mode, or the chapter
//! of a revealed decision or of one the room votes on again); nothing is ever opened without
//! that key. A command is shown once: ids only grow, and one not newer than the last seen is
//! ignored.

use super::keymap::{DISMISS_KEY, FOLLOW_KEY};
use super::simulator::view::mode_key;
use super::{Effect, Session, reader, simulator};
use content::key;
use domain::workshop::pace::PaceReply;
use domain::workshop::{Pace, PaceKind};
use model::Mode;
use std::collections::{BTreeMap, BTreeSet};

/// A pacing command as the trainee receives it, with the room's answers when it reveals a
/// decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaceNotice {
    /// The command.
    pub pace: Pace,
    /// Option id -> trainees, for a revealed decision (first votes).
    pub distribution: Option<BTreeMap<String, u32>>,
    /// The same for the second votes, when the revealed decision had a second vote.
    pub second_distribution: Option<BTreeMap<String, u32>>,
}

/// What the session says about showing right/wrong, as the host last told it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoomVotes {
    /// Right/wrong is held until the instructor reveals the decision.
    pub held: bool,
    /// Decision ids the instructor revealed.
    pub revealed: BTreeSet<String>,
    /// Decision ids the instructor opened a second vote on.
    pub second_open: BTreeSet<String>,
    /// Decision ids whose second vote this trainee gave (counted by the host, or answered here
    /// since).
    pub second_given: BTreeSet<String>,
}

impl From<&PaceReply> for RoomVotes {
    /// The room as one pacing answer of the host tells it (the TUI's poll and the command
    /// line read it alike).
    fn from(reply: &PaceReply) -> Self {
        RoomVotes {
            held: reply.hold_feedback,
            revealed: reply.revealed.iter().cloned().collect(),
            second_open: reply.second_votes.iter().cloned().collect(),
            second_given: reply.second_given.iter().cloned().collect(),
        }
    }
}

impl RoomVotes {
    /// Whether the trainee may see right/wrong for `decision` now.
    pub fn verdict_shown(&self, decision: &str) -> bool {
        !self.held || self.revealed.contains(decision)
    }

    /// Whether an answer to `decision` now is a second vote: one was opened and the decision
    /// is not revealed yet.
    pub fn in_second_vote(&self, decision: &str) -> bool {
        self.second_open.contains(decision) && !self.revealed.contains(decision)
    }

    /// Takes the host's newest word, keeping the second votes given here that the host has not
    /// counted yet (the answer may still be on its way).
    pub fn updated(&mut self, mut newer: RoomVotes) {
        let given_here = std::mem::take(&mut self.second_given);
        newer.second_given.extend(
            given_here
                .into_iter()
                .filter(|d| newer.second_open.contains(d)),
        );
        *self = newer;
    }
}

/// Notes a received command; shows it unless it was seen before.
pub fn received(session: &mut Session, notice: PaceNotice) {
    if notice.pace.id <= session.pace_seen {
        return;
    }
    session.pace_seen = notice.pace.id;
    session.pace = Some(notice);
    // The banner shares the status row; the newest news is the instructor's.
    session.status = None;
}

/// The banner's text, if a command waits.
pub fn banner(session: &Session) -> Option<String> {
    let notice = session.pace.as_ref()?;
    let s = session.strings();
    let course = session.course();
    let keys = [
        ("follow", FOLLOW_KEY.to_string()),
        ("dismiss", DISMISS_KEY.to_string()),
    ];
    let keys: Vec<(&str, &str)> = keys.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let what = match &notice.pace.kind {
        PaceKind::OpenChapter { chapter } => {
            let (i, c) = course
                .chapters
                .iter()
                .enumerate()
                .find(|(_, c)| &c.id == chapter)?;
            s.fill(
                key::pace::OPEN_CHAPTER,
                &[("n", &(i + 1).to_string()), ("title", &c.title)],
            )
        }
        PaceKind::OpenScenario { scenario, mode } => {
            let title = session
                .content
                .scenarios
                .iter()
                .find(|sc| &sc.id == scenario)
                .and_then(|sc| sc.text.get(&session.lang))
                .map_or(scenario.as_str(), |t| t.title.as_str());
            // The mode by its name on the simulator's screen ("naiv"), not its id.
            let mode = Mode::parse(mode).map_or(mode.as_str(), |m| s.get(mode_key(m)));
            s.fill(
                key::pace::OPEN_SCENARIO,
                &[("title", title), ("mode", mode)],
            )
        }
        PaceKind::RevealDecision { decision } => {
            let d = course.decision(decision)?;
            let first = notice.distribution.as_ref();
            match &notice.second_distribution {
                Some(second) => s.fill(
                    key::pace::REVEALED_BOTH,
                    &[
                        ("title", &d.title),
                        ("shares", &shares(d, first, Some(second))),
                    ],
                ),
                None => s.fill(
                    key::pace::REVEALED,
                    &[("title", &d.title), ("shares", &shares(d, first, None))],
                ),
            }
        }
        PaceKind::SecondVote { decision } => {
            let d = course.decision(decision)?;
            s.fill(key::pace::SECOND_VOTE, &[("title", &d.title)])
        }
    };
    let mut args = keys.clone();
    args.push(("what", &what));
    Some(s.fill(key::pace::BANNER, &args))
}

/// Follows the banner's command (the one key); the banner goes away. The screen it opens
/// stands directly above Home, whatever was open before.
pub fn follow(session: &mut Session) -> Vec<Effect> {
    let effects = open_followed(session);
    session.open_over_home();
    effects
}

fn open_followed(session: &mut Session) -> Vec<Effect> {
    let Some(notice) = session.pace.take() else {
        return Vec::new();
    };
    let course = session.course();
    match notice.pace.kind {
        PaceKind::OpenChapter { chapter } => {
            match course.chapters.iter().position(|c| c.id == chapter) {
                Some(i) => reader::open_chapter(session, i),
                None => Vec::new(),
            }
        }
        PaceKind::RevealDecision { decision } | PaceKind::SecondVote { decision } => {
            let chapter = course
                .decisions
                .iter()
                .find(|d| d.id == decision)
                .map(|d| d.chapter.clone());
            match chapter.and_then(|id| course.chapters.iter().position(|c| c.id == id)) {
                Some(i) => reader::open_chapter(session, i),
                None => Vec::new(),
            }
        }
        PaceKind::OpenScenario { scenario, mode } => {
            simulator::open_for_pace(session, &scenario, Mode::parse(&mode))
        }
    }
}

/// "[1] 3 · [2] 5 ✓": each option numbered as on the trainee's card with its count, the right
/// one marked (the reveal is when the room may know it). With a second vote each count is
/// followed by the second's, "[2] 5→8 ✓": how the discussion moved the room, short enough
/// for a status row.
fn shares(
    d: &content::Decision,
    first: Option<&BTreeMap<String, u32>>,
    second: Option<&BTreeMap<String, u32>>,
) -> String {
    let count = |c: Option<&BTreeMap<String, u32>>, id: &str| {
        c.and_then(|c| c.get(id)).copied().unwrap_or(0)
    };
    let shares: Vec<String> = d
        .options
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let mark = if o.correct { " \u{2713}" } else { "" };
            let n = count(first, &o.id);
            match second {
                Some(_) => format!("[{}] {n}\u{2192}{}{mark}", i + 1, count(second, &o.id)),
                None => format!("[{}] {n}{mark}", i + 1),
            }
        })
        .collect();
    shares.join(" · ")
}

/// Puts the banner away.
pub fn dismiss(session: &mut Session) {
    session.pace = None;
}

#[cfg(test)]
mod tests;

//! The summary as the room reads it (`GET /api/summary`, `queuelab host status --json`, the
//! dashboard, the projector and the export): plain serialisable views, built by
//! [`super::Summary::view`].

use content::key;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Ordering-game figures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderingTally {
    /// Solved (per trainee: 0 or 1; in the room: how many solved it).
    pub solved: u32,
    /// Attempts started.
    pub attempts: u32,
    /// Wrong picks.
    pub mistakes: u32,
}

/// Answered and right, for one trainee's quiz or one question across the room.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuizTally {
    /// Questions (or trainees) that answered.
    pub answered: u32,
    /// Of those, right.
    pub correct: u32,
}

/// One trainee in the JSON summary.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraineeView {
    /// The trainee's id (random, chosen by the trainee); left out of the export files.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// Display name.
    pub name: String,
    /// Chapters read, by the rule of the trainee's Home: a chapter of the course counts once
    /// its end was on screen and a share of its reading time was spent in it
    /// (`chapters.read_rule`); each chapter once.
    pub chapters_read: u32,
    /// Decision id -> the option id the trainee chose first (the vote the room counts).
    pub decisions: BTreeMap<String, String>,
    /// Decision id -> the option id of the trainee's second vote, where one was given.
    #[serde(default)]
    pub second_votes: BTreeMap<String, String>,
    /// Quiz progress of the newest attempt.
    pub quiz: QuizTally,
    /// Ordering game.
    pub ordering: OrderingTally,
    /// Scenario ids run.
    pub scenarios: Vec<String>,
    /// Whether the trainee pressed the stuck key.
    pub stuck: bool,
    /// The screen the trainee was on when stuck, by its title in the session's language.
    pub stuck_screen: Option<String>,
    /// The words sent with the stuck signal.
    pub stuck_text: Option<String>,
    /// When the trainee's newest fact was saved (Unix ms).
    pub last_seen_ms: i64,
    /// When the host last heard from the trainee's client (host clock, Unix ms; 0: never).
    #[serde(default)]
    pub last_contact_ms: i64,
    /// The trainee left the session (`leave`) and has not joined again. A trainee who did
    /// not leave is in the room (removed ones have no row), a command-line trainee between
    /// two commands too.
    #[serde(default)]
    pub left: bool,
    /// When the open stuck signal was saved (Unix ms, trainee clock).
    #[serde(default)]
    pub stuck_since_ms: Option<i64>,
    /// The instructor acknowledged the open stuck signal.
    #[serde(default)]
    pub stuck_acknowledged: bool,
    /// Where the trainee's newest event puts them ("chapter Outbox", "Final quiz"), by title
    /// in the session's language; None before their first event.
    #[serde(default)]
    pub screen: Option<String>,
    /// The quiz level of the newest attempt once it is finished (all its questions
    /// answered), by name in the session's language; None before.
    #[serde(default)]
    pub level: Option<String>,
    /// Ids of the labs the trainee solved (a check of theirs passed).
    #[serde(default)]
    pub labs_solved: Vec<String>,
    /// The trainee's answer to the instructor-copy question of their newest report mailed
    /// through the host; None when none was mailed or no instructor is named.
    #[serde(default)]
    pub instructor_copy: Option<bool>,
}

/// One lab across the room.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabRoom {
    /// Trainees who solved it.
    pub solved: u32,
    /// Why the newest check failed -> trainees who have not solved it and stand there.
    pub failing: BTreeMap<String, u32>,
}

/// The summary as JSON (`GET /api/summary`, `queuelab host status --json`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryView {
    /// The session name.
    pub session: String,
    /// The day the session started (`YYYY-MM-DD`, UTC).
    #[serde(default)]
    pub date: String,
    /// Every trainee, by name.
    pub trainees: Vec<TraineeView>,
    /// Decision id -> option id -> trainees whose first answer it is (every option of every
    /// decision, 0 when nobody chose it).
    pub decisions: BTreeMap<String, BTreeMap<String, u32>>,
    /// Question id -> answered/right over the trainees' newest attempts.
    pub quiz: BTreeMap<String, QuizTally>,
    /// The room's ordering-game figures.
    pub ordering: OrderingTally,
    /// Scenario id -> trainees who ran it.
    pub scenarios: BTreeMap<String, u32>,
    /// Events stored (each once).
    pub events: u64,
    /// Deliveries recognised as duplicates and not counted again.
    pub duplicates: u64,
    /// Decision ids whose distribution the instructor revealed to the room.
    #[serde(default)]
    pub revealed: Vec<String>,
    /// Decision id -> option id -> trainees whose second vote it is, for each decision the
    /// instructor opened a second vote on (every option, 0 when nobody chose it).
    #[serde(default)]
    pub second_votes: BTreeMap<String, BTreeMap<String, u32>>,
    /// The newest pacing command sent to the room.
    #[serde(default)]
    pub last_pace: Option<crate::workshop::Pace>,
    /// Decision id -> its options as every screen numbers them (1-4, with the text in the
    /// session's language), so the projector and the export need no content of their own.
    #[serde(default)]
    pub options: BTreeMap<String, Vec<OptionLabel>>,
    /// The mail relay's outbox as counts (no addresses); None when the host relays no mail.
    #[serde(default)]
    pub relay: Option<RelayCounts>,
    /// Lab id -> who solved it and where the others stand; only labs somebody checked.
    #[serde(default)]
    pub labs: BTreeMap<String, LabRoom>,
    /// Whether new trainees may join, and how fast they came lately.
    #[serde(default)]
    pub door: super::door::Door,
    /// Groups of trainee names that look alike though they differ (flagged for the instructor).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lookalikes: Vec<Vec<String>>,
    /// When the host built this view (host clock, Unix ms): the moment every screen judges
    /// "active" against, so the status, the export and the dashboard agree.
    #[serde(default)]
    pub now_ms: i64,
}

/// How recently the host must have heard from a trainee's client for the trainee to count as
/// active: a TUI asks every 3 s, so five minutes forgive a slow network, a short suspend and a
/// command-line trainee between two commands, while someone who closed the laptop stops
/// counting as active soon after.
pub const ACTIVE_MS: i64 = 300_000;

/// How a trainee is present, in the two words every screen uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// In the room and seen within [`ACTIVE_MS`].
    Active,
    /// In the room, not seen lately.
    InRoom,
    /// Left the session (their answers still count).
    Left,
}

impl Presence {
    /// Its id in the export's CSV (`active`, `in-the-room`, `left`).
    pub fn id(self) -> &'static str {
        match self {
            Presence::Active => "active",
            Presence::InRoom => "in-the-room",
            Presence::Left => "left",
        }
    }

    /// The string key of its word ("active", "in the room", "left").
    pub fn key(self) -> content::Key {
        match self {
            Presence::Active => key::room::ACTIVE,
            Presence::InRoom => key::room::IN_ROOM,
            Presence::Left => key::room::LEFT,
        }
    }
}

impl TraineeView {
    /// How many decisions the trainee answered, in either round: one answered first in a
    /// second vote counts as answered, as on the trainee's own screen.
    pub fn decisions_answered(&self) -> usize {
        self.second_votes
            .keys()
            .filter(|id| !self.decisions.contains_key(*id))
            .count()
            + self.decisions.len()
    }

    /// Whether the trainee is active at `now_ms` (host clock): in the room and seen lately.
    pub fn active(&self, now_ms: i64) -> bool {
        !self.left && self.last_contact_ms > 0 && now_ms - self.last_contact_ms <= ACTIVE_MS
    }

    /// The trainee's presence at `now_ms` (host clock).
    pub fn presence(&self, now_ms: i64) -> Presence {
        if self.left {
            Presence::Left
        } else if self.active(now_ms) {
            Presence::Active
        } else {
            Presence::InRoom
        }
    }
}

impl SummaryView {
    /// (in the room, active) at `now_ms`: the header's two numbers.
    pub fn presence_counts(&self, now_ms: i64) -> (usize, usize) {
        let in_room = self.trainees.iter().filter(|t| !t.left).count();
        let active = self.trainees.iter().filter(|t| t.active(now_ms)).count();
        (in_room, active)
    }
}

/// The host's mail relay (code and report mails) by status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelayCounts {
    /// Waiting for their first attempt.
    pub queued: u32,
    /// Sent.
    pub sent: u32,
    /// Failed at least once and waiting for a retry.
    pub retrying: u32,
    /// Given up.
    pub failed: u32,
}

/// One option of a decision as the room sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionLabel {
    /// The option id (the key of the distribution).
    pub id: String,
    /// 1-based, in the content's order: the number on the trainee's card.
    pub number: u32,
    /// The option's text.
    pub text: String,
    /// Whether it is the right answer (shown only after the reveal).
    #[serde(default)]
    pub correct: bool,
}

/// A Unix time in ms as `YYYY-MM-DD HH:MM UTC` (empty for "never"): the export's "last seen"
/// and the session date read the same on every machine.
pub fn utc_minute(ms: i64) -> String {
    if ms <= 0 {
        return String::new();
    }
    let secs = ms / 1000;
    let minute_of_day = secs.rem_euclid(86_400) / 60;
    format!(
        "{} {:02}:{:02} UTC",
        crate::report::iso_date(secs),
        minute_of_day / 60,
        minute_of_day % 60
    )
}

impl OptionLabel {
    /// "2. Retry with backoff": one form for every screen.
    pub fn label(&self) -> String {
        format!("{}. {}", self.number, self.text)
    }

    /// The labels of a course's decisions.
    pub fn of_course(course: &content::Course) -> BTreeMap<String, Vec<OptionLabel>> {
        course
            .decisions
            .iter()
            .map(|d| {
                let labels = d
                    .options
                    .iter()
                    .zip(1u32..)
                    .map(|(o, number)| OptionLabel {
                        id: o.id.clone(),
                        number,
                        text: o.text.clone(),
                        correct: o.correct,
                    })
                    .collect();
                (d.id.clone(), labels)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::TraineeView;

    #[test]
    fn a_decision_answered_first_in_a_second_vote_counts_once() {
        let pair = |d: &str, o: &str| (d.to_owned(), o.to_owned());
        let t = TraineeView {
            decisions: [pair("d1", "a"), pair("d3", "b")].into(),
            second_votes: [pair("d1", "c"), pair("d2", "a")].into(),
            ..TraineeView::default()
        };
        // d1 in both rounds counts once; d2 only in the second vote counts too.
        assert_eq!(t.decisions_answered(), 3);
    }
}

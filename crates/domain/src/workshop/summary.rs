//! The session summary the host builds from the events in its inbox. Applying an event is
//! order-independent where it matters (a trainee's first answer to a decision, by the trainee's
//! sequence number, is the vote; a later change never replaces it), so redelivered or reordered
//! events give the same summary.

pub mod door;
mod view;

pub use super::place::Place;
use super::{Catalog, Event, EventKind};
use std::collections::{BTreeMap, BTreeSet};
pub use view::{
    ACTIVE_MS, LabRoom, OptionLabel, OrderingTally, Presence, QuizTally, RelayCounts, SummaryView,
    TraineeView, utc_minute,
};

/// What the host knows about one trainee.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Trainee {
    name: String,
    chapters: BTreeSet<String>,
    /// Decision id -> (sequence number, option id) of the trainee's first answer: the vote.
    decisions: BTreeMap<String, (u64, String)>,
    /// The same for the first answer given during the instructor's second vote.
    second: BTreeMap<String, (u64, String)>,
    /// Attempt -> question -> correct.
    quiz: BTreeMap<i64, BTreeMap<String, bool>>,
    ordering: OrderingTally,
    scenarios: BTreeSet<String>,
    /// The newest stuck signal.
    stuck: Option<StuckSignal>,
    /// Sequence number of the newest "solved": it clears any stuck signal before it.
    solved_n: u64,
    /// Sequence number of the newest stuck signal the instructor acknowledged.
    acknowledged_n: u64,
    /// The trainee's answer to the instructor-copy question of their newest relayed report
    /// (None: no report went through the host, or its config names no instructor).
    instructor_copy: Option<bool>,
    last_seen_ms: i64,
    /// When the host last heard from the trainee's client (host clock, ms): a delivery or a
    /// pacing poll.
    contact_ms: i64,
    /// The contact time the host database holds (it is written at most every
    /// [`CONTACT_STORE_MS`], so a restart loses less than that).
    stored_contact_ms: i64,
    /// Sequence number of the newest "joined" and "left": whichever is newer says whether
    /// the trainee is in the room.
    joined_n: u64,
    left_n: Option<u64>,
    /// Sequence number and place of the trainee's newest event that says where they are.
    place: Option<(u64, Place)>,
    /// Lab id -> its checks so far.
    labs: BTreeMap<String, LabChecks>,
}

/// One trainee's checks of one lab: solved once any passed; the newest says where they stand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct LabChecks {
    solved: bool,
    /// Sequence number and reason of the newest check (empty reason: it passed).
    newest: (u64, String),
}

/// A trainee's newest stuck signal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct StuckSignal {
    n: u64,
    screen: String,
    text: String,
    at_ms: i64,
}

/// How much newer a contact must be than the one stored before the host writes it again: a
/// trainee polling every few seconds costs one write a half minute, and a restart shows them
/// active as they were.
pub const CONTACT_STORE_MS: i64 = 30_000;

impl Trainee {
    /// In the room: joined, and not left since (removed trainees have no row at all).
    fn in_room(&self) -> bool {
        self.left_n.is_none_or(|left| self.joined_n > left)
    }

    /// The stuck signal still open: newer than the last "solved".
    fn open_stuck(&self) -> Option<&StuckSignal> {
        self.stuck.as_ref().filter(|s| s.n > self.solved_n)
    }
}

/// Keeps the answer with the lowest sequence number per decision: the one given first.
fn keep_first(votes: &mut BTreeMap<String, (u64, String)>, decision: &str, n: u64, option: &str) {
    if votes.get(decision).is_none_or(|(first, _)| n < *first) {
        votes.insert(decision.to_owned(), (n, option.to_owned()));
    }
}

/// Decision id -> option id, without the sequence numbers.
fn options_only(votes: &BTreeMap<String, (u64, String)>) -> BTreeMap<String, String> {
    votes
        .iter()
        .map(|(d, (_, o))| (d.clone(), o.clone()))
        .collect()
}

/// All trainees' state, keyed by trainee id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    trainees: BTreeMap<String, Trainee>,
}

impl Summary {
    /// Notes a trainee (first delivery, or a new display name).
    pub fn name(&mut self, trainee: &str, name: &str) {
        name.clone_into(&mut self.trainees.entry(trainee.to_owned()).or_default().name);
    }

    /// Applies one stored event of a trainee.
    pub fn apply(&mut self, trainee: &str, event: &Event, catalog: &Catalog) {
        let t = self.trainees.entry(trainee.to_owned()).or_default();
        t.last_seen_ms = t.last_seen_ms.max(event.at_ms);
        if let Some(place) = Place::of(&event.kind)
            && t.place.as_ref().is_none_or(|(n, _)| *n < event.n)
        {
            t.place = Some((event.n, place));
        }
        match &event.kind {
            EventKind::ChapterRead { chapter } => {
                t.chapters.insert(chapter.clone());
            }
            // Peer instruction counts the answer given before any feedback, in each round: a
            // trainee who sees "wrong" and changes it must not turn the room's distribution.
            EventKind::Decision { decision, option } => {
                keep_first(&mut t.decisions, decision, event.n, option);
            }
            EventKind::SecondVote { decision, option } => {
                keep_first(&mut t.second, decision, event.n, option);
            }
            EventKind::OrderingAttempt => t.ordering.attempts += 1,
            EventKind::OrderingMistake => t.ordering.mistakes += 1,
            EventKind::OrderingSolved => t.ordering.solved = 1,
            EventKind::ScenarioRun { scenario } => {
                t.scenarios.insert(scenario.clone());
            }
            EventKind::QuizAnswer {
                attempt,
                question,
                options,
            } => {
                let correct = catalog.is_correct(question, options);
                t.quiz
                    .entry(*attempt)
                    .or_default()
                    .insert(question.clone(), correct);
            }
            EventKind::QuizScore { attempt, .. } => {
                // The score follows from the answers; the attempt is noted so an attempt
                // finished without answers still shows as the newest.
                t.quiz.entry(*attempt).or_default();
            }
            EventKind::Stuck { screen, text } => {
                if t.stuck.as_ref().is_none_or(|s| s.n < event.n) {
                    t.stuck = Some(StuckSignal {
                        n: event.n,
                        screen: screen.clone(),
                        text: text.clone(),
                        at_ms: event.at_ms,
                    });
                }
            }
            EventKind::Solved => t.solved_n = t.solved_n.max(event.n),
            EventKind::Joined => t.joined_n = t.joined_n.max(event.n),
            EventKind::Left => t.left_n = t.left_n.max(Some(event.n)),
            EventKind::LabChecked {
                lab,
                passed,
                reason,
            } => {
                let checks = t.labs.entry(lab.clone()).or_default();
                checks.solved |= *passed;
                if checks.newest.0 <= event.n {
                    checks.newest = (event.n, reason.clone());
                }
            }
        }
    }

    /// Notes that the trainee's client reached the host at `now_ms` (host clock); an id the
    /// host does not know stays unknown. True when the host should store the contact now
    /// (then call [`Summary::contact_stored`]).
    pub fn touch(&mut self, trainee: &str, now_ms: i64) -> bool {
        let Some(t) = self.trainees.get_mut(trainee) else {
            return false;
        };
        t.contact_ms = t.contact_ms.max(now_ms);
        t.contact_ms - t.stored_contact_ms >= CONTACT_STORE_MS
    }

    /// Notes a contact time the host database holds (after storing it, or read at start).
    pub fn contact_stored(&mut self, trainee: &str, at_ms: i64) {
        if let Some(t) = self.trainees.get_mut(trainee) {
            t.contact_ms = t.contact_ms.max(at_ms);
            t.stored_contact_ms = t.stored_contact_ms.max(at_ms);
        }
    }

    /// Each trainee's newest contact (id, host ms), to carry over into a rebuilt summary.
    pub fn contacts(&self) -> Vec<(String, i64)> {
        self.trainees
            .iter()
            .map(|(id, t)| (id.clone(), t.contact_ms))
            .collect()
    }

    /// The sequence number of the trainee's open stuck signal, if any.
    pub fn open_stuck(&self, trainee: &str) -> Option<u64> {
        self.trainees.get(trainee)?.open_stuck().map(|s| s.n)
    }

    /// Notes that the instructor acknowledged the trainee's stuck signal number `n`.
    pub fn acknowledge(&mut self, trainee: &str, n: u64) {
        if let Some(t) = self.trainees.get_mut(trainee) {
            t.acknowledged_n = t.acknowledged_n.max(n);
        }
    }

    /// Notes the trainee's answer to the instructor-copy question of a relayed report.
    pub fn instructor_copy(&mut self, trainee: &str, consent: bool) {
        if let Some(t) = self.trainees.get_mut(trainee) {
            t.instructor_copy = Some(consent);
        }
    }

    /// Whether the trainee has an open stuck signal (Some) and the instructor acknowledged it.
    pub fn stuck_state(&self, trainee: &str) -> Option<bool> {
        let t = self.trainees.get(trainee)?;
        t.open_stuck().map(|s| t.acknowledged_n >= s.n)
    }

    /// Decision id -> option id -> trainees whose first answer it is; every decision and
    /// option of the catalogue is there, with 0 when nobody chose it.
    pub fn distributions(&self, catalog: &Catalog) -> BTreeMap<String, BTreeMap<String, u32>> {
        self.tally(catalog, catalog.decisions.keys(), |t| &t.decisions)
    }

    /// The same for the second votes on `opened` (the decisions the instructor opened a second
    /// vote on): every option of each, with 0 when nobody chose it.
    pub fn second_distributions<'a>(
        &self,
        catalog: &Catalog,
        opened: impl IntoIterator<Item = &'a String>,
    ) -> BTreeMap<String, BTreeMap<String, u32>> {
        self.tally(catalog, opened, |t| &t.second)
    }

    /// Whether the trainee's second vote on `decision` is counted.
    pub fn second_given(&self, trainee: &str, decision: &str) -> bool {
        self.trainees
            .get(trainee)
            .is_some_and(|t| t.second.contains_key(decision))
    }

    /// Option counts of `decisions` over the votes `votes` picks from each trainee.
    fn tally<'a>(
        &self,
        catalog: &Catalog,
        decisions: impl IntoIterator<Item = &'a String>,
        votes: impl Fn(&Trainee) -> &BTreeMap<String, (u64, String)>,
    ) -> BTreeMap<String, BTreeMap<String, u32>> {
        let mut out: BTreeMap<String, BTreeMap<String, u32>> = decisions
            .into_iter()
            .filter_map(|d| catalog.decisions.get_key_value(d))
            .map(|(d, options)| (d.clone(), options.iter().map(|o| (o.clone(), 0)).collect()))
            .collect();
        for t in self.trainees.values() {
            for (decision, (_, option)) in votes(t) {
                if let Some(counts) = out.get_mut(decision) {
                    *counts.entry(option.clone()).or_default() += 1;
                }
            }
        }
        out
    }

    /// How many trainees are known.
    pub fn trainee_count(&self) -> usize {
        self.trainees.len()
    }

    /// The JSON view.
    pub fn view(
        &self,
        session: &str,
        events: u64,
        duplicates: u64,
        catalog: &Catalog,
        texts: &super::RoomTexts,
    ) -> SummaryView {
        let mut view = SummaryView {
            session: session.to_owned(),
            events,
            duplicates,
            decisions: self.distributions(catalog),
            ..SummaryView::default()
        };
        for (id, t) in &self.trainees {
            let newest = t.quiz.last_key_value().map(|(_, answers)| answers);
            let mut quiz = QuizTally::default();
            for (question, correct) in newest.into_iter().flatten() {
                let q = view.quiz.entry(question.clone()).or_default();
                q.answered += 1;
                q.correct += u32::from(*correct);
                quiz.answered += 1;
                quiz.correct += u32::from(*correct);
            }
            for scenario in &t.scenarios {
                *view.scenarios.entry(scenario.clone()).or_default() += 1;
            }
            view.ordering.solved += t.ordering.solved;
            view.ordering.attempts += t.ordering.attempts;
            view.ordering.mistakes += t.ordering.mistakes;
            for (lab, checks) in &t.labs {
                let room = view.labs.entry(lab.clone()).or_default();
                if checks.solved {
                    room.solved += 1;
                } else if !checks.newest.1.is_empty() {
                    *room.failing.entry(checks.newest.1.clone()).or_default() += 1;
                }
            }
            view.trainees.push(TraineeView {
                id: id.clone(),
                name: t.name.clone(),
                chapters_read: crate::progress::chapters_read_count(
                    catalog.chapters.iter().map(String::as_str),
                    &t.chapters,
                ),
                decisions: options_only(&t.decisions),
                second_votes: options_only(&t.second),
                quiz,
                ordering: t.ordering,
                scenarios: t.scenarios.iter().cloned().collect(),
                stuck: t.open_stuck().is_some(),
                stuck_screen: t.open_stuck().map(|s| texts.screen(&s.screen)),
                stuck_text: t.open_stuck().map(|s| s.text.clone()),
                last_seen_ms: t.last_seen_ms,
                last_contact_ms: t.contact_ms,
                left: !t.in_room(),
                stuck_since_ms: t.open_stuck().map(|s| s.at_ms),
                stuck_acknowledged: t.open_stuck().is_some_and(|s| t.acknowledged_n >= s.n),
                screen: t.place.as_ref().map(|(_, place)| texts.place(place)),
                level: (quiz.answered as usize >= content::QUESTION_COUNT)
                    .then(|| texts.level(quiz.correct))
                    .flatten(),
                labs_solved: t
                    .labs
                    .iter()
                    .filter(|(_, c)| c.solved)
                    .map(|(lab, _)| lab.clone())
                    .collect(),
                instructor_copy: t.instructor_copy,
            });
        }
        view.trainees
            .sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
        view
    }
}

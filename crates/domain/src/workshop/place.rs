//! Where a trainee is, as far as the host can tell: the place their newest event shows.

use super::EventKind;

/// Where a trainee's newest event puts them (shown by title, never by id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Read a chapter (id).
    Chapter(String),
    /// Answered a decision (id).
    Decision(String),
    /// Ran a scenario (id).
    Scenario(String),
    /// Played the ordering game.
    Ordering,
    /// Answered in the final quiz.
    Quiz,
    /// Checked a lab (id).
    Lab(String),
    /// Said they are stuck on this screen (the name the trainee's client sends).
    Screen(String),
}

impl Place {
    /// The place an event shows, if it shows one ("solved", "joined" and "left" say nothing
    /// about where).
    pub(super) fn of(kind: &EventKind) -> Option<Place> {
        Some(match kind {
            EventKind::ChapterRead { chapter } => Place::Chapter(chapter.clone()),
            EventKind::Decision { decision, .. } | EventKind::SecondVote { decision, .. } => {
                Place::Decision(decision.clone())
            }
            EventKind::ScenarioRun { scenario } => Place::Scenario(scenario.clone()),
            EventKind::OrderingAttempt | EventKind::OrderingMistake | EventKind::OrderingSolved => {
                Place::Ordering
            }
            EventKind::QuizAnswer { .. } | EventKind::QuizScore { .. } => Place::Quiz,
            EventKind::Stuck { screen, .. } => Place::Screen(screen.clone()),
            EventKind::LabChecked { lab, .. } => Place::Lab(lab.clone()),
            EventKind::Solved | EventKind::Joined | EventKind::Left => return None,
        })
    }
}

//! The content ids the host accepts in events, and the quiz's right answers so the host judges
//! answers itself (a trainee cannot claim "correct"). Ids are the same in every language.

use super::{Event, EventKind, MAX_SCREEN_CHARS, MAX_STUCK_CHARS};

/// Highest quiz attempt number an event may carry (the trainee's attempts are numbered from 1
/// by its store; nobody takes the quiz ten thousand times): one trainee cannot make the host
/// keep results under arbitrary numbers.
pub const MAX_QUIZ_ATTEMPT: i64 = 10_000;
/// Longest reason a failed lab check may carry (a moment or invariant name).
const MAX_LAB_REASON: usize = 48;
use content::{Content, Lang};
use std::collections::{BTreeMap, BTreeSet};

/// Known ids, built once from the loaded content.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalog {
    /// Chapter ids.
    pub chapters: BTreeSet<String>,
    /// Decision id -> its option ids in the content's order: option k (0-based) is the one
    /// every screen numbers k + 1.
    pub decisions: BTreeMap<String, Vec<String>>,
    /// Question id -> (all option ids, the right ones).
    pub questions: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>,
    /// Scenario ids.
    pub scenarios: BTreeSet<String>,
    /// Lab ids.
    pub labs: BTreeSet<String>,
}

impl Catalog {
    /// The catalogue of the loaded content.
    pub fn new(content: &Content) -> Catalog {
        let course = content.course(Lang::En);
        Catalog {
            chapters: course.chapters.iter().map(|c| c.id.clone()).collect(),
            decisions: course
                .decisions
                .iter()
                .map(|d| {
                    (
                        d.id.clone(),
                        d.options.iter().map(|o| o.id.clone()).collect(),
                    )
                })
                .collect(),
            questions: course
                .quiz
                .questions
                .iter()
                .map(|q| {
                    let all = q.options.iter().map(|o| o.id.clone()).collect();
                    let right = q
                        .options
                        .iter()
                        .filter(|o| o.correct)
                        .map(|o| o.id.clone())
                        .collect();
                    (q.id.clone(), (all, right))
                })
                .collect(),
            scenarios: content.scenarios.iter().map(|s| s.id.clone()).collect(),
            labs: content.labs.iter().map(|l| l.id.clone()).collect(),
        }
    }

    /// Whether these chosen options are the right answer to the question.
    pub fn is_correct(&self, question: &str, options: &[String]) -> bool {
        self.questions.get(question).is_some_and(|(_, right)| {
            let chosen: BTreeSet<&String> = options.iter().collect();
            chosen.len() == right.len() && right.iter().all(|r| chosen.contains(r))
        })
    }

    /// Checks an event against the content; the error names the bad value.
    pub fn validate(&self, event: &Event) -> Result<(), String> {
        if event.id.is_empty()
            || event.id.len() > 64
            || !event
                .id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return Err(format!(
                "event id {:?} must be 1 to 64 letters, digits or -",
                event.id
            ));
        }
        let unknown = |what: &str, id: &str| Err(format!("unknown {what} id {id:?}"));
        if let EventKind::QuizAnswer { attempt, .. } | EventKind::QuizScore { attempt, .. } =
            &event.kind
            && !(1..=MAX_QUIZ_ATTEMPT).contains(attempt)
        {
            return Err(format!(
                "quiz attempt number {attempt} is not between 1 and {MAX_QUIZ_ATTEMPT}"
            ));
        }
        match &event.kind {
            EventKind::ChapterRead { chapter } if !self.chapters.contains(chapter) => {
                unknown("chapter", chapter)
            }
            EventKind::Decision { decision, option }
            | EventKind::SecondVote { decision, option } => match self.decisions.get(decision) {
                None => unknown("decision", decision),
                Some(options) if !options.contains(option) => {
                    Err(format!("decision {decision:?} has no option {option:?}"))
                }
                Some(_) => Ok(()),
            },
            EventKind::ScenarioRun { scenario } if !self.scenarios.contains(scenario) => {
                unknown("scenario", scenario)
            }
            EventKind::QuizAnswer {
                question, options, ..
            } => match self.questions.get(question) {
                None => unknown("question", question),
                Some((all, _)) => match options.iter().find(|o| !all.contains(*o)) {
                    Some(bad) => Err(format!("question {question:?} has no option {bad:?}")),
                    None if options.is_empty() => {
                        Err(format!("answer to question {question:?} chooses no option"))
                    }
                    None => Ok(()),
                },
            },
            EventKind::QuizScore { score, .. } if *score as usize > self.questions.len() => Err(
                format!("quiz score {score} is more than the questions there are"),
            ),
            EventKind::LabChecked { lab, .. } if !self.labs.contains(lab) => unknown("lab", lab),
            EventKind::LabChecked { passed, reason, .. }
                if *passed != reason.is_empty()
                    || reason.len() > MAX_LAB_REASON
                    || !reason.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') =>
            {
                Err(format!(
                    "lab check reason {reason:?}: lower-case words joined by -, at most {MAX_LAB_REASON} characters, empty exactly when it passed"
                ))
            }
            EventKind::Stuck { screen, text }
                if screen.chars().count() > MAX_SCREEN_CHARS
                    || text.chars().count() > MAX_STUCK_CHARS =>
            {
                Err(format!(
                    "stuck signal longer than {MAX_STUCK_CHARS} characters (text) or {MAX_SCREEN_CHARS} (screen)"
                ))
            }
            _ => Ok(()),
        }
    }
}

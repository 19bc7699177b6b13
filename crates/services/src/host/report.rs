//! The report the host relays, composed from the host's own stored events and its own content
//! with the same composer the trainee uses (`domain::report::build`). A trainee's request says
//! only which language; its text never reaches the mail, so nobody can send a forged score or a
//! link from the instructor's account.

use content::{Content, Lang};
use domain::quiz::Attempt;
use domain::report::{self, Report, ReportInput};
use domain::workshop::{Event, EventKind};
use domain::{Fact, LabResult, Progress};
use std::collections::{BTreeMap, BTreeSet};

/// What the host knows about one trainee.
pub struct TraineeRecord<'a> {
    /// The name the room knows the trainee by (the host's own, already unique).
    pub name: &'a str,
    /// The trainee's stored events, in any order.
    pub events: Vec<Event>,
}

/// The report of the trainee's newest finished quiz attempt; None while no attempt is finished
/// (the host has no score to report).
pub fn compose(
    content: &Content,
    lang: Lang,
    workshop: &str,
    trainee: TraineeRecord<'_>,
    now_secs: i64,
) -> Option<Report> {
    let mut events = trainee.events;
    // The trainee's own sequence decides which of two answers is the later one.
    events.sort_by_key(|e| e.n);
    let finished = events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::QuizScore { attempt, .. } => Some(attempt),
            _ => None,
        })
        .max()?;
    let mut progress = Progress::default();
    let mut lab_results: BTreeMap<String, LabResult> = BTreeMap::new();
    let mut attempt = Attempt {
        id: finished,
        ..Attempt::default()
    };
    let course = content.course(lang);
    for event in &events {
        match &event.kind {
            EventKind::QuizAnswer {
                attempt: n,
                question,
                options,
            } if *n == finished => {
                let chosen: BTreeSet<String> = options.iter().cloned().collect();
                attempt.answers.insert(question.clone(), chosen);
                // The attempt's questions are the ones answered in it; options in file order.
                if let Some(q) = course.quiz.questions.iter().find(|q| &q.id == question) {
                    let ids = q.options.iter().map(|o| o.id.clone()).collect();
                    attempt.order.insert(question.clone(), ids);
                }
            }
            EventKind::LabChecked { lab, passed, .. } => {
                let result = lab_results.entry(lab.clone()).or_default();
                result.attempts += 1;
                if *passed && result.solved_at.is_none() {
                    result.solved_at = Some(event.at_ms / 1000);
                }
            }
            kind => {
                if let Some(fact) = fact_of(kind) {
                    progress.apply(&fact);
                }
            }
        }
    }
    let date = report::iso_date(now_secs);
    Some(report::build(&ReportInput {
        course,
        scenarios: &content.scenarios,
        lang,
        workshop,
        date: &date,
        progress: &progress,
        attempt: &attempt,
        learner: Some(trainee.name),
        labs: &content.labs[..],
        lab_results: &lab_results,
    }))
}

/// The progress fact an event stands for (the inverse of `workshop::event_for`).
fn fact_of(kind: &EventKind) -> Option<Fact> {
    Some(match kind {
        EventKind::ChapterRead { chapter } => Fact::ChapterRead(chapter.clone()),
        EventKind::Decision { decision, option } => Fact::DecisionAnswered {
            decision: decision.clone(),
            option: option.clone(),
        },
        EventKind::SecondVote { decision, option } => Fact::SecondVote {
            decision: decision.clone(),
            option: option.clone(),
        },
        EventKind::OrderingAttempt => Fact::OrderingAttempt,
        EventKind::OrderingMistake => Fact::OrderingMistake,
        EventKind::OrderingSolved => Fact::OrderingSolved,
        EventKind::ScenarioRun { scenario } => Fact::ScenarioRun(scenario.clone()),
        EventKind::QuizAnswer { .. }
        | EventKind::QuizScore { .. }
        | EventKind::Stuck { .. }
        | EventKind::Solved
        | EventKind::Joined
        | EventKind::Left
        // Labs are no progress fact: `compose` counts their checks itself.
        | EventKind::LabChecked { .. } => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use content::ContentSource;
    use content::key;

    fn ev(n: u64, kind: EventKind) -> Event {
        Event {
            id: format!("e{n}"),
            n,
            at_ms: 0,
            kind,
        }
    }

    #[test]
    fn the_report_says_what_the_host_stored_and_nothing_before_a_finished_quiz() {
        let content = content::load(&ContentSource::Embedded).expect("content");
        let course = content.course(Lang::En);
        let q = &course.quiz.questions[0];
        let right: Vec<String> = q
            .options
            .iter()
            .filter(|o| o.correct)
            .map(|o| o.id.clone())
            .collect();
        let chapter = course.chapters[0].id.clone();
        let mut events = vec![
            ev(1, EventKind::ChapterRead { chapter }),
            ev(
                2,
                EventKind::QuizAnswer {
                    attempt: 3,
                    question: q.id.clone(),
                    options: right,
                },
            ),
        ];
        let record = |events: &Vec<Event>| TraineeRecord {
            name: "Ada",
            events: events.clone(),
        };
        assert_eq!(
            compose(&content, Lang::En, "Room 1", record(&events), 0),
            None,
            "no finished attempt, no report"
        );
        // The score the trainee claims is not the score reported: the host counts the answers.
        events.push(ev(
            3,
            EventKind::QuizScore {
                attempt: 3,
                score: 99,
            },
        ));
        let report =
            compose(&content, Lang::En, "Room 1", record(&events), 0).expect("a finished attempt");
        let text = report.text();
        assert!(text.contains("Ada"), "{text}");
        assert!(!text.contains("99"), "{text}");
        assert!(text.contains(&q.prompt.replace('`', "")), "{text}");
        assert!(report.subject.contains("Ada"), "{}", report.subject);
        // Lab 1 failed once, then passed; checked again after that: solved, three checks.
        let lab = &content.labs[0];
        for (n, passed) in [(4, false), (5, true), (6, true)] {
            events.push(ev(
                n,
                EventKind::LabChecked {
                    lab: lab.id.clone(),
                    passed,
                    reason: if passed { "" } else { "duplicate-effect" }.into(),
                },
            ));
        }
        let text = compose(&content, Lang::En, "Room 1", record(&events), 0)
            .expect("a finished attempt")
            .text();
        let title = course.strings.fill(
            key::report::LAB_TITLE,
            &[
                ("n", &lab.number.to_string()),
                ("title", &lab.title[&Lang::En]),
            ],
        );
        let solved = course.strings.fill(
            key::report::LAB_SOLVED,
            &[("title", &title), ("checks", "3")],
        );
        assert!(text.contains(&solved), "{text}");
    }
}

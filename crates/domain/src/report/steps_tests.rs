//! The report's subject, next steps, decisions and partly right multi-selects (issue: the
//! subject named the product twice, the next steps were the same for different mistakes, the
//! decisions list showed no right answer, and a partly right multi-select said only "wrong").

use super::*;
use crate::quiz::{one_wrong_option, right_options};
use content::key;
use content::{Content, ContentSource, Question, load};
use std::collections::BTreeSet;

fn content() -> Content {
    load(&ContentSource::Embedded).expect("shipped content is valid")
}

/// An attempt with every drawn question answered, wrongly for the topics in `wrong`.
fn attempt_wrong_in(course: &content::Course, wrong: &[&str]) -> Attempt {
    let mut attempt = Attempt::new(&course.quiz, 5);
    let drawn: Vec<Question> = attempt
        .questions(&course.quiz)
        .into_iter()
        .cloned()
        .collect();
    for q in &drawn {
        let chosen = if wrong.contains(&q.topic.as_str()) {
            one_wrong_option(q)
        } else {
            right_options(q)
        };
        attempt.answer(&q.id, chosen);
    }
    attempt
}

fn report(
    course: &content::Course,
    attempt: &Attempt,
    progress: &Progress,
    workshop: &str,
    learner: Option<&str>,
) -> Report {
    build(&ReportInput {
        course,
        scenarios: &[],
        lang: Lang::De,
        workshop,
        date: "2026-12-01",
        progress,
        attempt,
        learner,
        labs: &[],
        lab_results: &std::collections::BTreeMap::new(),
    })
}

fn steps(report: &Report, course: &content::Course) -> Vec<String> {
    let heading = course.strings.get(key::report::NEXT_STEPS);
    report
        .blocks
        .iter()
        .skip_while(|b| *b != &Block::Heading(heading.to_owned()))
        .skip(1)
        .map_while(|b| match b {
            Block::Item(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// A topic's step as the report shows it (ids lose their `code` marks in a mail).
fn step(course: &content::Course, topic: &str) -> String {
    let mut text = course
        .strings
        .get(super::step_key(topic).expect("a quiz topic"))
        .to_owned();
    text.retain(|c| c != '`');
    text
}

#[test]
fn the_subject_names_the_product_once() {
    let content = content();
    let course = content.course(Lang::De);
    let attempt = attempt_wrong_in(course, &[]);
    let progress = Progress::default();
    let named = report(course, &attempt, &progress, "queuelab", Some("Anna Müller"));
    assert_eq!(named.subject, "queuelab-Bericht von Anna Müller");
    let unnamed = report(course, &attempt, &progress, "queuelab", None);
    assert_eq!(unnamed.subject.matches("queuelab").count(), 1);
    let workshop = report(course, &attempt, &progress, "Resilienz-Tag", Some("Anna"));
    assert_eq!(workshop.subject, "Resilienz-Tag: queuelab-Bericht von Anna");
}

#[test]
fn next_steps_follow_the_topics_answered_wrongly() {
    let content = content();
    let course = content.course(Lang::De);
    let progress = Progress::default();
    let outbox = report(
        course,
        &attempt_wrong_in(course, &["outbox", "dlq"]),
        &progress,
        "queuelab",
        None,
    );
    let ordering = report(
        course,
        &attempt_wrong_in(course, &["ordering", "sqs"]),
        &progress,
        "queuelab",
        None,
    );
    let (a, b) = (steps(&outbox, course), steps(&ordering, course));
    assert_ne!(a, b, "different mistakes, different steps");
    assert!(a.contains(&step(course, "outbox")));
    assert!(a.contains(&step(course, "dlq")));
    assert!(b.contains(&step(course, "ordering")));
    assert!(!b.contains(&step(course, "outbox")));
    assert!(a.len() >= MIN_NEXT_STEPS && b.len() >= MIN_NEXT_STEPS);
    let flawless = report(course, &attempt_wrong_in(course, &[]), &progress, "q", None);
    assert!(
        !steps(&flawless, course).is_empty(),
        "the level's steps without a mistake"
    );
}

#[test]
fn every_quiz_topic_has_a_next_step_in_both_languages() {
    let content = content();
    for lang in [Lang::De, Lang::En] {
        let strings = &content.course(lang).strings;
        for topic in content::TOPICS {
            let key = super::step_key(topic).expect("a quiz topic has a step");
            assert!(strings.lookup(key.name()).is_some(), "{lang} {key}");
        }
    }
}

#[test]
fn the_decisions_list_shows_the_right_answer_where_the_choice_was_not() {
    let content = content();
    let course = content.course(Lang::De);
    let attempt = attempt_wrong_in(course, &[]);
    let mut progress = Progress::default();
    let d = &course.decisions[0];
    let wrong = d
        .options
        .iter()
        .find(|o| !o.correct)
        .expect("a wrong option");
    let right = d
        .options
        .iter()
        .find(|o| o.correct)
        .expect("a right option");
    progress.decisions.insert(d.id.clone(), wrong.id.clone());
    let text = report(course, &attempt, &progress, "queuelab", None).text();
    let expected = course
        .strings
        .fill(key::report::RIGHT_ANSWER, &[("answer", &right.text)]);
    assert!(text.contains(&expected), "{text}");
}

#[test]
fn a_partly_right_multi_select_says_which_picks_were_right() {
    let content = content();
    let course = content.course(Lang::De);
    let two_right = |q: &&Question| q.multi && q.options.iter().filter(|o| o.correct).count() >= 2;
    // The first seed that draws a multi-select with two right options.
    let (mut attempt, multi) = (0..200)
        .find_map(|seed| {
            let attempt = Attempt::new(&course.quiz, seed);
            let multi = attempt
                .questions(&course.quiz)
                .into_iter()
                .find(two_right)
                .cloned()?;
            Some((attempt, multi))
        })
        .expect("a drawn multi-select with two right options");
    let multi = &multi;
    let hit = multi.options.iter().find(|o| o.correct).expect("right");
    let miss = multi.options.iter().find(|o| !o.correct).expect("wrong");
    attempt.answer(&multi.id, BTreeSet::from([hit.id.clone(), miss.id.clone()]));
    let text = report(course, &attempt, &Progress::default(), "queuelab", None).text();
    let s = &course.strings;
    assert!(
        text.contains(&s.fill(key::report::PICK_RIGHT, &[("text", &hit.text)])),
        "{text}"
    );
    assert!(text.contains(&s.fill(key::report::PICK_WRONG, &[("text", &miss.text)])));
    let total = multi.options.iter().filter(|o| o.correct).count();
    assert!(text.contains(&s.fill(
        key::report::PARTLY_RIGHT,
        &[("hits", "1"), ("total", &total.to_string())]
    )));
}

//! The "see it happen" rule: the shipped cards pass it; two wrong options that share a run
//! fail it unless one says it shows the other's design, and so do shared feedback texts, an
//! unknown scenario and a `same_design_as` that names no other wrong option.

use super::*;
use crate::{Content, ContentSource, load};

/// The shipped content, loaded once (loading validates everything).
fn content() -> &'static Content {
    static CONTENT: std::sync::OnceLock<Content> = std::sync::OnceLock::new();
    CONTENT.get_or_init(|| match load(&ContentSource::Embedded) {
        Ok(content) => content,
        Err(problems) => panic!("the shipped content loads: {problems:?}"),
    })
}

fn problems_of(lang: Lang, course: &Course) -> Vec<Problem> {
    let scenarios: BTreeSet<&str> = content().scenarios.iter().map(|s| s.id.as_str()).collect();
    let mut problems = Vec::new();
    check(lang, course, &scenarios, &mut problems);
    problems
}

/// Whether the card plays at least two wrong options, each on a run of its own.
fn plays_two_designs(d: &Decision) -> bool {
    let runs: Vec<_> = d
        .options
        .iter()
        .filter(|o| !o.correct && o.same_design_as.is_none())
        .filter_map(DecisionOption::run)
        .collect();
    let distinct: BTreeSet<_> = runs.iter().collect();
    runs.len() >= 2 && distinct.len() == runs.len()
}

/// The shipped course in `lang` with `change` applied to the wrong options that play a run of
/// their own on its first card that plays two designs.
fn changed(lang: Lang, change: impl Fn(&mut [&mut DecisionOption])) -> Course {
    let mut course = content().course(lang).clone();
    let card = course
        .decisions
        .iter_mut()
        .find(|d| plays_two_designs(d))
        .expect("a card with two wrong options on runs of their own");
    let mut wrong: Vec<&mut DecisionOption> = card
        .options
        .iter_mut()
        .filter(|o| !o.correct && o.run().is_some() && o.same_design_as.is_none())
        .collect();
    change(&mut wrong);
    course
}

/// The second wrong option plays the first one's run.
fn share_a_run(wrong: &mut [&mut DecisionOption]) {
    let (first, rest) = wrong.split_first_mut().expect("two wrong options");
    rest[0].scenario.clone_from(&first.scenario);
    rest[0].mode.clone_from(&first.mode);
    rest[0].same_design_as = None;
    first.same_design_as = None;
}

#[test]
fn the_shipped_cards_give_each_wrong_option_its_own_run() {
    for lang in Lang::ALL {
        let problems = problems_of(lang, content().course(lang));
        assert!(problems.is_empty(), "{lang}: {problems:#?}");
    }
}

#[test]
fn two_wrong_options_on_one_run_fail() {
    for lang in Lang::ALL {
        let problems = problems_of(lang, &changed(lang, share_a_run));
        // One problem per pair on the shared run (an option showing the first one's design
        // on the card makes a second pair).
        assert!(!problems.is_empty(), "{lang}: the shared run passed");
        for p in &problems {
            assert!(p.message.contains("both play scenario"), "{problems:?}");
            assert!(
                p.path.ends_with(&format!("{lang}/decisions.toml")),
                "{problems:?}"
            );
        }
    }
}

#[test]
fn saying_they_show_one_design_lets_them_share_it() {
    let course = changed(Lang::En, |wrong| {
        share_a_run(wrong);
        let first = wrong[0].id.clone();
        wrong[1].same_design_as = Some(first);
    });
    let problems = problems_of(Lang::En, &course);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn one_feedback_for_two_options_fails() {
    let course = changed(Lang::De, |wrong| {
        let text = wrong[0].feedback.clone();
        wrong[1].feedback = format!("{text}  ");
    });
    let problems = problems_of(Lang::De, &course);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].message.contains("word for word"),
        "{problems:?}"
    );
}

#[test]
fn an_unknown_scenario_or_a_design_named_wrongly_fails() {
    let course = changed(Lang::En, |wrong| {
        wrong[0].scenario = "no-such-scenario".to_owned();
        wrong[1].same_design_as = Some(wrong[1].id.clone());
    });
    let messages: Vec<String> = problems_of(Lang::En, &course)
        .into_iter()
        .map(|p| p.message)
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("unknown scenario")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("same_design_as")),
        "{messages:?}"
    );
}

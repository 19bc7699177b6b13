//! Checks that span files: references resolve, decisions sit in their chapters, and both
//! languages carry the same ids, options and answers.

use super::doc::{Block, Directive};
use super::{Content, Course, Lang, Problem};
use std::collections::BTreeSet;

mod cues;
mod giveaway;
mod see_it;

/// Runs every cross-file check and appends what it finds.
pub fn check(content: &Content, problems: &mut Vec<Problem>) {
    for lang in Lang::ALL {
        check_course(lang, content.course(lang), &scenario_ids(content), problems);
    }
    check_parity(content.course(Lang::De), content.course(Lang::En), problems);
}

/// The ids of the loaded scenarios (decisions may name only these).
fn scenario_ids(content: &Content) -> BTreeSet<&str> {
    content.scenarios.iter().map(|s| s.id.as_str()).collect()
}

fn check_course(
    lang: Lang,
    course: &Course,
    scenarios: &BTreeSet<&str>,
    problems: &mut Vec<Problem>,
) {
    let mut ids = BTreeSet::new();
    for (index, chapter) in course.chapters.iter().enumerate() {
        if !ids.insert(chapter.id.as_str()) {
            problems.push(at_line(
                &chapter.path,
                chapter.id_line,
                format!("duplicate chapter id {:?}", chapter.id),
            ));
        }
        if chapter.number != index + 1 {
            problems.push(Problem::file(
                &chapter.path,
                format!(
                    "chapter numbers must run 01, 02, ... without gaps; expected {:02}",
                    index + 1
                ),
            ));
        }
        for (decision_id, line) in chapter.decision_ids() {
            match course.decision(decision_id) {
                None => problems.push(at_line(
                    &chapter.path,
                    line,
                    format!("unknown decision {decision_id:?}"),
                )),
                Some(d) if d.chapter != chapter.id => problems.push(at_line(
                    &chapter.path,
                    line,
                    format!(
                        "decision {decision_id:?} belongs to chapter {:?}",
                        d.chapter
                    ),
                )),
                Some(_) => {}
            }
        }
    }
    giveaway::check(lang, course, problems);
    cues::check(lang, course, problems);
    see_it::check(lang, course, scenarios, problems);
    let path = format!("lessons/{lang}/decisions.toml");
    for decision in &course.decisions {
        if !scenarios.contains(decision.scenario.as_str()) {
            problems.push(at_line(
                &path,
                decision.id_line,
                format!("unknown scenario {:?}", decision.scenario),
            ));
        }
        let embedded = course.chapter(&decision.chapter).map(|c| {
            c.decision_ids()
                .filter(|(id, _)| *id == decision.id)
                .count()
        });
        match embedded {
            None => problems.push(at_line(&path, decision.id_line, format!("unknown chapter {:?}", decision.chapter))),
            Some(1) => {}
            Some(n) => problems.push(at_line(
                &path,
                decision.id_line,
                format!(
                    "chapter {:?} must embed decision {:?} once with \"::: decision {}\" (found {n})",
                    decision.chapter, decision.id, decision.id
                ),
            )),
        }
    }
}

/// What must agree between the languages: the file that says it, what it is, and how to read
/// it from a course.
type ParityRule = (&'static str, &'static str, fn(&Course) -> Vec<String>);

const PARITY: [ParityRule; 10] = [
    ("lessons/en/glossary.toml", "glossary term ids", |c| {
        c.glossary.terms.iter().map(|t| t.id.clone()).collect()
    }),
    (
        "lessons/en/chapters",
        "chapter ids (in order)",
        chapter_keys,
    ),
    (
        "lessons/en/decisions.toml",
        "decisions, options and answers",
        decision_keys,
    ),
    ("lessons/en/ordering.toml", "ordering step ids", |c| {
        c.ordering.steps.iter().map(|s| s.id.clone()).collect()
    }),
    ("lessons/en/reference.toml", "flow stage ids", |c| {
        c.reference.flow.iter().map(|f| f.id.clone()).collect()
    }),
    ("lessons/en/reference.toml", "checklist ids", |c| {
        c.reference.checklist.iter().map(|c| c.id.clone()).collect()
    }),
    (
        "lessons/en/reference.toml",
        "runbook ids and metrics",
        |c| {
            c.reference
                .runbook
                .iter()
                .map(|r| format!("{}={}", r.id, r.metric))
                .collect()
        },
    ),
    (
        "quiz/en/quiz.toml",
        "questions, options and answers",
        question_keys,
    ),
    ("quiz/en/quiz.toml", "level thresholds", |c| {
        c.quiz
            .levels
            .iter()
            .map(|l| format!("{}>={}", l.id, l.min_score))
            .collect()
    }),
    ("assets/strings/en.toml", "string keys", |c| {
        c.strings.keys().map(str::to_owned).collect()
    }),
];

fn check_parity(de: &Course, en: &Course, problems: &mut Vec<Problem>) {
    let pairs = PARITY.map(|(path, what, read)| (path, what, read(de), read(en)));
    for (path, what, de_keys, en_keys) in pairs {
        if de_keys != en_keys {
            let only_de: Vec<&String> = de_keys.iter().filter(|k| !en_keys.contains(k)).collect();
            let only_en: Vec<&String> = en_keys.iter().filter(|k| !de_keys.contains(k)).collect();
            let detail = if only_de.is_empty() && only_en.is_empty() {
                "same entries in a different order".to_owned()
            } else {
                format!("only in de: {only_de:?}; only in en: {only_en:?}")
            };
            problems.push(Problem::file(
                path,
                format!("de and en differ in {what}: {detail}"),
            ));
        }
    }
    let calc = (&de.reference.calculator, &en.reference.calculator);
    if calc.0 != calc.1 {
        problems.push(Problem::file(
            "lessons/en/reference.toml",
            "de and en differ in the calculator defaults",
        ));
    }
}

/// Each chapter's id with the interactive parts it embeds, so a widget missing in one
/// language is a parity error too.
fn chapter_keys(course: &Course) -> Vec<String> {
    course
        .chapters
        .iter()
        .map(|c| {
            let parts: Vec<String> = c
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Directive {
                        directive: Directive::Decision(id),
                        ..
                    } => Some(format!("decision {id}")),
                    Block::Directive {
                        directive: Directive::Widget(w),
                        ..
                    } => Some(format!("{w:?}")),
                    _ => None,
                })
                .collect();
            format!("{:02} {} [{}]", c.number, c.id, parts.join(", "))
        })
        .collect()
}

fn decision_keys(course: &Course) -> Vec<String> {
    course
        .decisions
        .iter()
        .flat_map(|d| {
            d.options.iter().map(move |o| {
                format!(
                    "{}@{}->{}: {}={} run={}/{} same_design_as={:?}",
                    d.id,
                    d.chapter,
                    d.scenario,
                    o.id,
                    o.correct,
                    o.scenario,
                    o.mode,
                    o.same_design_as
                )
            })
        })
        .collect()
}

fn question_keys(course: &Course) -> Vec<String> {
    course
        .quiz
        .questions
        .iter()
        .flat_map(|q| {
            q.options.iter().map(move |o| {
                format!(
                    "{} ({}, multi={}, shares_fact_with={:?}): {}={}",
                    q.id, q.topic, q.multi, q.shares_fact_with, o.id, o.correct
                )
            })
        })
        .collect()
}

fn at_line(path: &str, line: usize, message: String) -> Problem {
    Problem {
        path: path.to_owned(),
        line,
        column: 1,
        message,
    }
}

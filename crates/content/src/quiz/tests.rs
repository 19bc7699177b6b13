//! Levels, the answer-giveaway cues and the same-fact pairs, checked on small quiz files.

use super::*;
use std::fmt::Write;

fn quiz_with_levels(mins: [u32; 3]) -> Quiz {
    Quiz {
        levels: ["beginner", "practitioner", "senior"]
            .iter()
            .zip(mins)
            .map(|(id, min_score)| QuizLevel {
                id: (*id).into(),
                name: (*id).into(),
                min_score,
                next_steps: vec![],
            })
            .collect(),
        questions: vec![],
    }
}

#[test]
fn level_for_picks_the_highest_reached_threshold() {
    let quiz = quiz_with_levels([0, 5, 8]);
    assert_eq!(quiz.level_for(0).map(|l| l.id.as_str()), Some("beginner"));
    assert_eq!(
        quiz.level_for(5).map(|l| l.id.as_str()),
        Some("practitioner")
    );
    assert_eq!(quiz.level_for(10).map(|l| l.id.as_str()), Some("senior"));
}

/// One question of a test file: id, topic, an extra line, options as (text, correct).
type QuestionSpec<'a> = (&'a str, &'a str, &'a str, &'a [(&'a str, bool)]);

/// A quiz file with valid levels and the given questions.
fn quiz_file(questions: &[QuestionSpec<'_>]) -> String {
    let mut text = String::from("format_version = 1\n");
    for (id, min) in [("beginner", 0), ("practitioner", 5), ("senior", 8)] {
        write!(
            text,
            "[[level]]\nid = \"{id}\"\nname = \"{id}\"\nmin_score = {min}\nnext_steps = [\"n\"]\n"
        )
        .expect("writing to a String");
    }
    for (id, topic, extra, options) in questions {
        write!(
            text,
            "[[question]]\nid = \"{id}\"\ntopic = \"{topic}\"\n{extra}\nprompt = \"p\"\nexplanation = \"e\"\n"
        )
        .expect("writing to a String");
        for (i, (option, correct)) in options.iter().enumerate() {
            write!(
                text,
                "[[question.option]]\nid = \"o{i}\"\ntext = \"{option}\"\ncorrect = {correct}\nwhy = \"w\"\n"
            )
            .expect("writing to a String");
        }
    }
    text
}

const PLAIN: &[(&str, bool)] = &[("Lease the rows first", true), ("Send them twice", false)];

#[test]
fn shares_fact_with_must_name_another_topic_s_question() {
    let text = quiz_file(&[
        (
            "a",
            "dlq",
            "shares_fact_with = [\"b\", \"a\", \"ghost\"]",
            PLAIN,
        ),
        ("b", "dlq", "", PLAIN),
        ("c", "sqs", "shares_fact_with = [\"a\"]", PLAIN),
    ]);
    let mut problems = Vec::new();
    parse("q.toml", &text, &mut problems);
    let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let line = text
        .lines()
        .position(|l| l.starts_with("shares_fact_with = [\"b\""))
        .map_or(0, |i| i + 1);
    for expected in [
        format!(
            "q.toml:{line}:21: questions \"a\" and \"b\" are both in topic \"dlq\", so one attempt never asks both; shares_fact_with names questions of other topics"
        ),
        format!("q.toml:{line}:26: question \"a\" names itself in shares_fact_with"),
        format!("q.toml:{line}:31: question \"a\" shares a fact with unknown question \"ghost\""),
    ] {
        assert!(messages.contains(&expected), "{expected}\n{messages:#?}");
    }
    // "c" names "a" across topics: fine, and sqs keeps no unpaired question only if c is
    // its sole question, which the next check reports.
    assert!(
        messages.iter().any(|m| m.ends_with(
            "every question of topic \"sqs\" shares a fact with another topic's question; keep one unpaired so every attempt can ask the topic"
        )),
        "{messages:#?}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("topic \"dlq\" shares")),
        "b stays unpaired: {messages:#?}"
    );
}

#[test]
fn shares_fact_with_is_kept_for_the_draw() {
    let text = quiz_file(&[
        ("a", "dlq", "shares_fact_with = [\"c\"]", PLAIN),
        ("c", "sqs", "", PLAIN),
    ]);
    let mut problems = Vec::new();
    let quiz = parse("q.toml", &text, &mut problems);
    assert_eq!(quiz.questions[0].shares_fact_with, vec!["c".to_owned()]);
    assert!(quiz.questions[1].shares_fact_with.is_empty());
}

#[test]
fn right_answers_must_not_cluster_on_one_authored_position() {
    let ids: Vec<String> = (0..8).map(|i| format!("q{i}")).collect();
    let at = |right: usize| -> Vec<(&'static str, bool)> {
        ["one", "two", "three", "four"]
            .iter()
            .enumerate()
            .map(|(i, t)| (*t, i == right))
            .collect()
    };
    let layouts: Vec<Vec<(&str, bool)>> = (0..8).map(|i| at(i % 4)).collect();
    let spread: Vec<QuestionSpec<'_>> = ids
        .iter()
        .zip(&layouts)
        .map(|(id, o)| (id.as_str(), "retry", "", o.as_slice()))
        .collect();
    let mut problems = Vec::new();
    parse("q.toml", &quiz_file(&spread), &mut problems);
    assert!(
        !problems.iter().any(|p| p.message.contains("position")),
        "{problems:?}"
    );
    let second = at(1);
    let clustered: Vec<QuestionSpec<'_>> = ids
        .iter()
        .zip(&layouts)
        .enumerate()
        .map(|(i, (id, o))| {
            let o = if i < 3 {
                second.as_slice()
            } else {
                o.as_slice()
            };
            (id.as_str(), "retry", "", o)
        })
        .collect();
    let mut problems = Vec::new();
    parse("q.toml", &quiz_file(&clustered), &mut problems);
    let hits: Vec<_> = problems
        .iter()
        .filter(|p| p.message.contains("position"))
        .collect();
    assert_eq!(hits.len(), 1, "{problems:?}");
    assert_eq!(
        hits[0].message,
        "the correct option is option 2 in 4 of 8 single-choice questions; at most 35% may share one position (move some of: q0, q1, q2, q5)"
    );
}

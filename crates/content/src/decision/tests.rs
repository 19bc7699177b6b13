//! Decision cards: options, modes, answers and the position of the right one.

use super::*;

const GOOD: &str = r#"format_version = 1
[[decision]]
id = "broker-down"
chapter = "flow-map"
scenario = "broker-outage"
title = "Decision 1"
situation = "s"
instruction = "i"
explanation = "e"
reveals = ["outbox"]
[[decision.option]]
id = "retry"
text = "retry"
correct = false
feedback = "f"
mode = "pitfall"
[[decision.option]]
id = "outbox"
text = "outbox"
correct = true
feedback = "f"
mode = "safe"
[[decision.option]]
id = "drop"
text = "drops"
correct = false
feedback = "f"
mode = "naive"
"#;

#[test]
fn parses_a_valid_file() {
    let mut problems = Vec::new();
    let decisions = parse("d.toml", GOOD, &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(decisions[0].option("outbox").map(|o| o.correct), Some(true));
    assert_eq!(decisions[0].mode_for("retry"), Some("pitfall"));
    assert_eq!(decisions[0].id_line, 3);
}

#[test]
fn exactly_one_correct_option() {
    let mut problems = Vec::new();
    parse(
        "d.toml",
        &GOOD
            .replace("correct = false", "correct = true")
            .replace("\"pitfall\"", "\"safe\"")
            .replace("\"naive\"", "\"safe\""),
        &mut problems,
    );
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].message.contains("3 correct options"),
        "{problems:?}"
    );
    assert_eq!(problems[0].line, 3);
}

#[test]
fn options_are_counted_compared_and_played() {
    let mut problems = Vec::new();
    let two = GOOD
        .rsplit_once("[[decision.option]]")
        .map_or("", |(a, _)| a);
    parse("d.toml", two, &mut problems);
    assert_eq!(
        problems[0].message,
        "decision \"broker-down\" has 2 options; it needs 3 to 4"
    );
    let mut problems = Vec::new();
    parse(
        "d.toml",
        &GOOD.replace("\"drops\"", "\"Outbox \""),
        &mut problems,
    );
    assert_eq!(
        problems[0].message,
        "decision \"broker-down\": option \"drop\" has the same text as option \"outbox\""
    );
    let mut problems = Vec::new();
    parse(
        "d.toml",
        &GOOD.replace("\"drops\"", "\"drops it all\""),
        &mut problems,
    );
    assert!(
        problems[0].message.contains("run from 5 to 12 characters"),
        "{problems:?}"
    );
    let mut problems = Vec::new();
    parse(
        "d.toml",
        &GOOD.replace("mode = \"safe\"", "mode = \"naive\""),
        &mut problems,
    );
    assert!(
        problems[0]
            .message
            .starts_with("option \"outbox\" has mode \"naive\""),
        "{problems:?}"
    );
}

#[test]
fn every_card_has_its_right_answer_at_its_own_position() {
    use std::fmt::Write;
    let second = |correct_at: usize| {
        let mut card = String::from(
            "[[decision]]\nid = \"large-pdf\"\nchapter = \"c\"\nscenario = \"s\"\ntitle = \"t\"\nsituation = \"s\"\ninstruction = \"i\"\nexplanation = \"e\"\nreveals = [\"x\"]\n",
        );
        for i in 1..=3 {
            let (correct, mode) = if i == correct_at {
                (true, "safe")
            } else {
                (false, "naive")
            };
            write!(
                    card,
                    "[[decision.option]]\nid = \"o{i}\"\ntext = \"text {i}\"\ncorrect = {correct}\nfeedback = \"f\"\nmode = \"{mode}\"\n"
                )
                .expect("writing to a String");
        }
        card
    };
    let mut problems = Vec::new();
    parse("d.toml", &format!("{GOOD}{}", second(3)), &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    let text = format!("{GOOD}{}", second(2));
    parse("d.toml", &text, &mut problems);
    let line = text
        .lines()
        .position(|l| l == "id = \"large-pdf\"")
        .map_or(0, |i| i + 1);
    assert_eq!(
        problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec![format!(
            "d.toml:{line}:6: decisions \"broker-down\" and \"large-pdf\" both have their correct option at position 2; each card needs its own position"
        )]
    );
}

#[test]
fn a_card_names_its_giveaway_words_and_none_is_blank() {
    let mut problems = Vec::new();
    parse(
        "d.toml",
        &GOOD.replace("reveals = [\"outbox\"]", "reveals = []"),
        &mut problems,
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].message.contains("lists no words in reveals"),
        "{problems:?}"
    );
    assert_eq!(problems[0].line, 10);
    let mut problems = Vec::new();
    parse(
        "d.toml",
        &GOOD.replace("reveals = [\"outbox\"]", "reveals = [\"outbox\", \" \"]"),
        &mut problems,
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].message, "a reveals word must not be empty");
    let mut problems = Vec::new();
    let decisions = parse(
        "d.toml",
        &GOOD.replace("reveals = [\"outbox\"]\n", ""),
        &mut problems,
    );
    assert!(decisions.is_empty());
    assert!(problems[0].message.contains("reveals"), "{problems:?}");
}

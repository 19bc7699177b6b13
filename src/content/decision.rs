//! The decision cards (`lessons/LANG/decisions.toml`).

use super::Problem;
use super::toml_file::{self, at, check_ids, check_text, check_version};
use serde::Deserialize;
use toml::Spanned;

/// A decision card embedded in a chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Stable id (`broker-down`).
    pub id: String,
    /// The chapter that embeds it.
    pub chapter: String,
    /// The simulator scenario that shows it happen.
    pub scenario: String,
    /// Card title ("Decision 1").
    pub title: String,
    /// The situation the learner faces.
    pub situation: String,
    /// The instruction line under the options.
    pub instruction: String,
    /// The principle, shown after any answer.
    pub explanation: String,
    /// The options, in file order.
    pub options: Vec<DecisionOption>,
    /// Line of the id in the file.
    pub id_line: usize,
}

/// One answer of a decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionOption {
    /// Stable id within the decision.
    pub id: String,
    /// The option text.
    pub text: String,
    /// Whether it is the right choice.
    pub correct: bool,
    /// Why it is right, or what it would cause.
    pub feedback: String,
}

impl Decision {
    /// The option with this id.
    pub fn option(&self, id: &str) -> Option<&DecisionOption> {
        self.options.iter().find(|o| o.id == id)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    #[serde(default)]
    decision: Vec<RawDecision>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDecision {
    id: Spanned<String>,
    chapter: Spanned<String>,
    scenario: Spanned<String>,
    title: Spanned<String>,
    situation: Spanned<String>,
    instruction: Spanned<String>,
    explanation: Spanned<String>,
    option: Vec<RawOption>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOption {
    id: Spanned<String>,
    text: Spanned<String>,
    correct: bool,
    feedback: Spanned<String>,
}

/// Parses and checks one decisions file.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Vec<Decision> {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return Vec::new();
        }
    };
    check_version(path, text, &file.format_version, problems);
    check_ids(
        path,
        text,
        "decision",
        file.decision.iter().map(|d| &d.id),
        problems,
    );
    let mut decisions = Vec::new();
    for raw in file.decision {
        for (field, value) in [
            ("title", &raw.title),
            ("situation", &raw.situation),
            ("instruction", &raw.instruction),
            ("explanation", &raw.explanation),
        ] {
            check_text(path, text, field, value, problems);
        }
        check_ids(
            path,
            text,
            "option",
            raw.option.iter().map(|o| &o.id),
            problems,
        );
        for option in &raw.option {
            check_text(path, text, "option text", &option.text, problems);
            check_text(path, text, "option feedback", &option.feedback, problems);
        }
        if raw.option.len() < 2 {
            problems.push(at(
                path,
                text,
                &raw.id,
                "a decision needs at least two options",
            ));
        }
        let correct = raw.option.iter().filter(|o| o.correct).count();
        if correct != 1 {
            problems.push(at(
                path,
                text,
                &raw.id,
                format!(
                    "decision {:?} has {correct} correct options; exactly one must be correct",
                    raw.id.get_ref()
                ),
            ));
        }
        let id_line = super::problem::line_column(text, raw.id.span().start).0;
        decisions.push(Decision {
            id: raw.id.into_inner(),
            chapter: raw.chapter.into_inner(),
            scenario: raw.scenario.into_inner(),
            title: raw.title.into_inner(),
            situation: raw.situation.into_inner(),
            instruction: raw.instruction.into_inner(),
            explanation: raw.explanation.into_inner(),
            options: raw
                .option
                .into_iter()
                .map(|o| DecisionOption {
                    id: o.id.into_inner(),
                    text: o.text.into_inner(),
                    correct: o.correct,
                    feedback: o.feedback.into_inner(),
                })
                .collect(),
            id_line,
        });
    }
    decisions
}

#[cfg(test)]
mod tests {
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
[[decision.option]]
id = "retry"
text = "t"
correct = false
feedback = "f"
[[decision.option]]
id = "outbox"
text = "t"
correct = true
feedback = "f"
"#;

    #[test]
    fn parses_a_valid_file() {
        let mut problems = Vec::new();
        let decisions = parse("d.toml", GOOD, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(decisions[0].option("outbox").map(|o| o.correct), Some(true));
        assert_eq!(decisions[0].id_line, 3);
    }

    #[test]
    fn exactly_one_correct_option() {
        let mut problems = Vec::new();
        parse(
            "d.toml",
            &GOOD.replace("correct = false", "correct = true"),
            &mut problems,
        );
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].message.contains("2 correct options"),
            "{problems:?}"
        );
        assert_eq!(problems[0].line, 3);
    }
}

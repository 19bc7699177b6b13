//! The seven-step ordering game (`lessons/LANG/ordering.toml`).

use super::Problem;
use super::toml_file::{self, check_ids, check_text, check_version};
use serde::Deserialize;
use toml::Spanned;

/// How many cards the game has.
pub const STEP_COUNT: usize = 7;

/// The game's texts and its steps in the correct order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ordering {
    /// Screen title.
    pub title: String,
    /// One paragraph explaining the game.
    pub intro: String,
    /// Shown after solving.
    pub solved: String,
    /// The steps, in the correct order.
    pub steps: Vec<OrderingStep>,
}

/// One card of the ordering game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderingStep {
    /// Stable id.
    pub id: String,
    /// Short label on the card.
    pub label: String,
    /// The responsibility in a sentence.
    pub text: String,
    /// Shown when this step is the one still missing.
    pub hint: String,
    /// Why it stands at this place (shown in the summary).
    pub reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    title: Spanned<String>,
    intro: Spanned<String>,
    solved: Spanned<String>,
    #[serde(default)]
    step: Vec<RawStep>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    id: Spanned<String>,
    label: Spanned<String>,
    text: Spanned<String>,
    hint: Spanned<String>,
    reason: Spanned<String>,
}

/// Parses and checks one ordering file.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Ordering {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return Ordering::default();
        }
    };
    check_version(path, text, &file.format_version, problems);
    for (field, value) in [
        ("title", &file.title),
        ("intro", &file.intro),
        ("solved", &file.solved),
    ] {
        check_text(path, text, field, value, problems);
    }
    check_ids(
        path,
        text,
        "step",
        file.step.iter().map(|s| &s.id),
        problems,
    );
    for step in &file.step {
        for (field, value) in [
            ("label", &step.label),
            ("text", &step.text),
            ("hint", &step.hint),
            ("reason", &step.reason),
        ] {
            check_text(path, text, field, value, problems);
        }
    }
    if file.step.len() != STEP_COUNT {
        problems.push(Problem::file(
            path,
            format!(
                "the ordering game has {} steps; it needs exactly {STEP_COUNT}",
                file.step.len()
            ),
        ));
    }
    Ordering {
        title: file.title.into_inner(),
        intro: file.intro.into_inner(),
        solved: file.solved.into_inner(),
        steps: file
            .step
            .into_iter()
            .map(|s| OrderingStep {
                id: s.id.into_inner(),
                label: s.label.into_inner(),
                text: s.text.into_inner(),
                hint: s.hint.into_inner(),
                reason: s.reason.into_inner(),
            })
            .collect(),
    }
}

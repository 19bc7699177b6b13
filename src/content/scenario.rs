//! Simulator scenario files (`assets/scenarios/ID.toml`): the texts the workshop shows about a
//! scenario in both languages. The engine's setup lives next to these fields.

use super::toml_file::{self, at, check_text, check_version};
use super::{Lang, Problem};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The scenario ids of SPEC section 2; they are part of the CLI contract.
pub const SCENARIO_IDS: [&str; 12] = [
    "happy-path",
    "broker-outage",
    "claim-check",
    "lost-ack",
    "poison-dlq",
    "twin-consumers",
    "duplicate-publish",
    "execute-update-trap",
    "two-phase-claim",
    "dedup-window",
    "backlog",
    "chaos",
];

/// A scenario's texts in one language.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioText {
    /// Short title.
    pub title: String,
    /// One line for lists and `sim --list`.
    pub summary: String,
    /// The lesson the scenario proves.
    pub lesson: String,
    /// What the pitfall variant does wrong (read by the engine, `sim::scenario`).
    #[serde(default)]
    pub pitfall: Option<String>,
}

/// A simulator scenario as content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// One of [`SCENARIO_IDS`].
    pub id: String,
    /// Texts per language.
    pub text: BTreeMap<Lang, ScenarioText>,
}

impl Scenario {
    /// The texts in `lang` (every checked scenario has both languages).
    pub fn text(&self, lang: Lang) -> Option<&ScenarioText> {
        self.text.get(&lang)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    id: Spanned<String>,
    text: BTreeMap<String, Spanned<ScenarioText>>,
    // The engine's sections of the same file; `sim::scenario` parses and checks them.
    #[serde(default)]
    #[allow(dead_code)] // present so deny_unknown_fields accepts the engine's sections
    pitfall: Option<toml::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    setup: Option<toml::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    script: Option<toml::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    expect: Option<toml::Value>,
}

/// Parses one scenario file named `ID.toml`.
pub fn parse(
    path: &str,
    file_name: &str,
    text: &str,
    problems: &mut Vec<Problem>,
) -> Option<Scenario> {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return None;
        }
    };
    let before = problems.len();
    check_version(path, text, &file.format_version, problems);
    let id = file.id.get_ref();
    if !SCENARIO_IDS.contains(&id.as_str()) {
        problems.push(at(
            path,
            text,
            &file.id,
            format!(
                "unknown scenario id {id:?}; known: {}",
                SCENARIO_IDS.join(", ")
            ),
        ));
    }
    if file_name.strip_suffix(".toml") != Some(id.as_str()) {
        problems.push(at(
            path,
            text,
            &file.id,
            format!("scenario {id:?} must live in {id}.toml"),
        ));
    }
    let mut texts = BTreeMap::new();
    for (code, value) in file.text {
        let Some(lang) = Lang::from_code(&code) else {
            problems.push(at(
                path,
                text,
                &value,
                format!("unknown language {code:?} in [text.{code}]"),
            ));
            continue;
        };
        for (field, s) in [
            ("title", &value.get_ref().title),
            ("summary", &value.get_ref().summary),
            ("lesson", &value.get_ref().lesson),
        ] {
            check_text(
                path,
                text,
                field,
                &Spanned::new(value.span(), s.clone()),
                problems,
            );
        }
        texts.insert(lang, value.into_inner());
    }
    for lang in Lang::ALL {
        if !texts.contains_key(&lang) {
            problems.push(at(path, text, &file.id, format!("missing [text.{lang}]")));
        }
    }
    (problems.len() == before).then(|| Scenario {
        id: file.id.into_inner(),
        text: texts,
    })
}

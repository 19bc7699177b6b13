//! Simulator scenario files (`assets/scenarios/ID.toml`): the texts the workshop shows about a
//! scenario in both languages, and the engine's part (setup, timed script, expected outcome per
//! mode, the pitfall variant), checked here so that `queuelab check` validates all of it.

mod setup;
mod vocabulary;

pub use setup::{
    Expectation, MAX_MESSAGES, METRIC_NAMES, MODES, SEEDS_CHECKED, ScriptEntry, Setup,
};
pub use vocabulary::{DEFAULT_OUTAGE_MS, FAULT_KINDS, Fault, Jitter, Pitfall, ScriptAction};

use super::toml_file::{self, at, check_text, check_version, is_valid_id};
use super::{Lang, Problem};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

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
    /// What the pitfall variant does wrong.
    pub pitfall: String,
}

/// A simulator scenario as content.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Stable id, the file name without `.toml` (part of the CLI contract).
    pub id: String,
    /// Place in menus and `sim --list` (ascending).
    pub position: u32,
    /// Texts per language.
    pub text: BTreeMap<Lang, ScenarioText>,
    /// The flaw the pitfall mode builds in.
    pub pitfall: Pitfall,
    /// The simulated system.
    pub setup: Setup,
    /// Timed faults and operator actions, sorted by time (`broker-down` carries its duration).
    pub script: Vec<ScriptEntry>,
    /// Expected outcome per mode (`safe`, `naive`, `pitfall`).
    pub expect: BTreeMap<String, Expectation>,
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
    position: u32,
    pitfall: Pitfall,
    text: BTreeMap<String, Spanned<ScenarioText>>,
    setup: Spanned<Setup>,
    #[serde(default)]
    script: Vec<Spanned<ScriptEntry>>,
    expect: Spanned<BTreeMap<String, Spanned<Expectation>>>,
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
    if !is_valid_id(id) {
        problems.push(at(
            path,
            text,
            &file.id,
            format!("scenario id {id:?} must be lowercase letters, digits and dashes"),
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
    check_engine_part(path, text, &file, problems);
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
            ("pitfall", &value.get_ref().pitfall),
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
    let mut script: Vec<ScriptEntry> = file
        .script
        .into_iter()
        .map(|s| resolve_duration(s.into_inner()))
        .collect();
    script.sort_by_key(|s| s.at_ms);
    (problems.len() == before).then(|| Scenario {
        id: file.id.into_inner(),
        position: file.position,
        text: texts,
        pitfall: file.pitfall,
        setup: file.setup.into_inner(),
        script,
        expect: file
            .expect
            .into_inner()
            .into_iter()
            .map(|(k, v)| (k, v.into_inner()))
            .collect(),
    })
}

/// A `broker-down` step takes its outage length from `duration_ms`; every step fires at
/// least once.
fn resolve_duration(mut step: ScriptEntry) -> ScriptEntry {
    if let (ScriptAction::Fault(Fault::BrokerDown { .. }), Some(duration_ms)) =
        (step.action, step.duration_ms)
    {
        step.action = ScriptAction::Fault(Fault::BrokerDown { duration_ms });
    }
    step.count = step.count.max(1);
    step
}

/// Checks the engine's part: setup values and expectations (names are checked by serde).
fn check_engine_part(path: &str, text: &str, file: &File, problems: &mut Vec<Problem>) {
    for message in file.setup.get_ref().problems() {
        problems.push(at(path, text, &file.setup, message));
    }
    let expect = file.expect.get_ref();
    for (mode, e) in expect {
        for message in e.get_ref().problems(mode) {
            problems.push(at(path, text, e, message));
        }
    }
    for mode in MODES {
        if !expect.contains_key(mode) {
            problems.push(at(
                path,
                text,
                &file.expect,
                format!("[expect.{mode}] is missing"),
            ));
        }
    }
}

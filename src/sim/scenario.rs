//! Scenarios for the engine: the content file (`assets/scenarios/<id>.toml`, parsed and checked
//! by [`crate::content::scenario`]) turned into typed settings, script and expectations.

use std::collections::BTreeMap;

use super::fault::Fault;
use super::model::{Mode, Pitfall};
use super::retry::{Jitter, RetryPolicy};
use crate::content::{self, Lang};

pub use crate::content::scenario::{
    Expectation, MAX_MESSAGES, SCENARIO_IDS as IDS, ScenarioText, ScriptEntry, Setup,
};

/// The embedded scenario files, in menu order.
const EMBEDDED: [(&str, &str); 12] = [
    (
        "happy-path",
        include_str!("../../assets/scenarios/happy-path.toml"),
    ),
    (
        "broker-outage",
        include_str!("../../assets/scenarios/broker-outage.toml"),
    ),
    (
        "claim-check",
        include_str!("../../assets/scenarios/claim-check.toml"),
    ),
    (
        "lost-ack",
        include_str!("../../assets/scenarios/lost-ack.toml"),
    ),
    (
        "poison-dlq",
        include_str!("../../assets/scenarios/poison-dlq.toml"),
    ),
    (
        "twin-consumers",
        include_str!("../../assets/scenarios/twin-consumers.toml"),
    ),
    (
        "duplicate-publish",
        include_str!("../../assets/scenarios/duplicate-publish.toml"),
    ),
    (
        "execute-update-trap",
        include_str!("../../assets/scenarios/execute-update-trap.toml"),
    ),
    (
        "two-phase-claim",
        include_str!("../../assets/scenarios/two-phase-claim.toml"),
    ),
    (
        "dedup-window",
        include_str!("../../assets/scenarios/dedup-window.toml"),
    ),
    (
        "backlog",
        include_str!("../../assets/scenarios/backlog.toml"),
    ),
    ("chaos", include_str!("../../assets/scenarios/chaos.toml")),
];

/// A scenario problem.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file has content problems (`path:line:column: message`, one per line).
    #[error("{0}")]
    Invalid(String),
    /// No scenario with this id.
    #[error("unknown scenario {0:?} (see `queuelab sim --list`)")]
    Unknown(String),
}

/// What a scripted step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptAction {
    /// Inject a named fault (`count` times).
    Fault(Fault),
    /// The operator fixes the cause of the poison messages (the consumer learns the new schema).
    FixCause,
    /// The operator replays up to `count` messages from the DLQ.
    ReplayDlq,
}

/// A typed scripted step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptStep {
    /// Virtual time, ms.
    pub at_ms: u64,
    /// The action.
    pub action: ScriptAction,
    /// Repetitions (faults) or batch size (DLQ replay).
    pub count: u32,
}

/// A checked scenario, ready for the engine.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Stable id (CLI contract).
    pub id: String,
    /// Which flaw `pitfall` mode builds in.
    pub pitfall: Pitfall,
    /// Texts per language.
    pub text: BTreeMap<Lang, ScenarioText>,
    /// The system's setup.
    pub setup: Setup,
    /// Jitter, parsed.
    pub jitter: Jitter,
    /// Timed script, sorted by time.
    pub script: Vec<ScriptStep>,
    /// Expected outcome per mode name.
    pub expect: BTreeMap<String, Expectation>,
}

impl Scenario {
    /// Converts a checked content scenario (names become engine enums).
    pub fn from_content(c: &content::Scenario) -> Result<Scenario, ScenarioError> {
        let bad = |what: String| {
            ScenarioError::Invalid(format!("assets/scenarios/{}.toml: {what}", c.id))
        };
        let pitfall = Pitfall::parse(&c.pitfall)
            .ok_or_else(|| bad(format!("unknown pitfall {:?}", c.pitfall)))?;
        let jitter = Jitter::parse(&c.setup.jitter)
            .ok_or_else(|| bad(format!("unknown jitter {:?}", c.setup.jitter)))?;
        let mut script = Vec::with_capacity(c.script.len());
        for s in &c.script {
            let action = match s.action.as_str() {
                "fix-cause" => ScriptAction::FixCause,
                "replay-dlq" => ScriptAction::ReplayDlq,
                name => ScriptAction::Fault(
                    Fault::parse(name, s.duration_ms)
                        .ok_or_else(|| bad(format!("unknown script action {name:?}")))?,
                ),
            };
            script.push(ScriptStep {
                at_ms: s.at_ms,
                action,
                count: s.count.max(1),
            });
        }
        script.sort_by_key(|s| s.at_ms);
        Ok(Scenario {
            id: c.id.clone(),
            pitfall,
            text: c.text.clone(),
            setup: c.setup.clone(),
            jitter,
            script,
            expect: c.expect.clone(),
        })
    }

    /// Parses and checks one scenario file.
    pub fn parse(path: &str, file_name: &str, text: &str) -> Result<Scenario, ScenarioError> {
        let mut problems = Vec::new();
        match content::scenario::parse(path, file_name, text, &mut problems) {
            Some(c) if problems.is_empty() => Scenario::from_content(&c),
            _ => Err(ScenarioError::Invalid(
                problems
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n"),
            )),
        }
    }

    /// The retry policy of this scenario.
    pub fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy {
            immediate: self.setup.immediate_retries,
            base_ms: self.setup.backoff_base_ms,
            cap_ms: self.setup.backoff_cap_ms,
            jitter: self.jitter,
        }
    }

    /// Texts in `lang` (every checked scenario has all languages).
    pub fn text(&self, lang: Lang) -> Option<&ScenarioText> {
        self.text.get(&lang).or_else(|| self.text.values().next())
    }

    /// Expected outcome for `mode`.
    pub fn expectation(&self, mode: Mode) -> Option<&Expectation> {
        self.expect.get(mode.as_str())
    }
}

/// All embedded scenarios, in menu order.
pub fn builtin() -> Result<Vec<Scenario>, ScenarioError> {
    EMBEDDED.iter().map(|(id, _)| find(id)).collect()
}

/// The embedded scenario `id`.
pub fn find(id: &str) -> Result<Scenario, ScenarioError> {
    let (_, text) = EMBEDDED
        .iter()
        .find(|(i, _)| *i == id)
        .ok_or_else(|| ScenarioError::Unknown(id.to_string()))?;
    let name = format!("{id}.toml");
    Scenario::parse(&format!("assets/scenarios/{name}"), &name, text)
}

/// The scenario `id` from loaded content (which honours `--content DIR`).
pub fn from_loaded(content: &content::Content, id: &str) -> Result<Scenario, ScenarioError> {
    let c = content
        .scenarios
        .iter()
        .find(|s| s.id == id)
        .ok_or_else(|| ScenarioError::Unknown(id.to_string()))?;
    Scenario::from_content(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::scenario::{FAULTS, JITTERS, METRIC_NAMES, PITFALLS};

    #[test]
    fn all_twelve_embedded_scenarios_parse() {
        let all = builtin().expect("embedded scenarios parse");
        let ids: Vec<&str> = all.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, IDS.to_vec());
    }

    #[test]
    fn unknown_id_is_an_error() {
        assert!(matches!(find("nope"), Err(ScenarioError::Unknown(_))));
    }

    #[test]
    fn content_name_lists_match_the_engine_enums() {
        assert_eq!(FAULTS.to_vec(), Fault::MENU.map(Fault::as_str).to_vec());
        assert_eq!(
            PITFALLS.to_vec(),
            Pitfall::ALL.map(Pitfall::as_str).to_vec()
        );
        assert_eq!(JITTERS.to_vec(), Jitter::ALL.map(Jitter::as_str).to_vec());
        assert_eq!(
            METRIC_NAMES.to_vec(),
            super::super::report::METRIC_NAMES.to_vec()
        );
    }

    #[test]
    fn bad_values_name_the_key_and_position() {
        let text = EMBEDDED[0]
            .1
            .replace("arrival_ms = 300", "arrival_ms = 300\njitter = \"wild\"");
        let e = Scenario::parse("assets/scenarios/happy-path.toml", "happy-path.toml", &text)
            .expect_err("bad jitter");
        let msg = e.to_string();
        assert!(
            msg.contains("setup.jitter") && msg.starts_with("assets/scenarios/happy-path.toml:"),
            "{msg}"
        );
    }
}

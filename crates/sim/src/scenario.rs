//! Scenarios for the engine. A scenario is the content file (`assets/scenarios/<id>.toml`,
//! parsed and checked by [`content::scenario`]) itself: its pitfall, jitter and fault
//! names deserialise straight into the engine's enums. The CLI and the TUI take scenarios from
//! the loaded [`content::Content`] (which honours `--content DIR`); [`find`] and [`builtin`]
//! read the embedded copy for tests and benchmarks.

use std::sync::LazyLock;

use super::model::{BrokerKind, Mode};
use super::retry::RetryPolicy;
use content::{self, ContentSource, Problem};

pub use content::scenario::{
    Expectation, MAX_MESSAGES, Scenario, ScenarioText, ScriptAction, ScriptEntry as ScriptStep,
    Setup,
};

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

// The scenario type lives in the content crate; what the engine reads off it lives here, as
// functions (a crate cannot add methods to another crate's type).

/// The retry policy of `scenario`.
pub fn retry_policy(scenario: &Scenario) -> RetryPolicy {
    RetryPolicy {
        immediate: scenario.setup.immediate_retries,
        base_ms: scenario.setup.backoff_base_ms,
        cap_ms: scenario.setup.backoff_cap_ms,
        jitter: scenario.setup.jitter,
    }
}

/// The outcome `scenario` expects for `mode` on `broker` (the broker's own values applied).
pub fn expectation(scenario: &Scenario, mode: Mode, broker: BrokerKind) -> Option<Expectation> {
    scenario
        .expect
        .get(mode.as_str())
        .map(|e| e.for_broker(broker.as_str()))
}

/// The embedded scenario files, parsed once, in menu order.
static EMBEDDED: LazyLock<Result<Vec<Scenario>, String>> = LazyLock::new(|| {
    let source = ContentSource::Embedded;
    let mut problems: Vec<Problem> = Vec::new();
    let mut all = Vec::new();
    for name in source.list("assets/scenarios") {
        let path = format!("assets/scenarios/{name}");
        if let Ok(Some(text)) = source.read(&path) {
            all.extend(content::scenario::parse(&path, &name, &text, &mut problems));
        }
    }
    all.sort_by(|a, b| (a.position, &a.id).cmp(&(b.position, &b.id)));
    if problems.is_empty() {
        Ok(all)
    } else {
        Err(problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"))
    }
});

/// The ids of the embedded scenarios, in menu order (empty when the embedded files are
/// broken, which `queuelab check` and the tests catch).
pub static IDS: LazyLock<Vec<&'static str>> = LazyLock::new(|| match &*EMBEDDED {
    Ok(all) => all.iter().map(|s| s.id.as_str()).collect(),
    Err(_) => Vec::new(),
});

/// All embedded scenarios, in menu order.
pub fn builtin() -> Result<Vec<Scenario>, ScenarioError> {
    EMBEDDED.clone().map_err(ScenarioError::Invalid)
}

/// The embedded scenario `id`.
pub fn find(id: &str) -> Result<Scenario, ScenarioError> {
    match &*EMBEDDED {
        Ok(all) => all
            .iter()
            .find(|s| s.id == id)
            .cloned()
            .ok_or_else(|| ScenarioError::Unknown(id.to_string())),
        Err(e) => Err(ScenarioError::Invalid(e.clone())),
    }
}

/// The scenario `id` from loaded content (which honours `--content DIR`).
pub fn from_loaded(content: &content::Content, id: &str) -> Result<Scenario, ScenarioError> {
    content
        .scenarios
        .iter()
        .find(|s| s.id == id)
        .cloned()
        .ok_or_else(|| ScenarioError::Unknown(id.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_scenarios_parse_in_menu_order() {
        let all = builtin().expect("embedded scenarios parse");
        assert_eq!(all.len(), IDS.len());
        assert_eq!(IDS.first(), Some(&"happy-path"));
        let positions: Vec<u32> = all.iter().map(|s| s.position).collect();
        let mut sorted = positions.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(positions, sorted, "positions are unique and ascending");
    }

    #[test]
    fn unknown_id_is_an_error() {
        assert!(matches!(find("nope"), Err(ScenarioError::Unknown(_))));
    }

    #[test]
    fn bad_values_name_the_key_and_position() {
        let source = ContentSource::Embedded;
        let text = source
            .read("assets/scenarios/happy-path.toml")
            .expect("readable")
            .expect("present")
            .replace("arrival_ms = 300", "arrival_ms = 300\njitter = \"wild\"");
        let mut problems = Vec::new();
        let parsed = content::scenario::parse(
            "assets/scenarios/happy-path.toml",
            "happy-path.toml",
            &text,
            &mut problems,
        );
        assert!(parsed.is_none());
        let msg = problems[0].to_string();
        assert!(
            msg.contains("wild") && msg.starts_with("assets/scenarios/happy-path.toml:"),
            "{msg}"
        );
    }
}

//! Scenario files (`assets/scenarios/<id>.toml`): setup, timed script, lesson texts and the
//! expected outcome per mode. Parsed with serde, then checked into a typed [`Scenario`].

use std::collections::BTreeMap;

use serde::Deserialize;

use super::fault::Fault;
use super::model::{Mode, Pitfall};
use super::retry::{Jitter, RetryPolicy};

/// The scenario ids of the CLI contract, in menu order.
pub const IDS: [&str; 12] = [
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

/// Languages every scenario must carry texts for.
pub const LANGUAGES: [&str; 2] = ["de", "en"];

/// Upper bound for `--messages` (keeps a run inside the memory budget).
pub const MAX_MESSAGES: u32 = 1_000_000;

/// The scenario-file format version this engine reads.
pub const FORMAT_VERSION: u32 = 1;

/// A scenario problem: which file and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The TOML did not parse into the scenario shape.
    #[error("{file}: {message}")]
    Parse {
        /// File name.
        file: String,
        /// Parser message (with line and column).
        message: String,
    },
    /// The file parsed but a value is not acceptable.
    #[error("{file}: {message}")]
    Invalid {
        /// File name.
        file: String,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// No scenario with this id.
    #[error("unknown scenario '{0}' (see `queuelab sim --list`)")]
    Unknown(String),
}

/// The texts of a scenario in one language.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ScenarioText {
    /// Title in menus.
    pub title: String,
    /// One-line description (`sim --list`).
    pub summary: String,
    /// The lesson the scenario proves.
    pub lesson: String,
    /// What the pitfall variant does wrong.
    pub pitfall: String,
}

/// Setup of the simulated system. Missing values take the defaults below or the broker profile's.
#[allow(clippy::struct_excessive_bools)] // independent switches of a config file
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Orders the client sends.
    pub messages: u32,
    /// `--messages` may change the number of orders.
    #[serde(default)]
    pub scalable: bool,
    /// Gap between client requests, ms.
    #[serde(default = "d_arrival")]
    pub arrival_ms: u64,
    /// Consumer instances (each with its own connection).
    #[serde(default = "d_consumers")]
    pub consumers: u8,
    /// Dispatcher instances.
    #[serde(default = "d_one")]
    pub dispatchers: u8,
    /// Outbox rows claimed per batch.
    #[serde(default = "d_batch")]
    pub batch: u32,
    /// Dispatcher lease, ms.
    #[serde(default = "d_lease")]
    pub lease_ms: u64,
    /// Dispatcher restart time after a crash, ms.
    #[serde(default = "d_restart")]
    pub restart_ms: u64,
    /// Consumer work per message, ms.
    #[serde(default = "d_handling")]
    pub handling_ms: u64,
    /// Lock duration / visibility timeout override, ms.
    pub lock_ms: Option<u64>,
    /// MaxDeliveryCount / maxReceiveCount override.
    pub max_deliveries: Option<u32>,
    /// Broker duplicate detection (Service Bus) / FIFO queue with dedup (SQS).
    #[serde(default)]
    pub dedup: bool,
    /// Service Bus duplicate detection window override, ms (SQS FIFO is fixed at 5 minutes).
    pub dedup_window_ms: Option<u64>,
    /// Per-group order: sessions (Service Bus) / FIFO message groups (SQS).
    #[serde(default)]
    pub groups: u32,
    /// SQS standard: probability that a receive also leaves a second copy behind.
    #[serde(default)]
    pub duplicate_rate: f64,
    /// Large payloads go through the claim-check blob store.
    #[serde(default)]
    pub claim_check: bool,
    /// Payload size for claim-check, KiB.
    #[serde(default = "d_payload")]
    pub payload_kib: u32,
    /// The consumer calls the external provider (two-phase claim).
    #[serde(default)]
    pub two_phase: bool,
    /// Inbox retention, ms.
    #[serde(default = "d_retention")]
    pub retention_ms: u64,
    /// Inbox retention in the short-retention pitfall, ms.
    #[serde(default = "d_short_retention")]
    pub short_retention_ms: u64,
    /// Sweeper period, ms.
    #[serde(default = "d_sweep")]
    pub sweep_ms: u64,
    /// Jitter strategy name.
    #[serde(default = "d_jitter")]
    pub jitter: String,
    /// Immediate retries.
    #[serde(default = "d_one_u32")]
    pub immediate_retries: u32,
    /// Backoff base, ms.
    #[serde(default = "d_backoff_base")]
    pub backoff_base_ms: u64,
    /// Backoff cap, ms.
    #[serde(default = "d_backoff_cap")]
    pub backoff_cap_ms: u64,
    /// The client's retry delay after a timeout, ms.
    #[serde(default = "d_client_retry")]
    pub client_retry_ms: u64,
    /// Random faults: expected faults per 100 orders (0 = off).
    #[serde(default)]
    pub chaos_per_100: u32,
}

fn d_arrival() -> u64 {
    200
}
fn d_consumers() -> u8 {
    2
}
fn d_one() -> u8 {
    1
}
fn d_one_u32() -> u32 {
    1
}
fn d_batch() -> u32 {
    10
}
fn d_lease() -> u64 {
    5_000
}
fn d_restart() -> u64 {
    1_000
}
fn d_handling() -> u64 {
    120
}
fn d_payload() -> u32 {
    64
}
fn d_retention() -> u64 {
    7 * 24 * 3_600_000
}
fn d_short_retention() -> u64 {
    30_000
}
fn d_sweep() -> u64 {
    15_000
}
fn d_jitter() -> String {
    "full".into()
}
fn d_backoff_base() -> u64 {
    500
}
fn d_backoff_cap() -> u64 {
    30_000
}
fn d_client_retry() -> u64 {
    1_000
}

/// One scripted step as written in the file.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct RawStep {
    at_ms: u64,
    #[serde(rename = "do")]
    action: String,
    #[serde(default = "d_one_u32")]
    count: u32,
    duration_ms: Option<u64>,
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

/// Expected outcome of one mode: metric bounds and the invariant verdict.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// Whether the invariants must hold (`Some(false)`: must be broken).
    pub invariants_ok: Option<bool>,
    /// Metric name -> lower bound.
    #[serde(default)]
    pub min: BTreeMap<String, u64>,
    /// Metric name -> upper bound.
    #[serde(default)]
    pub max: BTreeMap<String, u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    format_version: u32,
    id: String,
    pitfall: String,
    text: BTreeMap<String, ScenarioText>,
    setup: Setup,
    #[serde(default)]
    script: Vec<RawStep>,
    expect: BTreeMap<String, Expectation>,
}

/// A checked scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Stable id (CLI contract).
    pub id: String,
    /// Which flaw `pitfall` mode builds in.
    pub pitfall: Pitfall,
    /// Texts by language code.
    pub text: BTreeMap<String, ScenarioText>,
    /// The system's setup.
    pub setup: Setup,
    /// Jitter, parsed.
    pub jitter: Jitter,
    /// Timed script, sorted by time.
    pub script: Vec<ScriptStep>,
    /// Expected outcome per mode.
    pub expect: BTreeMap<String, Expectation>,
}

impl Scenario {
    /// Parses and checks one scenario file; `file` names it in errors.
    pub fn parse(file: &str, toml_text: &str) -> Result<Scenario, ScenarioError> {
        let raw: RawScenario = toml::from_str(toml_text).map_err(|e| ScenarioError::Parse {
            file: file.to_string(),
            message: e.to_string().replace('\n', " "),
        })?;
        let bad = |message: String| ScenarioError::Invalid {
            file: file.to_string(),
            message,
        };
        if raw.format_version != FORMAT_VERSION {
            return Err(bad(format!(
                "format_version = {} is not supported (expected {FORMAT_VERSION})",
                raw.format_version
            )));
        }
        let pitfall = Pitfall::parse(&raw.pitfall).ok_or_else(|| {
            bad(format!(
                "pitfall = \"{}\" is unknown (one of: {})",
                raw.pitfall,
                Pitfall::ALL.map(Pitfall::as_str).join(", ")
            ))
        })?;
        for lang in LANGUAGES {
            let t = raw
                .text
                .get(lang)
                .ok_or_else(|| bad(format!("[text.{lang}] is missing")))?;
            for (k, v) in [
                ("title", &t.title),
                ("summary", &t.summary),
                ("lesson", &t.lesson),
                ("pitfall", &t.pitfall),
            ] {
                if v.trim().is_empty() {
                    return Err(bad(format!("[text.{lang}] {k} is empty")));
                }
            }
        }
        let jitter = Jitter::parse(&raw.setup.jitter).ok_or_else(|| {
            bad(format!(
                "setup.jitter = \"{}\" is unknown (none, full, equal, decorrelated)",
                raw.setup.jitter
            ))
        })?;
        check_setup(&raw.setup).map_err(&bad)?;
        let mut script = Vec::with_capacity(raw.script.len());
        for s in &raw.script {
            let action = match s.action.as_str() {
                "fix-cause" => ScriptAction::FixCause,
                "replay-dlq" => ScriptAction::ReplayDlq,
                name => ScriptAction::Fault(Fault::parse(name, s.duration_ms).ok_or_else(|| {
                    bad(format!(
                        "script do = \"{name}\" is neither a fault ({}) nor fix-cause/replay-dlq",
                        Fault::MENU.map(Fault::as_str).join(", ")
                    ))
                })?),
            };
            script.push(ScriptStep {
                at_ms: s.at_ms,
                action,
                count: s.count.max(1),
            });
        }
        script.sort_by_key(|s| s.at_ms);
        for (mode, e) in &raw.expect {
            if Mode::parse(mode).is_none() {
                return Err(bad(format!(
                    "[expect.{mode}]: unknown mode (safe, naive, pitfall)"
                )));
            }
            for name in e.min.keys().chain(e.max.keys()) {
                if !super::report::METRIC_NAMES.contains(&name.as_str()) {
                    return Err(bad(format!(
                        "[expect.{mode}] names unknown metric '{name}'"
                    )));
                }
            }
        }
        for mode in Mode::ALL {
            if !raw.expect.contains_key(mode.as_str()) {
                return Err(bad(format!("[expect.{}] is missing", mode.as_str())));
            }
        }
        Ok(Scenario {
            id: raw.id,
            pitfall,
            text: raw.text,
            setup: raw.setup,
            jitter,
            script,
            expect: raw.expect,
        })
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

    /// Texts in `lang`, falling back to English.
    ///
    /// # Panics
    /// Never for a scenario from [`Scenario::parse`], which requires texts in de and en.
    pub fn text(&self, lang: &str) -> &ScenarioText {
        self.text
            .get(lang)
            .or_else(|| self.text.get("en"))
            .or_else(|| self.text.values().next())
            .expect("parse() guarantees texts in de and en")
    }

    /// Expected outcome for `mode`.
    pub fn expectation(&self, mode: Mode) -> Option<&Expectation> {
        self.expect.get(mode.as_str())
    }
}

fn check_setup(s: &Setup) -> Result<(), String> {
    if s.messages == 0 || s.messages > MAX_MESSAGES {
        return Err(format!(
            "setup.messages = {} must be 1..={MAX_MESSAGES}",
            s.messages
        ));
    }
    if s.consumers == 0 || s.consumers > 8 {
        return Err(format!("setup.consumers = {} must be 1..=8", s.consumers));
    }
    if s.dispatchers == 0 || s.dispatchers > 4 {
        return Err(format!(
            "setup.dispatchers = {} must be 1..=4",
            s.dispatchers
        ));
    }
    if s.batch == 0 || s.batch > 1_000 {
        return Err(format!("setup.batch = {} must be 1..=1000", s.batch));
    }
    if !(0.0..=0.5).contains(&s.duplicate_rate) {
        return Err(format!(
            "setup.duplicate_rate = {} must be within 0..=0.5",
            s.duplicate_rate
        ));
    }
    if s.max_deliveries == Some(0) {
        return Err("setup.max_deliveries must be at least 1".into());
    }
    if s.lease_ms == 0 || s.sweep_ms == 0 || s.backoff_base_ms == 0 {
        return Err("setup.lease_ms, sweep_ms and backoff_base_ms must be above 0".into());
    }
    Ok(())
}

/// All embedded scenarios, in menu order.
pub fn builtin() -> Result<Vec<Scenario>, ScenarioError> {
    EMBEDDED
        .iter()
        .map(|(id, text)| {
            let file = format!("assets/scenarios/{id}.toml");
            let s = Scenario::parse(&file, text)?;
            if s.id != *id {
                return Err(ScenarioError::Invalid {
                    file,
                    message: format!("id = \"{}\" does not match the file name", s.id),
                });
            }
            Ok(s)
        })
        .collect()
}

/// The embedded scenario `id`.
pub fn find(id: &str) -> Result<Scenario, ScenarioError> {
    let (_, text) = EMBEDDED
        .iter()
        .find(|(i, _)| *i == id)
        .ok_or_else(|| ScenarioError::Unknown(id.to_string()))?;
    Scenario::parse(&format!("assets/scenarios/{id}.toml"), text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_twelve_embedded_scenarios_parse() {
        let all = builtin().expect("embedded scenarios parse");
        assert_eq!(all.len(), 12);
        let ids: Vec<&str> = all.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, IDS.to_vec());
    }

    #[test]
    fn unknown_id_is_an_error() {
        assert!(matches!(find("nope"), Err(ScenarioError::Unknown(_))));
    }

    #[test]
    fn bad_values_name_the_key() {
        let text = include_str!("../../assets/scenarios/happy-path.toml")
            .replace("jitter = \"full\"", "jitter = \"wild\"");
        let e = Scenario::parse("x.toml", &text).expect_err("bad jitter");
        assert!(e.to_string().contains("setup.jitter"), "{e}");
    }
}

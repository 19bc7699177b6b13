//! The engine's part of a scenario file: `[setup]`, `[[script]]` and `[expect.MODE]`, with the
//! names the engine understands so that `queuelab check` can validate them without the engine.

use serde::Deserialize;
use std::collections::BTreeMap;

use super::vocabulary::{Jitter, ScriptAction};

/// Modes an expectation may name.
pub const MODES: [&str; 3] = ["safe", "naive", "pitfall"];

/// Metrics an expectation may bound (the JSON field names of `sim --json`).
pub const METRIC_NAMES: [&str; 15] = [
    "accepted",
    "published",
    "delivered",
    "redeliveries",
    "effects",
    "duplicate_effects",
    "prevented_duplicates",
    "dead_lettered",
    "lost",
    "lock_lost",
    "retries",
    "age_p50_ms",
    "age_p95_ms",
    "age_max_ms",
    "outbox_lag_max_ms",
];

/// Upper bound for the number of orders of a run.
pub const MAX_MESSAGES: u32 = 1_000_000;

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
    /// Consumers renew their lock (Service Bus) / extend the visibility timeout (SQS) while working.
    #[serde(default)]
    pub renew_lock: bool,
    /// Consumer work per message, ms.
    #[serde(default = "d_handling")]
    pub handling_ms: u64,
    /// Lock duration / visibility timeout override, ms.
    pub lock_ms: Option<u64>,
    /// MaxDeliveryCount / maxReceiveCount override.
    pub max_deliveries: Option<u32>,
    /// MaxDeliveryCount / maxReceiveCount in the raise-delivery-limit pitfall.
    #[serde(default = "d_raised_max_deliveries")]
    pub raised_max_deliveries: u32,
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
    /// How long a two-phase claim holds before another delivery may take it over, ms: the
    /// lab handler's `:claim_lease_ms`. Longer than the slowest provider call, shorter than
    /// the time the waiting deliveries cover.
    #[serde(default = "d_claim_lease")]
    pub claim_lease_ms: u64,
    /// How long the payment provider keeps an idempotency key after its first call, ms: a
    /// call with the same key after that is a new charge.
    #[serde(default = "d_key_retention")]
    pub provider_key_retention_ms: u64,
    /// Inbox retention, ms.
    #[serde(default = "d_retention")]
    pub retention_ms: u64,
    /// Inbox retention in the short-retention pitfall, ms.
    #[serde(default = "d_short_retention")]
    pub short_retention_ms: u64,
    /// Sweeper period, ms.
    #[serde(default = "d_sweep")]
    pub sweep_ms: u64,
    /// Jitter strategy.
    #[serde(default)]
    pub jitter: Jitter,
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
    /// Timing jitter drawn from the seed: handling times and arrival gaps grow by up to this
    /// many percent, so different seeds give different interleavings.
    #[serde(default = "d_timing_jitter")]
    pub timing_jitter_pct: u32,
    /// How long a consumer may keep renewing its lock (Service Bus
    /// `MaxAutoLockRenewalDuration`; SQS: the 12-hour visibility limit), ms.
    pub renew_limit_ms: Option<u64>,
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
/// The raised delivery limit decision 4 offers: 30.
fn d_raised_max_deliveries() -> u32 {
    30
}
fn d_payload() -> u32 {
    64
}
/// Chapter 10's inbox retention with SQS's figures: the source queue's default 4 days, the
/// DLQ's maximum of 14 days, the replayed copy's 4 days in the source queue again, and a
/// reserve - "about 25 days".
fn d_retention() -> u64 {
    const DAY_MS: u64 = 24 * 3_600_000;
    const SOURCE_QUEUE_DAYS: u64 = 4;
    const DLQ_DAYS: u64 = 14;
    const RESERVE_DAYS: u64 = 3;
    (SOURCE_QUEUE_DAYS + DLQ_DAYS + SOURCE_QUEUE_DAYS + RESERVE_DAYS) * DAY_MS
}
fn d_claim_lease() -> u64 {
    30_000
}
/// Stripe may prune a key once it is 24 hours old (chapter 9).
fn d_key_retention() -> u64 {
    24 * 3_600_000
}
fn d_short_retention() -> u64 {
    30_000
}
fn d_sweep() -> u64 {
    15_000
}
fn d_timing_jitter() -> u32 {
    25
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
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ScriptEntry {
    /// Virtual time, ms.
    pub at_ms: u64,
    /// A fault or an operator action.
    #[serde(rename = "do")]
    pub action: ScriptAction,
    /// Repetitions (faults) or batch size (DLQ replay).
    #[serde(default = "d_one_u32")]
    pub count: u32,
    /// Outage length for `broker-down`, ms.
    pub duration_ms: Option<u64>,
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
    /// On how many of the seeds 1..=20 this must hold (default: all 20). Naive and pitfall
    /// runs state the share of seeds on which their breakage shows; safe mode holds on all.
    pub seeds: Option<u32>,
    /// Service Bus differs: these values replace the ones above on `--broker asb`.
    pub asb: Option<Box<Expectation>>,
    /// SQS differs: these values replace the ones above on `--broker sqs`.
    pub sqs: Option<Box<Expectation>>,
}

/// The seeds every expectation is checked on (`seeds` counts among these).
pub const SEEDS_CHECKED: u32 = 20;

/// Service Bus maximum lock duration (queue property `LockDuration`), ms.
pub const ASB_LOCK_MAX_MS: u64 = 5 * 60_000;
/// Service Bus duplicate-detection window bounds, ms (20 seconds to 7 days).
pub const ASB_DEDUP_WINDOW_MS: (u64, u64) = (20_000, 7 * 24 * 3_600_000);
/// SQS maximum visibility timeout, also the limit for extending it, ms (12 hours).
pub const SQS_VISIBILITY_MAX_MS: u64 = 12 * 3_600_000;
/// SQS redrive policy `maxReceiveCount` bounds.
pub const SQS_MAX_RECEIVE_COUNT: (u32, u32) = (1, 1_000);

/// Values that break a documented limit of a broker the scenario runs on (every scenario
/// runs on both, so each value must fit both).
fn broker_limit_problems(s: &Setup) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(lock) = s.lock_ms
        && (lock == 0 || lock > ASB_LOCK_MAX_MS)
    {
        out.push(format!(
            "setup.lock_ms = {lock} breaks the Service Bus limit: LockDuration is at most {ASB_LOCK_MAX_MS} ms (5 minutes)"
        ));
    }
    if let Some(limit) = s.renew_limit_ms
        && limit > SQS_VISIBILITY_MAX_MS
    {
        out.push(format!(
            "setup.renew_limit_ms = {limit} breaks the SQS limit: the visibility timeout extends to at most {SQS_VISIBILITY_MAX_MS} ms (12 hours)"
        ));
    }
    if let Some(window) = s.dedup_window_ms
        && !(ASB_DEDUP_WINDOW_MS.0..=ASB_DEDUP_WINDOW_MS.1).contains(&window)
    {
        out.push(format!(
            "setup.dedup_window_ms = {window} breaks the Service Bus limit: the duplicate-detection window is 20 s to 7 days ({}..={} ms)",
            ASB_DEDUP_WINDOW_MS.0, ASB_DEDUP_WINDOW_MS.1
        ));
    }
    for (key, n) in [
        ("max_deliveries", s.max_deliveries),
        ("raised_max_deliveries", Some(s.raised_max_deliveries)),
    ] {
        if let Some(n) = n
            && !(SQS_MAX_RECEIVE_COUNT.0..=SQS_MAX_RECEIVE_COUNT.1).contains(&n)
        {
            out.push(format!(
                "setup.{key} = {n} breaks the SQS limit: maxReceiveCount is {}..={}",
                SQS_MAX_RECEIVE_COUNT.0, SQS_MAX_RECEIVE_COUNT.1
            ));
        }
    }
    out
}

impl Setup {
    /// What is wrong with the values, naming the key.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let s = self;
        if s.messages == 0 || s.messages > MAX_MESSAGES {
            out.push(format!(
                "setup.messages = {} must be 1..={MAX_MESSAGES}",
                s.messages
            ));
        }
        if s.consumers == 0 || s.consumers > 8 {
            out.push(format!("setup.consumers = {} must be 1..=8", s.consumers));
        }
        if s.dispatchers == 0 || s.dispatchers > 4 {
            out.push(format!(
                "setup.dispatchers = {} must be 1..=4",
                s.dispatchers
            ));
        }
        if s.batch == 0 || s.batch > 1_000 {
            out.push(format!("setup.batch = {} must be 1..=1000", s.batch));
        }
        if !(0.0..=0.5).contains(&s.duplicate_rate) {
            out.push(format!(
                "setup.duplicate_rate = {} must be within 0..=0.5",
                s.duplicate_rate
            ));
        }
        out.extend(broker_limit_problems(s));
        if s.timing_jitter_pct > 100 {
            out.push(format!(
                "setup.timing_jitter_pct = {} must be 0..=100",
                s.timing_jitter_pct
            ));
        }
        if s.lease_ms == 0 || s.sweep_ms == 0 || s.backoff_base_ms == 0 {
            out.push("setup.lease_ms, sweep_ms and backoff_base_ms must be above 0".into());
        }
        out
    }
}

impl Expectation {
    /// What is wrong with the bounds of mode `mode`.
    pub fn problems(&self, mode: &str) -> Vec<String> {
        let mut out = Vec::new();
        if !MODES.contains(&mode) {
            out.push(format!(
                "[expect.{mode}]: unknown mode (safe, naive, pitfall)"
            ));
        }
        for name in self.min.keys().chain(self.max.keys()) {
            if !METRIC_NAMES.contains(&name.as_str()) {
                out.push(format!("[expect.{mode}] names unknown metric {name:?}"));
            }
        }
        for (broker, e) in [("asb", &self.asb), ("sqs", &self.sqs)] {
            if let Some(e) = e {
                if e.asb.is_some() || e.sqs.is_some() {
                    out.push(format!(
                        "[expect.{mode}.{broker}] cannot nest another broker"
                    ));
                }
                out.extend(e.problems(mode));
            }
        }
        match self.seeds {
            Some(n) if n == 0 || n > SEEDS_CHECKED => out.push(format!(
                "[expect.{mode}] seeds = {n} must be 1..={SEEDS_CHECKED}"
            )),
            Some(n) if mode == "safe" && n < SEEDS_CHECKED => out.push(format!(
                "[expect.safe] seeds = {n}: safe mode must hold on every seed"
            )),
            _ => {}
        }
        out
    }

    /// The expectation on broker `broker` (`asb` or `sqs`): each value the broker's table
    /// names replaces the general one.
    #[must_use]
    pub fn for_broker(&self, broker: &str) -> Expectation {
        let over = match broker {
            "asb" => self.asb.as_deref(),
            "sqs" => self.sqs.as_deref(),
            _ => None,
        };
        let mut e = Expectation {
            asb: None,
            sqs: None,
            ..self.clone()
        };
        if let Some(o) = over {
            e.invariants_ok = o.invariants_ok.or(e.invariants_ok);
            e.seeds = o.seeds.or(e.seeds);
            e.min.extend(o.min.iter().map(|(k, v)| (k.clone(), *v)));
            e.max.extend(o.max.iter().map(|(k, v)| (k.clone(), *v)));
        }
        e
    }

    /// How many of the seeds 1..=20 must meet this expectation.
    pub fn seeds_required(&self) -> u32 {
        self.seeds.unwrap_or(SEEDS_CHECKED)
    }
}

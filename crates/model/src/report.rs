//! Metrics of a run, the verdict of the invariant check over the run's files, and the final
//! report.

use crate::run_paths::RunPaths;
use crate::{BrokerKind, Mode};
use content::scenario::Expectation;

/// The runbook metrics of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Metrics {
    /// Orders the API committed.
    pub accepted: u64,
    /// Messages the broker accepted from a publisher (republished copies included).
    pub published: u64,
    /// Receives that handed a message to a consumer.
    pub delivered: u64,
    /// Deliveries with a delivery count above 1, plus duplicate copies.
    pub redeliveries: u64,
    /// Effect rows written (the provider's charges included in two-phase runs).
    pub effects: u64,
    /// Effects beyond the first per order (and second charges at the provider).
    pub duplicate_effects: u64,
    /// Duplicates recognised and not applied: by the inbox (its existence check or its unique
    /// index; each is a `duplicate` row in `service.db`'s `receipts`), by the provider's
    /// idempotency key (a known key in `provider.db`), or by the broker's duplicate detection
    /// (a dropped send, named by its publish or replay event).
    pub prevented_duplicates: u64,
    /// Messages moved to the DLQ.
    pub dead_lettered: u64,
    /// Accepted orders with no effect and no DLQ entry.
    pub lost: u64,
    /// Settles refused because the lock / visibility timeout had passed.
    pub lock_lost: u64,
    /// Retries (immediate, delayed, publish).
    pub retries: u64,
    /// Message age at the effect, 50th percentile, ms.
    pub age_p50_ms: u64,
    /// 95th percentile, ms.
    pub age_p95_ms: u64,
    /// Oldest, ms.
    pub age_max_ms: u64,
    /// Largest age of the oldest unpublished outbox row seen, ms.
    pub outbox_lag_max_ms: u64,
}

/// Metric names usable in scenario expectations (same spelling as the JSON fields); one list,
/// owned by the scenario content format.
pub use content::scenario::METRIC_NAMES;

impl Metrics {
    /// The value of a metric by its name.
    pub fn get(&self, name: &str) -> Option<u64> {
        Some(match name {
            "accepted" => self.accepted,
            "published" => self.published,
            "delivered" => self.delivered,
            "redeliveries" => self.redeliveries,
            "effects" => self.effects,
            "duplicate_effects" => self.duplicate_effects,
            "prevented_duplicates" => self.prevented_duplicates,
            "dead_lettered" => self.dead_lettered,
            "lost" => self.lost,
            "lock_lost" => self.lock_lost,
            "retries" => self.retries,
            "age_p50_ms" => self.age_p50_ms,
            "age_p95_ms" => self.age_p95_ms,
            "age_max_ms" => self.age_max_ms,
            "outbox_lag_max_ms" => self.outbox_lag_max_ms,
            _ => return None,
        })
    }

    /// Fills the age percentiles from `ages` (unsorted).
    pub fn set_ages(&mut self, ages: &[u32]) {
        if ages.is_empty() {
            return;
        }
        let mut v = ages.to_vec();
        v.sort_unstable();
        let pick = |q: usize| u64::from(v[((v.len() - 1) * q).div_ceil(100)]);
        self.age_p50_ms = pick(50);
        self.age_p95_ms = pick(95);
        self.age_max_ms = u64::from(v[v.len() - 1]);
    }
}

/// The verdict of the invariant check over the run's files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InvariantCheck {
    /// Accepted orders with no effect and no DLQ entry.
    pub lost: u64,
    /// Effects beyond one per order (+ second provider charges).
    pub duplicate_effects: u64,
    /// Orders that took effect after a later order of the same customer (ordered scenarios
    /// only): the count behind the "out of order" violations, all of them, not the listed few.
    pub out_of_order: u64,
    /// Human-readable violations (first few of each kind).
    pub violations: Vec<String>,
}

impl InvariantCheck {
    /// True when no invariant is broken.
    pub fn ok(&self) -> bool {
        self.violations.is_empty()
    }
}

/// The outcome of a finished run (what `sim --json` prints).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// Scenario id.
    pub scenario: String,
    /// Mode.
    pub mode: Mode,
    /// Broker profile.
    pub broker: BrokerKind,
    /// Seed.
    pub seed: u64,
    /// Orders the client sent.
    pub messages: u32,
    /// Final metrics (lost and duplicate effects from the files).
    pub metrics: Metrics,
    /// Invariant verdict.
    pub invariants: InvariantCheck,
    /// SHA-256 over the canonical event lines, hex.
    pub trace_hash: String,
    /// Number of events.
    pub events: u64,
    /// Virtual duration, ms.
    pub duration_ms: u64,
    /// The run's files.
    pub paths: RunPaths,
}

impl RunReport {
    /// The JSON object `sim --json` prints: metrics, invariants, trace hash and moments.
    pub fn to_json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("scenario".into(), self.scenario.clone().into());
        map.insert("mode".into(), self.mode.as_str().into());
        map.insert("broker".into(), self.broker.as_str().into());
        map.insert("seed".into(), self.seed.into());
        map.insert("messages".into(), self.messages.into());
        for name in METRIC_NAMES {
            map.insert(name.into(), self.metrics.get(name).unwrap_or(0).into());
        }
        map.insert("invariants_ok".into(), self.invariants.ok().into());
        map.insert(
            "violations".into(),
            self.invariants.violations.clone().into(),
        );
        map.insert("trace_hash".into(), self.trace_hash.clone().into());
        map.insert("events".into(), self.events.into());
        map.insert("duration_ms".into(), self.duration_ms.into());
        map.insert(
            "run_dir".into(),
            self.paths.dir.display().to_string().into(),
        );
        map.insert(
            "service_db".into(),
            self.paths.service_db.display().to_string().into(),
        );
        map.insert(
            "broker_db".into(),
            self.paths.broker_db.display().to_string().into(),
        );
        map.insert(
            "provider_db".into(),
            self.paths.provider_db.display().to_string().into(),
        );
        serde_json::Value::Object(map)
    }

    /// Checks this report against a scenario expectation; returns the mismatches.
    pub fn mismatches(&self, expect: &Expectation) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(want) = expect.invariants_ok
            && want != self.invariants.ok()
        {
            out.push(format!(
                "invariants_ok = {} (expected {want}); violations: {:?}",
                self.invariants.ok(),
                self.invariants.violations
            ));
        }
        for (name, min) in &expect.min {
            let v = self.metrics.get(name).unwrap_or(0);
            if v < *min {
                out.push(format!("{name} = {v} (expected at least {min})"));
            }
        }
        for (name, max) in &expect.max {
            let v = self.metrics.get(name).unwrap_or(0);
            if v > *max {
                out.push(format!("{name} = {v} (expected at most {max})"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_small_sample() {
        let mut m = Metrics::default();
        m.set_ages(&[5, 1, 4, 2, 3]);
        assert_eq!((m.age_p50_ms, m.age_p95_ms, m.age_max_ms), (3, 5, 5));
    }

    #[test]
    fn every_metric_name_resolves() {
        let m = Metrics::default();
        for n in METRIC_NAMES {
            assert_eq!(m.get(n), Some(0), "{n}");
        }
    }
}

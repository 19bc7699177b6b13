//! Metrics of a run, the invariant check over the run's files, and the final report.

use std::collections::HashMap;

use rusqlite::Connection;

use super::model::{BrokerKind, Mode};
use super::scenario::Expectation;
use super::store::RunPaths;

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
    /// Duplicates recognised and not applied (inbox, existence check, idempotency key, broker dedup).
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
pub use crate::content::scenario::METRIC_NAMES;

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
    /// Human-readable violations (first few of each kind).
    pub violations: Vec<String>,
}

impl InvariantCheck {
    /// True when no invariant is broken.
    pub fn ok(&self) -> bool {
        self.violations.is_empty()
    }
}

const MAX_LISTED: usize = 5;

fn sql_err(file: &str, e: &rusqlite::Error) -> String {
    format!("invariant check could not read {file}: {e}")
}

/// Checks the SPEC invariants on the files: every accepted order has exactly one effect or
/// sits in the DLQ with a reason; nothing accepted is lost; no effect without its order; no
/// second charge at the provider; no effect from an unverified claim-check payload.
pub fn check_invariants(paths: &RunPaths, ordered: bool) -> Result<InvariantCheck, String> {
    let svc = Connection::open(&paths.service_db).map_err(|e| sql_err("service.db", &e))?;
    let broker = Connection::open(&paths.broker_db).map_err(|e| sql_err("broker.db", &e))?;
    let provider = Connection::open(&paths.provider_db).map_err(|e| sql_err("provider.db", &e))?;
    let counts = |conn: &Connection, file: &str, sql: &str| -> Result<HashMap<i64, i64>, String> {
        let mut stmt = conn.prepare(sql).map_err(|e| sql_err(file, &e))?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
            .map_err(|e| sql_err(file, &e))?;
        rows.collect::<Result<_, _>>()
            .map_err(|e| sql_err(file, &e))
    };
    let orders = counts(&svc, "service.db", "SELECT id, 0 FROM orders")?;
    let effects = counts(
        &svc,
        "service.db",
        "SELECT order_id, COUNT(*) FROM effects GROUP BY order_id",
    )?;
    let charges = counts(
        &provider,
        "provider.db",
        "SELECT order_id, COUNT(*) FROM charges GROUP BY order_id",
    )?;
    let dlq = counts(
        &broker,
        "broker.db",
        "SELECT order_id, COUNT(*) FROM dlq WHERE replayed_ms IS NULL GROUP BY order_id",
    )?;
    let foreign_reasons = foreign_dlq_reasons(&broker)?;
    // An open DLQ entry beside an effect is harmless only when the inbox would recognise a
    // replay (a processed marker for its message id); otherwise a replay applies it again.
    let unguarded = {
        let mut stmt = broker
            .prepare("SELECT DISTINCT order_id, message_id FROM dlq WHERE replayed_ms IS NULL")
            .map_err(|e| sql_err("broker.db", &e))?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .map_err(|e| sql_err("broker.db", &e))?;
        let mut marked = svc
            .prepare("SELECT 1 FROM inbox WHERE message_id = ?1 AND processed_ms IS NOT NULL")
            .map_err(|e| sql_err("service.db", &e))?;
        let mut out = std::collections::BTreeSet::new();
        for row in rows {
            let (order, message_id) = row.map_err(|e| sql_err("broker.db", &e))?;
            if !marked
                .exists([&message_id])
                .map_err(|e| sql_err("service.db", &e))?
            {
                out.insert(order);
            }
        }
        out
    };
    let unverified: i64 = svc
        .query_row(
            "SELECT COUNT(*) FROM effects WHERE payload_ok = 0",
            [],
            |r| r.get(0),
        )
        .map_err(|e| sql_err("service.db", &e))?;
    let mut check = InvariantCheck::default();
    let mut ids: Vec<&i64> = orders.keys().collect();
    ids.sort_unstable();
    let (mut lost_listed, mut dup_listed) = (0, 0);
    for id in ids {
        let n = effects.get(id).copied().unwrap_or(0);
        if n == 0 && !dlq.contains_key(id) {
            check.lost += 1;
            if lost_listed < MAX_LISTED {
                check
                    .violations
                    .push(format!("order {id}: no effect and not in the DLQ (lost)"));
                lost_listed += 1;
            }
        }
        if n > 0 && unguarded.contains(id) {
            check.violations.push(format!(
                "order {id}: has an effect and an open DLQ entry the inbox would not recognise"
            ));
        }
        if n > 1 {
            check.duplicate_effects += (n - 1) as u64;
            if dup_listed < MAX_LISTED {
                check.violations.push(format!("order {id}: {n} effects"));
                dup_listed += 1;
            }
        }
        let c = charges.get(id).copied().unwrap_or(0);
        if c > 1 {
            check.duplicate_effects += (c - 1) as u64;
            if dup_listed < MAX_LISTED {
                check
                    .violations
                    .push(format!("order {id}: charged {c} times at the provider"));
                dup_listed += 1;
            }
        }
    }
    if check.lost > lost_listed as u64 {
        check
            .violations
            .push(format!("... {} lost orders in total", check.lost));
    }
    for id in effects.keys().chain(charges.keys()) {
        if !orders.contains_key(id) {
            check
                .violations
                .push(format!("effect for order {id} which does not exist"));
        }
    }
    for (seq, message_id) in foreign_reasons {
        check.violations.push(format!(
            "DLQ entry {seq} ({message_id}) carries a reason that belongs to another message"
        ));
    }
    if ordered {
        for (customer, order) in out_of_order(&svc)?.into_iter().take(MAX_LISTED) {
            check.violations.push(format!(
                "{customer}: order {order} took effect before an earlier order of the same customer"
            ));
        }
    }
    if unverified > 0 {
        check.violations.push(format!(
            "{unverified} effect(s) applied on a claim-check payload whose hash did not match"
        ));
    }
    Ok(check)
}

/// Per customer, the orders whose first effect came after a later order's first effect
/// (customer, order).
pub fn out_of_order(svc: &Connection) -> Result<Vec<(String, i64)>, String> {
    let mut stmt = svc
        .prepare(
            "SELECT o.customer, e.order_id FROM effects e JOIN orders o ON o.id = e.order_id \
             WHERE e.id = (SELECT MIN(id) FROM effects f WHERE f.order_id = e.order_id) \
             ORDER BY e.id",
        )
        .map_err(|e| sql_err("service.db", &e))?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
        .map_err(|e| sql_err("service.db", &e))?;
    let mut highest: HashMap<String, i64> = HashMap::new();
    let mut out = Vec::new();
    for row in rows {
        let (customer, order) = row.map_err(|e| sql_err("service.db", &e))?;
        let top = highest.entry(customer.clone()).or_insert(0);
        if order < *top {
            out.push((customer, order));
        } else {
            *top = order;
        }
    }
    Ok(out)
}

/// DLQ entries whose recorded error cannot belong to their own message: a schema error naming
/// another schema version than the body's, or a claim-check error on a message without a
/// claim-check reference. Returns (DLQ sequence, message id).
fn foreign_dlq_reasons(broker: &Connection) -> Result<Vec<(i64, String)>, String> {
    let mut stmt = broker
        .prepare("SELECT seq, message_id, body, description FROM dlq ORDER BY seq")
        .map_err(|e| sql_err("broker.db", &e))?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            ))
        })
        .map_err(|e| sql_err("broker.db", &e))?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, message_id, body, description) = row.map_err(|e| sql_err("broker.db", &e))?;
        if !reason_fits_body(&description, &body) {
            out.push((seq, message_id));
        }
    }
    Ok(out)
}

/// True when an error description can have come from processing `body`
/// (`version|order|amount|created|reference`).
pub fn reason_fits_body(description: &str, body: &str) -> bool {
    let version = body.split('|').next().unwrap_or_default();
    if let Some(rest) = description.split("schema version ").nth(1) {
        let named = rest.split_whitespace().next().unwrap_or_default();
        return named == version;
    }
    if description.contains("blob") || description.contains("claim-check") {
        return body.contains("|blob:");
    }
    true
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
    /// The JSON object of SPEC 5 (`sim --json`).
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
    fn a_schema_error_fits_only_its_own_schema_version() {
        let poison = "unsupported schema version v2 (poison message)";
        assert!(reason_fits_body(poison, "v2|7|100|0|-"));
        assert!(!reason_fits_body(poison, "v1|8|100|0|-"));
        assert!(reason_fits_body(
            "lock expired on every delivery",
            "v1|8|100|0|-"
        ));
        assert!(!reason_fits_body("blob missing", "v1|8|100|0|-"));
    }

    #[test]
    fn every_metric_name_resolves() {
        let m = Metrics::default();
        for n in METRIC_NAMES {
            assert_eq!(m.get(n), Some(0), "{n}");
        }
    }
}

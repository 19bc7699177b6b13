//! The engine's invariant check over the run's files: every accepted order has exactly one effect
//! or an open DLQ entry, nothing is lost, no effect without its order, no second charge, no
//! unverified payload, DLQ reasons fit their message, per-customer order.

use std::collections::HashMap;

use rusqlite::Connection;

use super::store::RunPaths;

pub use model::InvariantCheck;

const MAX_LISTED: usize = 5;

fn sql_err(file: &str, e: &rusqlite::Error) -> String {
    format!("invariant check could not read {file}: {e}")
}

/// Reads `(key, count)` pairs from `sql` on `conn` (`file` names it in the error).
fn counts(conn: &Connection, file: &str, sql: &str) -> Result<HashMap<i64, i64>, String> {
    let mut stmt = conn.prepare(sql).map_err(|e| sql_err(file, &e))?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
        .map_err(|e| sql_err(file, &e))?;
    rows.collect::<Result<_, _>>()
        .map_err(|e| sql_err(file, &e))
}

/// Per order: its effects, its charges at the provider, its open DLQ entries, and whether an
/// open DLQ entry of it is one the inbox would not recognise.
struct Tallies {
    effects: HashMap<i64, i64>,
    charges: HashMap<i64, i64>,
    dlq: HashMap<i64, i64>,
    unguarded: std::collections::BTreeSet<i64>,
}

/// Checks the run's invariants on the files: every accepted order has exactly one effect or sits in
/// the DLQ with a reason; nothing accepted is lost; no effect without its order; no second charge
/// at the provider; no effect from an unverified claim-check payload.
pub fn check_invariants(paths: &RunPaths, ordered: bool) -> Result<InvariantCheck, String> {
    let svc = Connection::open(&paths.service_db).map_err(|e| sql_err("service.db", &e))?;
    let broker = Connection::open(&paths.broker_db).map_err(|e| sql_err("broker.db", &e))?;
    let provider = Connection::open(&paths.provider_db).map_err(|e| sql_err("provider.db", &e))?;
    let orders = counts(&svc, "service.db", "SELECT id, 0 FROM orders")?;
    // A lab run counts from the engine's ledger: the learner's tables are theirs to rewrite.
    let source = crate::lab::ledger::effects_source(&svc);
    let tallies = Tallies {
        effects: counts(
            &svc,
            "service.db",
            &format!("SELECT order_id, COUNT(*) FROM {source} GROUP BY order_id"),
        )?,
        charges: counts(
            &provider,
            "provider.db",
            "SELECT order_id, COUNT(*) FROM charges GROUP BY order_id",
        )?,
        dlq: counts(
            &broker,
            "broker.db",
            "SELECT order_id, COUNT(*) FROM dlq WHERE replayed_ms IS NULL GROUP BY order_id",
        )?,
        unguarded: unguarded_dlq_orders(&broker, &svc)?,
    };
    let foreign_reasons = foreign_dlq_reasons(&broker)?;
    let unverified: i64 = svc
        .query_row(
            &format!("SELECT COUNT(*) FROM {source} WHERE payload_ok = 0"),
            [],
            |r| r.get(0),
        )
        .map_err(|e| sql_err("service.db", &e))?;
    let mut check = InvariantCheck::default();
    judge_orders(&mut check, &orders, &tallies);
    for id in tallies.effects.keys().chain(tallies.charges.keys()) {
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
        judge_order_per_customer(&mut check, &svc, &broker)?;
    }
    if unverified > 0 {
        check.violations.push(format!(
            "{unverified} effect(s) applied on a claim-check payload whose hash did not match"
        ));
    }
    Ok(check)
}

/// The orders with an open DLQ entry whose message the inbox would not recognise: an open DLQ
/// entry beside an effect is harmless only when the inbox has a processed marker for its
/// message id; otherwise a replay applies it again.
fn unguarded_dlq_orders(
    broker: &Connection,
    svc: &Connection,
) -> Result<std::collections::BTreeSet<i64>, String> {
    let mut stmt = broker
        .prepare("SELECT DISTINCT order_id, logical_id FROM dlq WHERE replayed_ms IS NULL")
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
    Ok(out)
}

/// Each order in turn: lost (no effect, not in the DLQ), an effect beside an unrecognised DLQ
/// entry, more than one effect or charge. The first few of each kind are listed.
fn judge_orders(check: &mut InvariantCheck, orders: &HashMap<i64, i64>, tallies: &Tallies) {
    let mut ids: Vec<&i64> = orders.keys().collect();
    ids.sort_unstable();
    let (mut lost_listed, mut dup_listed) = (0, 0);
    for id in ids {
        let n = tallies.effects.get(id).copied().unwrap_or(0);
        if n == 0 && !tallies.dlq.contains_key(id) {
            check.lost += 1;
            if lost_listed < MAX_LISTED {
                check
                    .violations
                    .push(format!("order {id}: no effect and not in the DLQ (lost)"));
                lost_listed += 1;
            }
        }
        if n > 0 && tallies.unguarded.contains(id) {
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
        let c = tallies.charges.get(id).copied().unwrap_or(0);
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
}

/// Per customer, no order's effect before its previous order's (dead-lettered orders aside).
fn judge_order_per_customer(
    check: &mut InvariantCheck,
    svc: &Connection,
    broker: &Connection,
) -> Result<(), String> {
    let dead_lettered: std::collections::HashSet<i64> = broker
        .prepare("SELECT DISTINCT order_id FROM dlq")
        .and_then(|mut st| {
            st.query_map([], |r| r.get::<_, i64>(0))?
                .collect::<rusqlite::Result<_>>()
        })
        .map_err(|e| sql_err("broker.db", &e))?;
    let late = out_of_order(svc, &dead_lettered)?;
    check.out_of_order = late.len() as u64;
    for swap in late.iter().take(MAX_LISTED) {
        check.violations.push(swap.violation());
    }
    Ok(())
}

/// An order that took effect after a later order of the same customer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfOrder {
    /// The customer both orders belong to.
    pub customer: String,
    /// The order placed first, whose effect came late.
    pub earlier: i64,
    /// The highest order of the customer that had already taken effect by then.
    pub later: i64,
}

impl OutOfOrder {
    /// The violation as `--check` and `sim --json` list it: the later order went first.
    pub fn violation(&self) -> String {
        format!(
            "{}: order {} took effect before the earlier order {} of the same customer",
            self.customer, self.later, self.earlier
        )
    }
}

/// Per customer, the orders whose first effect came after a later order's first effect.
/// Orders that went through the DLQ are left out: a session / message group moves on when its
/// head is dead-lettered, and a replay comes late by design.
pub fn out_of_order<S: std::hash::BuildHasher>(
    svc: &Connection,
    dead_lettered: &std::collections::HashSet<i64, S>,
) -> Result<Vec<OutOfOrder>, String> {
    let source = crate::lab::ledger::effects_source(svc);
    let mut stmt = svc
        .prepare(&format!(
            "SELECT o.customer, e.order_id FROM {source} e JOIN orders o ON o.id = e.order_id \
             WHERE e.id = (SELECT MIN(id) FROM {source} f WHERE f.order_id = e.order_id) \
             ORDER BY e.id"
        ))
        .map_err(|e| sql_err("service.db", &e))?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
        .map_err(|e| sql_err("service.db", &e))?;
    let mut highest: HashMap<String, i64> = HashMap::new();
    let mut out = Vec::new();
    for row in rows {
        let (customer, order) = row.map_err(|e| sql_err("service.db", &e))?;
        if dead_lettered.contains(&order) {
            continue;
        }
        let top = highest.entry(customer.clone()).or_insert(0);
        if order < *top {
            out.push(OutOfOrder {
                later: *top,
                earlier: order,
                customer,
            });
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_later_order_is_named_as_the_one_that_went_first() {
        let svc = Connection::open_in_memory().expect("memory db");
        svc.execute_batch(
            "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT);
             CREATE TABLE effects (id INTEGER PRIMARY KEY, order_id INTEGER);
             INSERT INTO orders VALUES (1,'customer-1'),(3,'customer-1'),(5,'customer-1'),
                                       (7,'customer-1'),(2,'customer-2');
             INSERT INTO effects (order_id) VALUES (1),(3),(7),(2),(5),(5);",
        )
        .expect("fixture");
        let late = out_of_order(&svc, &std::collections::HashSet::<i64>::new()).expect("reads");
        assert_eq!(
            late,
            vec![OutOfOrder {
                customer: "customer-1".into(),
                earlier: 5,
                later: 7
            }]
        );
        assert_eq!(
            late[0].violation(),
            "customer-1: order 7 took effect before the earlier order 5 of the same customer"
        );
        let skipped: std::collections::HashSet<i64> = [5].into();
        assert!(out_of_order(&svc, &skipped).expect("reads").is_empty());
    }
}

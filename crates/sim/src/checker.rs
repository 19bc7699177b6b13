//! The independent checker: it recomputes the run's verdict from `service.db`, `broker.db`,
//! `provider.db` and the operation history alone, never from the engine's state, so that a
//! bug in the engine's own bookkeeping cannot hide behind a matching bug in its verdict.
//! `queuelab sim --check` prints its verdict beside the engine's; the tests demand agreement.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rusqlite::{Connection, OpenFlags};

use super::history::HistoryDigest;
use super::store::RunPaths;

/// What the checker found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Accepted orders with no effect and no open DLQ entry.
    pub lost: u64,
    /// Effects beyond one per order, plus second charges at the provider.
    pub duplicate_effects: u64,
    /// Every broken rule, one line each.
    pub violations: Vec<String>,
}

impl Verdict {
    /// True when no rule is broken.
    pub fn ok(&self) -> bool {
        self.violations.is_empty()
    }
}

fn read_only(path: &std::path::Path, file: &str) -> Result<Connection, String> {
    Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("checker cannot open {file}: {e}"))
}

fn rows<T>(
    conn: &Connection,
    file: &str,
    sql: &str,
    map: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, String> {
    let fail = |e: rusqlite::Error| format!("checker cannot read {file}: {e}");
    let mut stmt = conn.prepare(sql).map_err(fail)?;
    stmt.query_map([], map)
        .map_err(fail)?
        .collect::<Result<Vec<T>, _>>()
        .map_err(fail)
}

/// A DLQ entry as the broker stored it.
struct DlqRow {
    order: i64,
    message_id: String,
    /// The envelope's message id (the inbox recognises the message by it).
    logical_id: String,
    body: String,
    description: String,
    open: bool,
}

/// True when `description` can be the error of processing `body`
/// (`version|order|amount|created|reference`).
fn belongs(description: &str, body: &str) -> bool {
    let mut parts = body.split('|');
    let version = parts.next().unwrap_or_default();
    let reference = parts.nth(3).unwrap_or_default();
    if let Some((_, rest)) = description.split_once("schema version ") {
        return rest.split(' ').next() == Some(version);
    }
    if description.contains("blob") || description.contains("claim-check") {
        return reference.starts_with("blob:");
    }
    true
}

/// An effect row as the checker reads it: its id, order, message, and whether its payload was
/// verified.
type EffectRow = (i64, i64, String, bool);

/// What the checker reads of a run's files.
struct RunRows {
    /// Every order and its customer.
    orders: BTreeMap<i64, String>,
    effects: Vec<EffectRow>,
    /// The message ids the inbox has processed.
    processed: BTreeSet<String>,
    dlq: Vec<DlqRow>,
    /// Every charge at the provider: its idempotency key and order.
    charges: Vec<(Option<String>, i64)>,
}

/// Reads what the checker judges from the run's three files, read-only.
fn read_run(paths: &RunPaths) -> Result<RunRows, String> {
    let svc = read_only(&paths.service_db, "service.db")?;
    let broker = read_only(&paths.broker_db, "broker.db")?;
    let provider = read_only(&paths.provider_db, "provider.db")?;
    let orders = rows(&svc, "service.db", "SELECT id, customer FROM orders", |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?
    .into_iter()
    .collect();
    let effects = rows(
        &svc,
        "service.db",
        // A lab run's effects are the engine's ledger (the learner's table may be rewritten).
        &format!(
            "SELECT id, order_id, message_id, payload_ok FROM {} ORDER BY id",
            crate::lab::ledger::effects_source(&svc)
        ),
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get::<_, i64>(3)? != 0)),
    )?;
    let processed = rows(
        &svc,
        "service.db",
        "SELECT message_id FROM inbox WHERE processed_ms IS NOT NULL",
        |r| r.get(0),
    )?
    .into_iter()
    .collect();
    let dlq = rows(
        &broker,
        "broker.db",
        "SELECT order_id, message_id, body, description, replayed_ms IS NULL, logical_id \
         FROM dlq ORDER BY seq",
        |r| {
            Ok(DlqRow {
                order: r.get(0)?,
                message_id: r.get(1)?,
                body: r.get(2)?,
                description: r.get(3)?,
                open: r.get(4)?,
                logical_id: r.get(5)?,
            })
        },
    )?;
    let charges = rows(
        &provider,
        "provider.db",
        "SELECT idempotency_key, order_id FROM charges",
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(RunRows {
        orders,
        effects,
        processed,
        dlq,
        charges,
    })
}

/// Checks the run in `paths` (and `history`, when given). `ordered`: the scenario promises
/// per-customer order, so effects of one customer must follow the order of its orders.
pub fn check(
    paths: &RunPaths,
    history: Option<&HistoryDigest>,
    ordered: bool,
) -> Result<Verdict, String> {
    let run = read_run(paths)?;
    let mut v = Verdict::default();
    let per_order = check_effects(&run, &mut v);
    check_charges(&run.charges, &mut v);
    check_dlq(&run, &per_order, &mut v);
    if ordered {
        check_order(&run, &mut v);
    }
    if let Some(history) = history {
        check_history(history, &run.effects, &run.dlq, &mut v);
    }
    Ok(v)
}

/// Every effect belongs to an existing order and a verified payload; every order has one effect
/// or an open DLQ entry. Returns the effects per order.
fn check_effects(run: &RunRows, v: &mut Verdict) -> HashMap<i64, u64> {
    let mut per_order: HashMap<i64, u64> = HashMap::new();
    for (_, order, _, payload_ok) in &run.effects {
        *per_order.entry(*order).or_default() += 1;
        if !run.orders.contains_key(order) {
            v.violations
                .push(format!("effect for order {order}, which does not exist"));
        }
        if !payload_ok {
            v.violations.push(format!(
                "order {order}: effect from an unverified claim-check payload"
            ));
        }
    }
    let open_dlq: BTreeSet<i64> = run.dlq.iter().filter(|d| d.open).map(|d| d.order).collect();
    for id in run.orders.keys() {
        let n = per_order.get(id).copied().unwrap_or(0);
        if n == 0 && !open_dlq.contains(id) {
            v.lost += 1;
            v.violations
                .push(format!("order {id}: lost (no effect, no open DLQ entry)"));
        }
        if n > 1 {
            v.duplicate_effects += n - 1;
            v.violations.push(format!("order {id}: {n} effects"));
        }
    }
    per_order
}

/// One charge per idempotency key and per order at the provider.
fn check_charges(charges: &[(Option<String>, i64)], v: &mut Verdict) {
    let mut per_key: HashMap<&str, u64> = HashMap::new();
    let mut charges_per_order: HashMap<i64, u64> = HashMap::new();
    for (key, order) in charges {
        if let Some(k) = key {
            *per_key.entry(k).or_default() += 1;
        }
        *charges_per_order.entry(*order).or_default() += 1;
    }
    for (key, n) in per_key.into_iter().filter(|(_, n)| *n > 1) {
        v.violations
            .push(format!("idempotency key {key} charged {n} times"));
    }
    for (order, n) in charges_per_order.into_iter().filter(|(_, n)| *n > 1) {
        v.duplicate_effects += n - 1;
        v.violations
            .push(format!("order {order}: charged {n} times"));
    }
}

/// A DLQ entry's reason fits its message, and an open entry beside an effect is one the inbox
/// would recognise on replay.
fn check_dlq(run: &RunRows, per_order: &HashMap<i64, u64>, v: &mut Verdict) {
    for d in &run.dlq {
        if !belongs(&d.description, &d.body) {
            v.violations.push(format!(
                "DLQ entry of {}: its reason belongs to another message",
                d.message_id
            ));
        }
        if d.open && per_order.contains_key(&d.order) && !run.processed.contains(&d.logical_id) {
            v.violations.push(format!(
                "order {}: effect and an open DLQ entry the inbox would not recognise",
                d.order
            ));
        }
    }
}

/// Per customer, effects follow the order of the orders.
fn check_order(run: &RunRows, v: &mut Verdict) {
    // A group moves on when its head is dead-lettered; a replay comes late by design.
    let mut seen: BTreeSet<i64> = run.dlq.iter().map(|d| d.order).collect();
    let mut highest: HashMap<&str, i64> = HashMap::new();
    for (_, order, _, _) in &run.effects {
        if !seen.insert(*order) {
            continue;
        }
        let customer = run.orders.get(order).map_or("", String::as_str);
        let top = highest.entry(customer).or_insert(0);
        if *order < *top {
            v.violations.push(format!(
                "{customer}: order {order} took effect out of order"
            ));
        }
        *top = (*top).max(*order);
    }
}

/// The files and the history must tell the same story: every effect row and every DLQ entry
/// was produced by an operation the history records as performed, counted per message - two
/// effect rows of one message need two effect operations.
fn check_history(history: &HistoryDigest, effects: &[EffectRow], dlq: &[DlqRow], v: &mut Verdict) {
    let mut rows: BTreeMap<(&str, i64), u64> = BTreeMap::new();
    for (_, order, message_id, _) in effects {
        *rows.entry((message_id.as_str(), *order)).or_default() += 1;
    }
    for ((message_id, order), n) in rows {
        let ops = history.effects(message_id);
        if n > ops {
            v.violations.push(format!(
                "order {order}: {n} effect row(s) of {message_id}, but the history performed {ops}"
            ));
        }
    }
    let mut entries: BTreeMap<(&str, &str), u64> = BTreeMap::new();
    for d in dlq {
        *entries
            .entry((d.message_id.as_str(), d.logical_id.as_str()))
            .or_default() += 1;
    }
    for ((message_id, logical_id), n) in entries {
        // The broker names its MessageId; the consumer's own DeadLetter names the envelope's.
        let mut ops = history.dead_letters(message_id);
        if logical_id != message_id {
            ops += history.dead_letters(logical_id);
        }
        if n > ops {
            v.violations.push(format!(
                "{n} DLQ entr(ies) of {message_id}, but the history moved it there {ops} time(s)"
            ));
        }
    }
}

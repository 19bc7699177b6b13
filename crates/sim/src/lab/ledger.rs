//! The world's record of a lab run's effects, which the learner's SQL cannot reach. The
//! learner's tables are theirs to design, so deleting or rewriting an `effects` row must not undo
//! a credit that happened: every insert into `effects` appends a row to `effect_ledger`, written
//! by an engine-owned temporary trigger on each connection the learner's SQL runs on. The row
//! commits or rolls back with the learner's transaction (the same database), and it records what
//! the engine knows about the delivery being handled (its message, whether the consumer could
//! read it, its amount) beside what the learner wrote. The authorizer refuses the learner's
//! writes, drops and trigger changes on these objects; the verdict, the independent checker,
//! the picture and the trail read the ledger.

use rusqlite::Connection;
use rusqlite::hooks::{AuthAction, AuthContext};

/// The append-only ledger of effects.
pub const LEDGER_TABLE: &str = "effect_ledger";
/// The delivery the connection handles now, as the engine knows it (a temporary table).
const DELIVERY_TABLE: &str = "engine_delivery";
/// The trigger that appends to the ledger (a temporary trigger).
const LEDGER_TRIGGER: &str = "engine_effect_ledger";

/// The ledger in the service database of a lab run.
pub(crate) const LEDGER_SQL: &str = "CREATE TABLE IF NOT EXISTS effect_ledger (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    effect_id            INTEGER NOT NULL,
    business_key         TEXT,
    order_id             INTEGER,
    message_id           TEXT,
    kind                 TEXT,
    amount_cents         INTEGER,
    payload_ok           INTEGER NOT NULL,
    applied_ms           INTEGER,
    instance             TEXT,
    delivered_message_id TEXT,
    delivered_amount     INTEGER
);";

/// The per-connection part: the engine's knowledge of the delivery in hand, and the trigger.
/// `payload_ok` is the engine's: whether the consumer could read the body, never the column the
/// learner filled (a row written outside a delivery keeps the writer's own).
pub(crate) const CONNECTION_SQL: &str = "
CREATE TEMP TABLE IF NOT EXISTS engine_delivery (
    message_id   TEXT NOT NULL,
    amount_cents INTEGER,
    readable     INTEGER NOT NULL
);
CREATE TEMP TRIGGER IF NOT EXISTS engine_effect_ledger AFTER INSERT ON main.effects BEGIN
    INSERT INTO effect_ledger (effect_id, business_key, order_id, message_id, kind, amount_cents,
                               payload_ok, applied_ms, instance, delivered_message_id,
                               delivered_amount)
    VALUES (NEW.id, NEW.business_key, NEW.order_id, NEW.message_id, NEW.kind, NEW.amount_cents,
            COALESCE((SELECT readable FROM engine_delivery LIMIT 1), NEW.payload_ok),
            NEW.applied_ms, NEW.instance,
            (SELECT message_id FROM engine_delivery LIMIT 1),
            (SELECT amount_cents FROM engine_delivery LIMIT 1));
END;";

/// Sets up the ledger on a connection learner SQL runs on (the table once, the trigger per
/// connection).
pub(crate) fn install(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(LEDGER_SQL)?;
    conn.execute_batch(CONNECTION_SQL)
}

/// The delivery `conn` handles from now on: `amount` is `None` for a body the consumer cannot
/// read.
pub(crate) fn set_delivery(
    conn: &Connection,
    message_id: &str,
    amount: Option<i64>,
) -> rusqlite::Result<()> {
    clear_delivery(conn)?;
    conn.prepare_cached(
        "INSERT INTO temp.engine_delivery (message_id, amount_cents, readable) VALUES (?1, ?2, ?3)",
    )?
    .execute(rusqlite::params![
        message_id,
        amount,
        i64::from(amount.is_some())
    ])?;
    Ok(())
}

/// `conn` handles no delivery any more.
pub(crate) fn clear_delivery(conn: &Connection) -> rusqlite::Result<()> {
    conn.prepare_cached("DELETE FROM temp.engine_delivery")?
        .execute([])
        .map(|_| ())
}

/// Whether a ledger entry after `after` credits something the delivery in hand does not say: a
/// body the consumer could not read, or another amount than the message's.
pub(crate) fn unlike_delivery(conn: &Connection, after: i64) -> rusqlite::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM effect_ledger WHERE id > ?1 \
           AND delivered_message_id IS NOT NULL \
           AND (payload_ok = 0 OR amount_cents IS NOT delivered_amount))",
    )?
    .query_row([after], |r| r.get(0))
}

/// Whether the ledger holds an effect taken for a delivery of `message_id` (committed: a
/// rolled-back effect left no entry).
pub(crate) fn holds_effect(conn: &Connection, message_id: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM effect_ledger WHERE delivered_message_id = ?1)",
    )?
    .query_row([message_id], |r| r.get(0))
}

fn is_engine_object(name: &str) -> bool {
    [LEDGER_TABLE, DELIVERY_TABLE, LEDGER_TRIGGER]
        .iter()
        .any(|o| o.eq_ignore_ascii_case(name))
}

/// What the authorizer refuses learner SQL about the ledger: any write, drop or trigger on the
/// engine's objects (only the engine's own trigger writes the ledger), and dropping, renaming or
/// altering `effects`, whose inserts the trigger watches.
pub fn refusal(ctx: &AuthContext<'_>) -> Option<String> {
    let by_engine = ctx
        .accessor
        .is_some_and(|a| a.eq_ignore_ascii_case(LEDGER_TRIGGER));
    let target = match ctx.action {
        AuthAction::Insert { table_name }
        | AuthAction::Delete { table_name }
        | AuthAction::Update { table_name, .. } => {
            if by_engine {
                return None;
            }
            table_name
        }
        AuthAction::DropTable { table_name }
        | AuthAction::DropTempTable { table_name }
        | AuthAction::AlterTable { table_name, .. } => {
            if table_name.eq_ignore_ascii_case("effects") {
                return Some("changing the effects table".into());
            }
            table_name
        }
        AuthAction::CreateTrigger {
            trigger_name,
            table_name,
        }
        | AuthAction::CreateTempTrigger {
            trigger_name,
            table_name,
        }
        | AuthAction::DropTrigger {
            trigger_name,
            table_name,
        }
        | AuthAction::DropTempTrigger {
            trigger_name,
            table_name,
        } => {
            if is_engine_object(trigger_name) {
                trigger_name
            } else {
                table_name
            }
        }
        _ => return None,
    };
    is_engine_object(target).then(|| format!("the engine's record {target}"))
}

/// Where the effects of a run are counted from: the ledger where the run has one (a lab run),
/// else the `effects` table. A table expression with the columns `id, order_id, message_id,
/// payload_ok, amount_cents`.
pub fn effects_source(conn: &Connection) -> &'static str {
    let has_ledger = conn
        .query_row(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [LEDGER_TABLE],
            |_| Ok(()),
        )
        .is_ok();
    if has_ledger {
        "(SELECT id, order_id, message_id, payload_ok, amount_cents FROM effect_ledger)"
    } else {
        "effects"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn service() -> Connection {
        let conn = Connection::open_in_memory().expect("db");
        conn.execute_batch(crate::store::SERVICE_SQL)
            .expect("schema");
        install(&conn).expect("ledger");
        conn
    }

    const CREDIT: &str = "INSERT INTO effects (business_key, order_id, message_id, kind, \
        amount_cents, payload_ok, applied_ms, instance) VALUES (?1, 1, 'm-1', 'credit', 250, 1, 0, 'c')";

    #[test]
    fn every_effect_insert_is_on_the_ledger_and_a_delete_does_not_undo_it() {
        let conn = service();
        set_delivery(&conn, "m-1", None).expect("delivery");
        conn.execute(CREDIT, ["k-1"]).expect("credit");
        conn.execute(CREDIT, ["k-2"]).expect("credit");
        conn.execute("DELETE FROM effects", []).expect("delete");
        let (n, readable): (i64, i64) = conn
            .query_row(
                "SELECT COUNT(*), MAX(payload_ok) FROM effect_ledger",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .expect("count");
        assert_eq!(n, 2);
        assert_eq!(readable, 0, "the engine knows the body was unreadable");
    }

    #[test]
    fn the_ledger_holds_a_message_s_effect_only_once_it_committed() {
        let conn = service();
        set_delivery(&conn, "m-1", Some(250)).expect("delivery");
        conn.execute_batch("BEGIN").expect("begin");
        conn.execute(CREDIT, ["k-1"]).expect("credit");
        conn.execute_batch("ROLLBACK").expect("rollback");
        assert!(!holds_effect(&conn, "m-1").expect("read"), "rolled back");
        conn.execute(CREDIT, ["k-2"]).expect("credit");
        assert!(holds_effect(&conn, "m-1").expect("read"));
        assert!(
            !holds_effect(&conn, "m-2").expect("read"),
            "another message"
        );
    }

    #[test]
    fn a_rolled_back_credit_leaves_no_ledger_row() {
        let conn = service();
        conn.execute_batch("BEGIN").expect("begin");
        conn.execute(CREDIT, ["k-1"]).expect("credit");
        conn.execute_batch("ROLLBACK").expect("rollback");
        let n: i64 = conn
            .query_row("SELECT COUNT(*) FROM effect_ledger", [], |r| r.get(0))
            .expect("count");
        assert_eq!(n, 0);
    }
}

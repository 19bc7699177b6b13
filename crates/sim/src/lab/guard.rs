//! What learner SQL may do: an authorizer on the connection that runs it (no ATTACH/DETACH, no
//! extension loading, no PRAGMA, no virtual tables, nothing outside the service database, no
//! drop of the engine's own tables), a budget of work per statement through the progress
//! handler, and size limits ([`limits`]), so a runaway recursive CTE or a gigabyte blob ends with
//! a message at its line instead of a hung or swapping check.
//!
//! The budget counts SQLite's virtual machine steps, not wall-clock time, so the same file gives
//! the same verdict on every machine. It holds for every statement on the connection, the
//! engine's own too: a trigger the file created fires inside them ([`engine_sql`]). A step can
//! copy a megabyte, so a statement also ends once it has run for [`STATEMENT_SECONDS`] seconds;
//! no honest statement comes near either bound.

mod engine_objects;
mod engine_sql;
pub mod limits;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rusqlite::Connection;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::trace::{TraceEvent, TraceEventCodes};

use super::file::LabFileErrorKind;
pub use engine_sql::engine_sql_finding;
pub use limits::limit_finding;

pub use model::lab_file::limits::{STATEMENT_SECONDS, STEPS_PER_STATEMENT};
use model::lab_file::limits::{STEPS_PER_TICK, TICKS_PER_STATEMENT};

/// The switch and the findings shared with the connection's callbacks.
#[derive(Debug)]
struct Shared {
    /// Learner SQL is running: the rules apply (the engine's own SQL is not held to them).
    active: AtomicBool,
    /// Progress-handler calls of the current statement.
    ticks: AtomicU32,
    /// When the current statement started, in milliseconds after `epoch`.
    started_ms: AtomicU64,
    /// The guard's own clock start.
    epoch: Instant,
    /// The statement used up its budget.
    too_long: AtomicBool,
    /// What the authorizer refused, for the message.
    refused: Mutex<Option<LabFileErrorKind>>,
    /// The side-effect functions the statements called since the last look (lower case): a
    /// section may call only its own, which `LabSql::prepare` checks from this list.
    side_effect_calls: Mutex<Vec<String>>,
}

impl Shared {
    fn new() -> Shared {
        Shared {
            active: AtomicBool::new(false),
            ticks: AtomicU32::new(0),
            started_ms: AtomicU64::new(0),
            epoch: Instant::now(),
            too_long: AtomicBool::new(false),
            refused: Mutex::new(None),
            side_effect_calls: Mutex::new(Vec::new()),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// A statement starts: its budget is full.
    fn restart(&self) {
        self.ticks.store(0, Ordering::Relaxed);
        self.started_ms.store(self.now_ms(), Ordering::Relaxed);
    }

    /// One more tick of the running statement: whether it has used up its steps or its time.
    fn spent(&self) -> bool {
        let used = self.ticks.fetch_add(1, Ordering::Relaxed) + 1;
        let ran_ms = self
            .now_ms()
            .saturating_sub(self.started_ms.load(Ordering::Relaxed));
        used > TICKS_PER_STATEMENT || ran_ms > STATEMENT_SECONDS * 1000
    }
}

/// The guard installed on one connection.
#[derive(Debug, Clone)]
pub struct Guard {
    shared: Arc<Shared>,
}

/// What an authorizer answers for one action of learner SQL: `Some(why)` refuses it.
fn refusal(ctx: &AuthContext<'_>) -> Option<LabFileErrorKind> {
    // The engine's record of effects is out of the learner's reach (its own rules).
    if let Some(what) = super::ledger::refusal(ctx) {
        return Some(LabFileErrorKind::Forbidden(what));
    }
    if let Some(db) = ctx.database_name
        && db != "main"
        && db != "temp"
    {
        return Some(LabFileErrorKind::Forbidden(format!("database {db}")));
    }
    let what = match ctx.action {
        AuthAction::Attach { .. } => "ATTACH".into(),
        AuthAction::Detach { .. } => "DETACH".into(),
        AuthAction::Pragma { pragma_name, .. } => format!("PRAGMA {pragma_name}"),
        AuthAction::Function { function_name }
            if function_name.eq_ignore_ascii_case("load_extension") =>
        {
            "load_extension()".into()
        }
        AuthAction::CreateVtable { .. } | AuthAction::DropVtable { .. } => "virtual table".into(),
        AuthAction::Unknown { code, .. } => format!("action {code}"),
        action => {
            return engine_objects::dropped_engine_object(&action)
                .map(LabFileErrorKind::EngineObject);
        }
    };
    Some(LabFileErrorKind::Forbidden(what))
}

impl Guard {
    /// Installs the limits, the budget for every statement, and the authorizer on `conn` (the
    /// authorizer inactive until [`Guard::start`]).
    pub fn install(conn: &mut Connection) -> rusqlite::Result<Guard> {
        limits::apply(conn)?;
        engine_sql::forget();
        let guard = Guard {
            shared: Arc::new(Shared::new()),
        };
        let shared = Arc::clone(&guard.shared);
        conn.authorizer(Some(move |ctx: AuthContext<'_>| {
            if !shared.active.load(Ordering::Relaxed) {
                return Authorization::Allow;
            }
            if let AuthAction::Function { function_name } = ctx.action {
                let name = function_name.to_ascii_lowercase();
                if content::LabSection::home_of(&name).is_some()
                    && let Ok(mut calls) = shared.side_effect_calls.lock()
                {
                    calls.push(name);
                }
            }
            match refusal(&ctx) {
                None => Authorization::Allow,
                Some(what) => {
                    if let Ok(mut slot) = shared.refused.lock() {
                        slot.get_or_insert(what);
                    }
                    Authorization::Deny
                }
            }
        }))?;
        let shared = Arc::clone(&guard.shared);
        conn.trace_v2(
            TraceEventCodes::SQLITE_TRACE_STMT,
            Some(move |event: TraceEvent<'_>| {
                if let TraceEvent::Stmt(stmt, text) = event
                    && engine_sql::statement_started(text, stmt.sql() == text)
                {
                    shared.restart();
                }
            }),
        )?;
        let shared = Arc::clone(&guard.shared);
        conn.progress_handler(
            STEPS_PER_TICK,
            Some(move || {
                if !shared.spent() {
                    return false;
                }
                if shared.active.load(Ordering::Relaxed) {
                    shared.too_long.store(true, Ordering::Relaxed);
                } else {
                    engine_sql::engine_overran();
                }
                true
            }),
        )?;
        Ok(guard)
    }

    /// Learner SQL starts (or its next statement does): the rules apply, the budget is full.
    pub fn start(&self) {
        self.shared.restart();
        self.shared.too_long.store(false, Ordering::Relaxed);
        if let Ok(mut slot) = self.shared.refused.lock() {
            *slot = None;
        }
        // Each statement's calls are its own (and the list never grows over a run).
        if let Ok(mut calls) = self.shared.side_effect_calls.lock() {
            calls.clear();
        }
        self.shared.active.store(true, Ordering::Relaxed);
    }

    /// The engine's own SQL runs again.
    pub fn stop(&self) {
        self.shared.active.store(false, Ordering::Relaxed);
    }

    /// The side-effect functions the current statement called while it prepared (lower case).
    pub fn take_side_effect_calls(&self) -> Vec<String> {
        self.shared
            .side_effect_calls
            .lock()
            .map(|mut calls| std::mem::take(&mut *calls))
            .unwrap_or_default()
    }

    /// Takes `kind` as the finding of the running statement (a limit the engine holds it to
    /// while reading its rows).
    pub fn found(&self, kind: LabFileErrorKind) {
        if let Ok(mut slot) = self.shared.refused.lock() {
            slot.get_or_insert(kind);
        }
    }

    /// Whether the guard or a limit caused the failure `e` of learner SQL, and how to name it
    /// for the learner.
    pub fn finding_for(&self, e: &rusqlite::Error) -> Option<LabFileErrorKind> {
        self.finding().or_else(|| limit_finding(e))
    }

    /// Whether the guard caused the last failure, and how to name it for the learner.
    pub fn finding(&self) -> Option<LabFileErrorKind> {
        if self.shared.too_long.load(Ordering::Relaxed) {
            return Some(LabFileErrorKind::TooLong);
        }
        self.shared
            .refused
            .lock()
            .ok()
            .and_then(|slot| slot.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guarded() -> (Connection, Guard) {
        let mut conn = Connection::open_in_memory().expect("memory db");
        let guard = Guard::install(&mut conn).expect("install");
        guard.start();
        (conn, guard)
    }

    #[test]
    fn attach_pragma_and_extensions_are_refused() {
        for (sql, what) in [
            ("ATTACH DATABASE 'x.db' AS x", "ATTACH"),
            ("PRAGMA journal_mode=DELETE", "PRAGMA journal_mode"),
            ("SELECT load_extension('x')", "load_extension()"),
        ] {
            let (conn, guard) = guarded();
            assert!(conn.execute_batch(sql).is_err(), "{sql}");
            assert_eq!(
                guard.finding(),
                Some(LabFileErrorKind::Forbidden(what.into())),
                "{sql}"
            );
        }
    }

    #[test]
    fn a_runaway_recursive_cte_runs_out_of_budget() {
        let (conn, guard) = guarded();
        let r: rusqlite::Result<i64> = conn.query_row(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n",
            [],
            |r| r.get(0),
        );
        assert!(r.is_err());
        assert_eq!(guard.finding(), Some(LabFileErrorKind::TooLong));
    }

    #[test]
    fn the_engine_sql_is_not_held_to_the_rules() {
        let (conn, guard) = guarded();
        guard.stop();
        conn.execute_batch("PRAGMA user_version = 3")
            .expect("engine pragma");
        conn.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            .expect("plain SQL");
        assert_eq!(guard.finding(), None);
    }
}

#[cfg(test)]
mod engine_sql_tests {
    use super::*;

    #[test]
    fn a_trigger_fired_by_the_engine_runs_out_of_budget_and_is_named() {
        let mut conn = Connection::open_in_memory().expect("memory db");
        conn.execute_batch(
            "CREATE TABLE orders(id INTEGER PRIMARY KEY);
             CREATE TRIGGER hang AFTER INSERT ON orders BEGIN
               SELECT (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
                       SELECT max(i) FROM n);
             END;",
        )
        .expect("schema");
        let guard = Guard::install(&mut conn).expect("install");
        // The engine's own statement: the guard is not started.
        let e = conn
            .execute("INSERT INTO orders DEFAULT VALUES", [])
            .expect_err("stopped");
        assert_eq!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::OperationInterrupted)
        );
        assert_eq!(guard.finding(), None, "no learner statement ran");
        assert_eq!(
            engine_sql::take_overrun(),
            Some(engine_sql::Overrun {
                trigger: Some("hang".into())
            })
        );
    }
}

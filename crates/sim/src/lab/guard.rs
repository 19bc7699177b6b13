//! What learner SQL may do: an authorizer on the connection that runs it (no ATTACH/DETACH, no
//! extension loading, no PRAGMA, no virtual tables, nothing outside the service database) and a
//! budget of work per statement through the progress handler, so a runaway recursive CTE ends
//! with "statement ran too long" instead of a hung check. The budget counts SQLite's virtual
//! machine steps, not wall-clock time, so the same file gives the same verdict on every machine.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use rusqlite::Connection;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};

use super::file::LabFileErrorKind;

/// Virtual-machine steps between two calls of the progress handler.
const STEPS_PER_TICK: i32 = 1_000;
/// Calls of the progress handler one statement may use (about 20 million VM steps: far more
/// than any honest handler statement needs, a fraction of a second of work).
const TICKS_PER_STATEMENT: u32 = 20_000;

/// The switch and the findings shared with the connection's callbacks.
#[derive(Debug, Default)]
struct Shared {
    /// Learner SQL is running: the rules apply (the engine's own SQL is not held to them).
    active: AtomicBool,
    /// Progress-handler calls of the current statement.
    ticks: AtomicU32,
    /// The statement used up its budget.
    too_long: AtomicBool,
    /// What the authorizer refused, for the message.
    refused: Mutex<Option<String>>,
    /// The side-effect functions the statements called since the last look (lower case): a
    /// section may call only its own, which `LabSql::prepare` checks from this list.
    side_effect_calls: Mutex<Vec<String>>,
}

/// The guard installed on one connection.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    shared: Arc<Shared>,
}

/// What an authorizer answers for one action of learner SQL: `Some(what)` refuses it.
fn refusal(ctx: &AuthContext<'_>) -> Option<String> {
    // The engine's record of effects is out of the learner's reach (its own rules).
    if let Some(what) = super::ledger::refusal(ctx) {
        return Some(what);
    }
    if let Some(db) = ctx.database_name
        && db != "main"
        && db != "temp"
    {
        return Some(format!("database {db}"));
    }
    match ctx.action {
        AuthAction::Attach { .. } => Some("ATTACH".into()),
        AuthAction::Detach { .. } => Some("DETACH".into()),
        AuthAction::Pragma { pragma_name, .. } => Some(format!("PRAGMA {pragma_name}")),
        AuthAction::Function { function_name }
            if function_name.eq_ignore_ascii_case("load_extension") =>
        {
            Some("load_extension()".into())
        }
        AuthAction::CreateVtable { .. } | AuthAction::DropVtable { .. } => {
            Some("virtual table".into())
        }
        AuthAction::Unknown { code, .. } => Some(format!("action {code}")),
        _ => None,
    }
}

impl Guard {
    /// Installs the authorizer and the progress handler on `conn` (inactive until
    /// [`Guard::start`]).
    pub fn install(conn: &mut Connection) -> rusqlite::Result<Guard> {
        let guard = Guard::default();
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
        conn.progress_handler(
            STEPS_PER_TICK,
            Some(move || {
                if !shared.active.load(Ordering::Relaxed) {
                    return false;
                }
                let used = shared.ticks.fetch_add(1, Ordering::Relaxed) + 1;
                if used > TICKS_PER_STATEMENT {
                    shared.too_long.store(true, Ordering::Relaxed);
                    return true;
                }
                false
            }),
        )?;
        Ok(guard)
    }

    /// Learner SQL starts (or its next statement does): the rules apply, the budget is full.
    pub fn start(&self) {
        self.shared.ticks.store(0, Ordering::Relaxed);
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
            .map(LabFileErrorKind::Forbidden)
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

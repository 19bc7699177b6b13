//! The side-effect functions of learner SQL: `charge(:key, :amount)` (the payment provider),
//! `dead_letter(:reason)` (the broker's DLQ) and `publish(:message_id, :body)` (the broker's
//! queue). All reach outside the service database, so a rollback must not undo them: the SQL
//! function only records the call, and the engine applies it right after the statement that
//! made it, outside any transaction. Each answers only while a section that offers it runs
//! ([`Section::functions`]: `charge` and `dead_letter` in `@handle`, `publish` in `@accept`);
//! anywhere else it is an error.

use std::sync::{Arc, Mutex};

use rusqlite::Connection;
use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::ValueRef;

use content::LabSection as Section;

/// One call of a side-effect function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SideEffect {
    /// Charge `amount` cents at the payment provider; a key the provider has seen returns its
    /// first charge instead of a second one. `None`: no idempotency key (every call charges).
    Charge {
        /// The idempotency key.
        key: Option<String>,
        /// Cents.
        amount: i64,
    },
    /// Move the delivery in hand to the DLQ with this reason once the section stops.
    DeadLetter {
        /// The consumer's reason (may be empty: the check names that).
        reason: String,
    },
    /// Hand a message to the broker at once (the dual write the outbox replaces).
    Publish {
        /// The message id as given.
        message_id: String,
        /// The body as given.
        body: String,
    },
}

#[derive(Debug, Default)]
struct Calls {
    /// The section that runs now (`None`: no learner section, every call is refused).
    open: Option<Section>,
    calls: Vec<SideEffect>,
}

/// The recorder installed on one connection.
#[derive(Debug, Clone, Default)]
pub struct SideEffects {
    shared: Arc<Mutex<Calls>>,
}

fn user_error(text: String) -> rusqlite::Error {
    rusqlite::Error::UserFunctionError(text.into())
}

/// A value as text (numbers spelled out), `None` for NULL.
fn text_arg(ctx: &Context<'_>, i: usize) -> Option<String> {
    match ctx.get_raw(i) {
        ValueRef::Null => None,
        ValueRef::Integer(n) => Some(n.to_string()),
        ValueRef::Real(x) => Some(x.to_string()),
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
    }
}

impl SideEffects {
    fn record(&self, name: &str, call: SideEffect) -> rusqlite::Result<()> {
        let mut calls = self
            .shared
            .lock()
            .map_err(|_| user_error(format!("{name}() is unavailable")))?;
        let home = Section::home_of(name);
        if calls.open.is_none() || calls.open != home {
            let home = home.map_or("no section", Section::as_str);
            return Err(user_error(format!(
                "{name}() can only be called in @{home}"
            )));
        }
        calls.calls.push(call);
        Ok(())
    }

    /// Registers `charge`, `dead_letter` and `publish` on `conn` (closed until
    /// [`SideEffects::open`]).
    pub fn install(conn: &Connection) -> rusqlite::Result<SideEffects> {
        let effects = SideEffects::default();
        // Not deterministic (a call is an act, not a value) and only in the learner's own
        // statements: a trigger or a view must not call the provider behind their back.
        let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DIRECTONLY;
        let recorder = effects.clone();
        conn.create_scalar_function("charge", 2, flags, move |ctx| {
            let key = text_arg(ctx, 0);
            let amount = match ctx.get_raw(1) {
                ValueRef::Integer(n) if n >= 0 => n,
                _ => {
                    return Err(user_error(
                        "charge(:key, :amount) needs an amount in whole cents, 0 or more".into(),
                    ));
                }
            };
            recorder.record(
                "charge",
                SideEffect::Charge {
                    key: key.clone(),
                    amount,
                },
            )?;
            Ok(key)
        })?;
        let recorder = effects.clone();
        conn.create_scalar_function("dead_letter", 1, flags, move |ctx| {
            let reason = text_arg(ctx, 0).unwrap_or_default();
            recorder.record("dead_letter", SideEffect::DeadLetter { reason })?;
            Ok(None::<String>)
        })?;
        let recorder = effects.clone();
        conn.create_scalar_function("publish", 2, flags, move |ctx| {
            let (Some(message_id), Some(body)) = (text_arg(ctx, 0), text_arg(ctx, 1)) else {
                return Err(user_error(
                    "publish(:message_id, :body) needs a message id and a body, not NULL".into(),
                ));
            };
            recorder.record(
                "publish",
                SideEffect::Publish {
                    message_id: message_id.clone(),
                    body,
                },
            )?;
            Ok(message_id)
        })?;
        Ok(effects)
    }

    /// `section` starts: the functions it offers answer until [`SideEffects::close`].
    pub fn open(&self, section: Section) {
        if let Ok(mut calls) = self.shared.lock() {
            calls.open = Some(section);
            calls.calls.clear();
        }
    }

    /// The section ended: calls are refused again (and nothing left over is applied).
    pub fn close(&self) {
        if let Ok(mut calls) = self.shared.lock() {
            calls.open = None;
            calls.calls.clear();
        }
    }

    /// The calls made since the last take, in order.
    pub fn take(&self) -> Vec<SideEffect> {
        self.shared
            .lock()
            .map(|mut calls| std::mem::take(&mut calls.calls))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn installed() -> (Connection, SideEffects) {
        let conn = Connection::open_in_memory().expect("db");
        let effects = SideEffects::install(&conn).expect("install");
        (conn, effects)
    }

    #[test]
    fn calls_are_recorded_in_order_and_a_rollback_keeps_them() {
        let (conn, effects) = installed();
        effects.open(Section::Handle);
        conn.execute_batch(
            "BEGIN; SELECT charge('m-1', 250); SELECT dead_letter('UnsupportedSchemaVersion'); ROLLBACK;",
        )
        .expect("runs");
        assert_eq!(
            effects.take(),
            vec![
                SideEffect::Charge {
                    key: Some("m-1".into()),
                    amount: 250
                },
                SideEffect::DeadLetter {
                    reason: "UnsupportedSchemaVersion".into()
                },
            ]
        );
        assert!(effects.take().is_empty(), "taken once");
    }

    #[test]
    fn a_null_key_and_a_null_reason_are_kept_as_such() {
        let (conn, effects) = installed();
        effects.open(Section::Handle);
        conn.execute_batch("SELECT charge(NULL, 5); SELECT dead_letter(NULL);")
            .expect("runs");
        assert_eq!(
            effects.take(),
            vec![
                SideEffect::Charge {
                    key: None,
                    amount: 5
                },
                SideEffect::DeadLetter {
                    reason: String::new()
                },
            ]
        );
    }

    #[test]
    fn bad_amounts_and_calls_outside_handle_are_errors() {
        let (conn, effects) = installed();
        let e = conn
            .execute_batch("SELECT charge('k', 1)")
            .expect_err("closed");
        assert!(e.to_string().contains("only be called in @handle"), "{e}");
        effects.open(Section::Handle);
        for bad in [
            "SELECT charge('k', -1)",
            "SELECT charge('k', 'ten')",
            "SELECT charge('k', 1.5)",
        ] {
            let e = conn.execute_batch(bad).expect_err(bad);
            assert!(e.to_string().contains("whole cents"), "{bad}: {e}");
        }
        effects.close();
        assert!(effects.take().is_empty());
    }

    #[test]
    fn publish_answers_in_accept_only_and_survives_the_rollback() {
        let (conn, effects) = installed();
        effects.open(Section::Handle);
        let e = conn
            .execute_batch("SELECT publish('m-1', 'v1')")
            .expect_err("not in @handle");
        assert!(e.to_string().contains("only be called in @accept"), "{e}");
        effects.open(Section::Accept);
        let e = conn
            .execute_batch("SELECT charge('k', 1)")
            .expect_err("not in @accept");
        assert!(e.to_string().contains("only be called in @handle"), "{e}");
        assert!(conn.execute_batch("SELECT publish(NULL, 'v1')").is_err());
        conn.execute_batch("BEGIN; SELECT publish('m-1', 'v1|1'); ROLLBACK;")
            .expect("runs");
        assert_eq!(
            effects.take(),
            vec![SideEffect::Publish {
                message_id: "m-1".into(),
                body: "v1|1".into()
            }]
        );
    }

    #[test]
    fn a_trigger_cannot_call_them() {
        let (conn, effects) = installed();
        effects.open(Section::Handle);
        conn.execute_batch(
            "CREATE TABLE t(x); CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN SELECT charge('k', 1); END;",
        )
        .expect("schema");
        assert!(conn.execute_batch("INSERT INTO t VALUES (1)").is_err());
        assert!(effects.take().is_empty());
    }
}

//! The consumer's hook points in a lab run: the learner's `@check` instead of the built-in
//! existence check, and `@handle` instead of the built-in inbox + effect SQL. What the
//! learner's statements wrote is read back from the file and put into the picture, the metrics
//! and the facts exactly as the built-in modes do, so moments and checkers judge a lab run like
//! any run. A UNIQUE violation settles as a duplicate; any other SQLite error takes the broker
//! profile's failure path; a file that cannot run stops the run with [`SimError::Lab`].

use std::collections::HashSet;
use std::sync::Arc;

use rusqlite::Connection;
use rusqlite::types::Value;

use super::action::{Action, Delivery};
use super::inbox::{EffectRow, SQLITE_CONSTRAINT_UNIQUE};
use super::payload::Failure;
use super::{CONSUMER_NAME, Conns, SimError, Simulation, SqlContext};
use crate::content::LabInvariant;
use crate::sim::fault::Fault;
use crate::sim::lab::guard::Guard;
use crate::sim::lab::hooks::{StatementError, run_statement};
use crate::sim::lab::{
    Breach, LabFileError, LabFileErrorKind, LabSql, Section, SideEffect, SideEffects, Trail,
};
use crate::sim::model::{Actor, Event, EventKind, Outcome, Stage};
use crate::sim::moments::{Fact, Guard as FactGuard};

/// What an event of learner SQL shows in the SQL view: the statements are the learner's own,
/// named with their lines in the lab file by the trail and the check's report.
pub(crate) const LAB_HANDLE_SQL: &[&str] = &["-- @handle (your lab file)"];
/// The same for `@check`.
pub(crate) const LAB_CHECK_SQL: &[&str] = &["-- @check (your lab file)"];

const SQL_NEW_EFFECTS: &str = "SELECT id, business_key, order_id, message_id, instance FROM effects WHERE id > ?1 ORDER BY id";
const SQL_NEW_MARKERS: &str = "SELECT id, message_id, instance, processed_ms IS NOT NULL \
     FROM inbox WHERE id > ?1 ORDER BY id";
const SQL_MAX_EFFECT: &str = "SELECT COALESCE(MAX(id), 0) FROM effects";

/// A lab run's own state beside the engine's.
pub(crate) struct LabRun {
    pub(super) sql: Arc<LabSql>,
    /// One guard per consumer connection (same index).
    guards: Vec<Guard>,
    /// The side-effect functions per consumer connection (same index).
    side_effects: Vec<SideEffects>,
    /// The guard on the API's connection (`@accept`).
    pub(super) api_guard: Guard,
    /// The side-effect functions on the API's connection (`publish`).
    pub(super) api_side_effects: SideEffects,
    /// Message ids `publish` handed to the broker.
    pub(super) published: HashSet<String>,
    /// Request ids whose order is in the picture already.
    pub(super) accepted: HashSet<String>,
    /// Message ids of orders already counted lost.
    pub(super) lost: HashSet<String>,
    /// The highest outbox row id already in the picture.
    pub(super) seen_outbox: i64,
    /// Statements that wrote effects.
    pub trail: Trail,
    /// The lab invariants the handler broke, in time order.
    pub breaches: Vec<Breach>,
    /// The handler gets the messages the consumer cannot read and decides (lab 6); else the
    /// engine dead-letters them itself, as the built-in careful consumer does.
    pub(super) unreadable_to_handler: bool,
    /// The highest effect and inbox row ids already in the picture.
    seen_effect: i64,
    seen_marker: i64,
}

impl LabRun {
    /// Guards the consumers' connections and applies the file's `@schema` to the new run.
    pub(crate) fn start(sql: Arc<LabSql>, conns: &mut Conns) -> Result<LabRun, SimError> {
        let actor = Actor::Consumer(0);
        let guards = conns
            .consumers
            .iter_mut()
            .map(Guard::install)
            .collect::<Result<Vec<_>, _>>()
            .ctx(actor, "install lab guard")?;
        let side_effects = conns
            .consumers
            .iter()
            .map(SideEffects::install)
            .collect::<Result<Vec<_>, _>>()
            .ctx(actor, "install lab functions")?;
        let api_guard = Guard::install(&mut conns.api).ctx(Actor::Api, "install lab guard")?;
        let api_side_effects =
            SideEffects::install(&conns.api).ctx(Actor::Api, "install lab functions")?;
        let schema_guard = Guard::install(&mut conns.sweeper).ctx(actor, "install lab guard")?;
        sql.apply_schema(&conns.sweeper, &schema_guard)?;
        Ok(LabRun {
            sql,
            guards,
            side_effects,
            api_guard,
            api_side_effects,
            published: HashSet::new(),
            accepted: HashSet::new(),
            lost: HashSet::new(),
            seen_outbox: 0,
            trail: Trail::default(),
            breaches: Vec::new(),
            unreadable_to_handler: false,
            seen_effect: 0,
            seen_marker: 0,
        })
    }
}

fn text(s: &str) -> Value {
    Value::Text(s.to_owned())
}

fn int(n: impl TryInto<i64>) -> Value {
    Value::Integer(n.try_into().unwrap_or(i64::MAX))
}

fn is_unique_violation(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.extended_code == SQLITE_CONSTRAINT_UNIQUE)
}

/// Rolls back a transaction the learner left open (after an error or a lost connection).
fn roll_back_open(conn: &Connection) -> rusqlite::Result<()> {
    if conn.is_autocommit() {
        Ok(())
    } else {
        conn.execute_batch("ROLLBACK")
    }
}

impl Simulation {
    /// Whether the lab file takes over the consumer (`@check`, `@handle`); in a lab that opens
    /// only `@accept` the engine's careful consumer runs as in safe mode.
    pub(crate) fn lab_takes_consumer(&self) -> bool {
        self.lab.as_ref().is_some_and(|l| l.sql.takes_consumer())
    }

    /// `@check`: whether the learner's check finds the message (its last statement returns a
    /// row). Without the section nothing is checked and every delivery goes on to `@handle`.
    pub(crate) fn lab_seen(&mut self, c: u8, d: &Delivery) -> Result<bool, SimError> {
        let Some(lab) = &self.lab else {
            return Ok(false);
        };
        let i = usize::from(c);
        let binds = [
            (":message_id", text(&d.message_id)),
            (":consumer", text(CONSUMER_NAME)),
            (":instance", text(&Simulation::instance(c))),
            (":now_ms", int(self.clock.now)),
        ];
        let mut found = false;
        for stmt in lab.sql.statements(Section::Check) {
            match run_statement(&self.conns.consumers[i], &lab.guards[i], stmt, &binds) {
                Ok(row) => found = row,
                Err(StatementError::Learner(e)) => return Err(SimError::Lab(e)),
                Err(StatementError::Runtime(e)) => {
                    return Err(SimError::Lab(LabFileError {
                        line: stmt.line,
                        column: stmt.column,
                        kind: LabFileErrorKind::Sql(e.to_string()),
                    }));
                }
            }
        }
        roll_back_open(&self.conns.consumers[i]).ctx(Actor::Consumer(c), "end @check")?;
        Ok(found)
    }

    /// Puts the effect and inbox rows committed since the last look into the picture, the
    /// metrics and the facts, as the built-in modes do for their own writes.
    fn lab_picture(&mut self, c: u8, created: u64) -> Result<(usize, usize), SimError> {
        let actor = Actor::Consumer(c);
        let (seen_effect, seen_marker) = match &self.lab {
            Some(l) => (l.seen_effect, l.seen_marker),
            None => return Ok((0, 0)),
        };
        let conn = &self.conns.consumers[usize::from(c)];
        let effects: Vec<(i64, EffectRow)> = conn
            .prepare_cached(SQL_NEW_EFFECTS)
            .and_then(|mut st| {
                st.query_map([seen_effect], |r| {
                    Ok((
                        r.get(0)?,
                        EffectRow {
                            business_key: r.get(1)?,
                            order_id: r.get(2)?,
                            message_id: r.get(3)?,
                            kind: "credit",
                            amount_cents: 0,
                            payload_ok: true,
                            instance: r.get(4)?,
                        },
                    ))
                })?
                .collect()
            })
            .ctx(actor, "read the effects the lab file wrote")?;
        let markers: Vec<(i64, String, String, bool)> = conn
            .prepare_cached(SQL_NEW_MARKERS)
            .and_then(|mut st| {
                st.query_map([seen_marker], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?
                .collect()
            })
            .ctx(actor, "read the inbox rows the lab file wrote")?;
        let counts = (effects.len(), markers.len());
        for (id, message_id, instance, processed) in markers {
            self.picture_marker(id, &message_id, &instance, processed);
            if let Some(l) = &mut self.lab {
                l.seen_marker = l.seen_marker.max(id);
            }
        }
        for (id, e) in effects {
            self.picture_effect(&e, id, created);
            if let Some(l) = &mut self.lab {
                l.seen_effect = l.seen_effect.max(id);
            }
        }
        Ok(counts)
    }

    /// `@handle`: the learner's statements for delivery `d`, then settle, duplicate, the
    /// failure path or a lost connection, like the built-in apply. `payload` is the body as
    /// the consumer read it: an unreadable one (an unknown schema version) still reaches the
    /// handler, with `:amount_cents` NULL and `:payload_error` set, and the handler decides.
    pub(crate) fn lab_apply(
        &mut self,
        c: u8,
        d: Delivery,
        payload: &Result<(bool, i64, u64), Failure>,
    ) -> Result<Option<Event>, SimError> {
        let Some(lab) = &self.lab else {
            return Ok(None);
        };
        let calls = lab.side_effects[usize::from(c)].clone();
        calls.open(Section::Handle);
        let result = self.lab_handle(c, d, payload, &calls);
        calls.close();
        result
    }

    #[allow(clippy::too_many_lines)] // one statement loop with each of its exits
    fn lab_handle(
        &mut self,
        c: u8,
        d: Delivery,
        payload: &Result<(bool, i64, u64), Failure>,
        calls: &SideEffects,
    ) -> Result<Option<Event>, SimError> {
        let Some(lab) = &self.lab else {
            return Ok(None);
        };
        let sql = Arc::clone(&lab.sql);
        let actor = Actor::Consumer(c);
        let i = usize::from(c);
        let (amount, created, payload_error) = match payload {
            Ok((_, amount, created)) => (Some(*amount), *created, None),
            Err(f) => (None, self.clock.now, Some(f.text.clone())),
        };
        let business_key = self
            .effect_row(c, &d, "credit", amount.unwrap_or(0), true)
            .business_key;
        let schema_version = d.body.split('|').next().unwrap_or_default().to_owned();
        let binds = [
            (":message_id", text(&d.message_id)),
            (":order_id", int(d.order_id)),
            (":consumer", text(CONSUMER_NAME)),
            (":instance", text(&Simulation::instance(c))),
            (":now_ms", int(self.clock.now)),
            (":business_key", text(&business_key)),
            (":amount_cents", amount.map_or(Value::Null, int)),
            (":delivery_count", int(d.delivery_count)),
            (":schema_version", text(&schema_version)),
            (
                ":payload_error",
                payload_error.as_deref().map_or(Value::Null, text),
            ),
        ];
        let max_effect = |conn: &Connection| -> Result<i64, SimError> {
            conn.query_row(SQL_MAX_EFFECT, [], |r| r.get(0))
                .ctx(actor, "count effects")
        };
        let mut before = max_effect(&self.conns.consumers[i])?;
        let mut wrote_effect = false;
        for stmt in sql.statements(Section::Handle) {
            let guard = match &self.lab {
                Some(l) => l.guards[i].clone(),
                None => return Ok(None),
            };
            let result = run_statement(&self.conns.consumers[i], &guard, stmt, &binds);
            let here = self.trail_entry(c, &d, stmt);
            // What the statement asked of the world outside happened, whatever it did next.
            for call in calls.take() {
                match call {
                    SideEffect::Charge { key, amount } => {
                        if self.lab_charge(&d, key.as_deref(), amount, here.clone())? {
                            roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                            self.lab_picture(c, created)?;
                            let text = "provider timed out after performing the charge";
                            let mut ev = self.fail(c, d, text.to_string(), LAB_HANDLE_SQL);
                            ev.outcome = Outcome::Unknown;
                            return Ok(Some(ev));
                        }
                    }
                    // Refused outside @accept: the function never records it here.
                    SideEffect::Publish { .. } => {}
                    SideEffect::DeadLetter { reason } => {
                        roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                        self.lab_picture(c, created)?;
                        let failure = payload.as_ref().err();
                        return Ok(Some(self.lab_dead_letter(c, d, reason, failure, here)));
                    }
                }
            }
            match result {
                Ok(_) => {}
                Err(StatementError::Learner(e)) => {
                    roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                    return Err(SimError::Lab(e));
                }
                Err(StatementError::Runtime(e)) => {
                    roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                    self.lab_picture(c, created)?;
                    if is_unique_violation(&e) {
                        self.ledger.metrics.prevented_duplicates += 1;
                        self.note(Fact::Prevented {
                            message_id: d.message_id.clone(),
                            guard: FactGuard::UniqueIndex,
                        });
                        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
                        return Ok(Some(
                            Event::new(actor, Stage::Consumer, EventKind::DuplicatePrevented)
                                .message(&d.message_id)
                                .sql(LAB_HANDLE_SQL)
                                .args(vec![e.to_string()]),
                        ));
                    }
                    if payload_error.is_some() {
                        // No retry can read an unknown schema version: this error is permanent
                        // and the retry path only spends the delivery limit on it.
                        self.breach(LabInvariant::PoisonRetried, &d, here);
                    }
                    let text = format!("line {}: {e}", stmt.line);
                    return Ok(Some(self.fail(c, d, text, LAB_HANDLE_SQL)));
                }
            }
            let now_max = max_effect(&self.conns.consumers[i])?;
            if now_max > before {
                before = now_max;
                wrote_effect = true;
                if let Some(l) = &mut self.lab {
                    l.trail.entries.push(here);
                }
            }
            // The connection drops once an effect is durable (its transaction committed), as
            // in the built-in modes: what is committed stays, the message comes back.
            if wrote_effect
                && self.conns.consumers[i].is_autocommit()
                && self
                    .script
                    .armed
                    .take_for(Fault::ConsumerLostConnectionAfterEffect, d.order_id)
            {
                let (_, markers) = self.lab_picture(c, created)?;
                let kind = if markers > 0 {
                    EventKind::AppliedThenConnectionLost
                } else {
                    EventKind::NaiveEffectThenConnectionLost
                };
                return Ok(Some(self.lose_connection(c, &d, kind, LAB_HANDLE_SQL)));
            }
        }
        if !self.conns.consumers[i].is_autocommit() {
            roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
            return Err(SimError::Lab(LabFileError {
                line: sql.section_line(Section::Handle),
                column: 1,
                kind: LabFileErrorKind::OpenTransaction,
            }));
        }
        let (effects, _) = self.lab_picture(c, created)?;
        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
        if effects == 0 {
            // The handler decided the message needs no effect (it found it already done).
            return Ok(Some(
                Event::new(actor, Stage::Consumer, EventKind::CheckFound)
                    .message(&d.message_id)
                    .sql(LAB_HANDLE_SQL),
            ));
        }
        let (kind, args) = self.applied(d.order_id, EventKind::Applied, business_key);
        Ok(Some(
            Event::new(actor, Stage::Effect, kind)
                .message(&d.message_id)
                .sql(LAB_HANDLE_SQL)
                .args(args)
                .outcome(Outcome::Ok),
        ))
    }
}

//! `@handle`, statement by statement: each statement's side effects (a charge, a dead-letter
//! call) happen first, then its result decides: a UNIQUE violation settles as a duplicate (in a
//! lab with two-phase claims only once the ledger holds the message's effect; a claim still in
//! progress is released for later), any other SQLite error takes the failure path, a file that
//! cannot run stops the run, and a lost connection after a durable effect leaves the message to
//! come back. A charge while a transaction is open is refused.
//!
//! This file sets the section up and settles the delivery once every statement ran;
//! [`statement`] runs each statement and decides what follows.

mod statement;

use std::ops::ControlFlow;
use std::sync::Arc;

use rusqlite::Connection;
use rusqlite::types::Value;

use super::super::action::{Action, Delivery};
use super::super::inbox::SQLITE_CONSTRAINT_UNIQUE;
use super::super::payload::Failure;
use super::super::{CONSUMER_NAME, SimError, Simulation, SqlContext};
use super::{LAB_HANDLE_SQL, int, roll_back_open, text};
use crate::lab::{LabFileError, LabFileErrorKind, Section, SideEffects, TrailEntry};
use crate::model::{Actor, Event, EventKind, Outcome, Stage};

/// The newest entry of the engine's ledger: a statement that moved it wrote an effect.
pub(super) const SQL_MAX_EFFECT: &str = "SELECT COALESCE(MAX(id), 0) FROM effect_ledger";

fn is_unique_violation(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.extended_code == SQLITE_CONSTRAINT_UNIQUE)
}

fn max_effect(conn: &Connection, actor: Actor) -> Result<i64, SimError> {
    conn.prepare_cached(SQL_MAX_EFFECT)
        .and_then(|mut st| st.query_row([], |r| r.get(0)))
        .ctx(actor, "count effects")
}

/// `@handle` under way for one delivery: what its statements run with, and what they have
/// done so far.
struct HandleRun<'a> {
    /// The consumer.
    c: u8,
    d: Delivery,
    payload: &'a Result<(bool, i64, u64), Failure>,
    calls: &'a SideEffects,
    /// The amount the message names (`None`: the consumer could not read it).
    amount: Option<i64>,
    /// When the order was created, for the picture of what the handler writes.
    created: u64,
    /// Why the consumer could not read the message, if it could not.
    payload_error: Option<String>,
    business_key: String,
    binds: [(&'static str, Value); 11],
    /// The newest ledger entry so far: a statement that moves it wrote an effect.
    newest_effect: i64,
    /// A statement wrote an effect.
    wrote_effect: bool,
    /// The last statement that ran.
    last: Option<TrailEntry>,
}

impl Simulation {
    pub(super) fn lab_handle(
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
        let i = usize::from(c);
        let mut run = self.lab_handle_run(c, d, payload, calls)?;
        let statements = sql.statements(Section::Handle);
        for index in 0..statements.len() {
            let guard = match &self.lab {
                Some(l) => l.guards[i].clone(),
                None => return Ok(None),
            };
            if let ControlFlow::Break(event) =
                self.lab_handle_statement(&mut run, &guard, index, statements)?
            {
                return Ok(Some(event));
            }
        }
        if !self.conns.consumers[i].is_autocommit() {
            roll_back_open(&self.conns.consumers[i]).ctx(Actor::Consumer(c), "roll back")?;
            return Err(SimError::Lab(LabFileError {
                line: sql.section_line(Section::Handle),
                column: 1,
                kind: LabFileErrorKind::OpenTransaction,
            }));
        }
        self.lab_handle_settled(run).map(Some)
    }

    /// `@handle` about to run for delivery `d`: the parameters from the message as the
    /// consumer read it, and the ledger as it stands.
    fn lab_handle_run<'a>(
        &mut self,
        c: u8,
        d: Delivery,
        payload: &'a Result<(bool, i64, u64), Failure>,
        calls: &'a SideEffects,
    ) -> Result<HandleRun<'a>, SimError> {
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
            (":claim_lease_ms", int(self.claim_lease_ms())),
            (":schema_version", text(&schema_version)),
            (
                ":payload_error",
                payload_error.as_deref().map_or(Value::Null, text),
            ),
        ];
        let newest_effect = max_effect(&self.conns.consumers[usize::from(c)], Actor::Consumer(c))?;
        Ok(HandleRun {
            c,
            d,
            payload,
            calls,
            amount,
            created,
            payload_error,
            business_key,
            binds,
            newest_effect,
            wrote_effect: false,
            last: None,
        })
    }

    /// Every statement ran and the transaction is closed: the delivery settles, as applied or,
    /// when the handler wrote no effect, as found done already.
    fn lab_handle_settled(&mut self, run: HandleRun<'_>) -> Result<Event, SimError> {
        let (c, d) = (run.c, run.d);
        let actor = Actor::Consumer(c);
        let (effects, _) = self.lab_picture(c, run.created)?;
        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
        if effects == 0 {
            // The handler decided the message needs no effect (it found it already done). When
            // it never had one, the order is lost, and the report names where the handler
            // settled it: the section's last statement.
            if let (Some(at), Some(l)) = (run.last, &mut self.lab)
                && l.trail.for_message(&d.message_id).next().is_none()
            {
                l.trail.entries.push(at);
            }
            return Ok(Event::new(actor, Stage::Consumer, EventKind::CheckFound)
                .message(&d.message_id)
                .sql(LAB_HANDLE_SQL));
        }
        let (kind, args) = self.applied(d.order_id, EventKind::Applied, run.business_key);
        Ok(Event::new(actor, Stage::Effect, kind)
            .message(&d.message_id)
            .sql(LAB_HANDLE_SQL)
            .args(args)
            .outcome(Outcome::Ok))
    }
}

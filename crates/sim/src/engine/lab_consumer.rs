//! The consumer's hook points in a lab run: the learner's `@check` instead of the built-in
//! existence check, and `@handle` instead of the built-in inbox + effect SQL. What the
//! learner's statements wrote is read back from the file and put into the picture, the metrics
//! and the facts exactly as the built-in modes do, so moments and checkers judge a lab run like
//! any run. A UNIQUE violation settles as a duplicate; any other SQLite error takes the broker
//! profile's failure path; a file that cannot run stops the run with [`SimError::Lab`].
//!
//! This file holds the lab run's state and `@check`; `@handle`'s statement loop and the
//! read-back of what it wrote have files of their own below.

mod compete;
mod handle;
mod picture;
mod release;

pub(crate) use release::{LAB_WAIT_CLAIM_SQL, LAB_WAIT_PROVIDER_SQL};

use std::collections::HashSet;
use std::sync::Arc;

use rusqlite::Connection;
use rusqlite::types::Value;

use super::action::Delivery;
use super::payload::Failure;
use super::{CONSUMER_NAME, Conns, SimError, Simulation, SqlContext};
use crate::lab::guard::Guard;
use crate::lab::hooks::{StatementError, run_statement};
use crate::lab::ledger;
use crate::lab::probe::ProbeState;
use crate::lab::{
    Breach, LabFileError, LabFileErrorKind, LabSql, Section, SideEffects, Trail, TrailEntry,
};
use crate::model::{Actor, Event};

/// What an event of learner SQL shows in the SQL view: the statements are the learner's own,
/// named with their lines in the lab file by the trail and the check's report.
pub(crate) const LAB_HANDLE_SQL: &[&str] = &["-- @handle (your lab file)"];
/// The same for `@check`.
pub(crate) const LAB_CHECK_SQL: &[&str] = &["-- @check (your lab file)"];

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
    /// Request ids whose `publish` handed a message to the broker (any attempt's).
    pub(super) published: HashSet<String>,
    /// Request ids whose order is in the picture already.
    pub(super) accepted: HashSet<String>,
    /// Request ids of orders already counted lost.
    pub(super) lost: HashSet<String>,
    /// Client retries so far: each carries a message id of its own.
    pub(super) retries: u32,
    /// The highest outbox row id already in the picture.
    pub(super) seen_outbox: i64,
    /// Statements that wrote effects.
    pub trail: Trail,
    /// The lab invariants the handler broke, in time order.
    pub breaches: Vec<Breach>,
    /// The handler gets the messages the consumer cannot read and decides (lab 6); else the
    /// engine dead-letters them itself, as the built-in careful consumer does.
    pub(super) unreadable_to_handler: bool,
    /// The file's `@accept` writes the messages of a scenario whose order matters: each
    /// message's session / message group is the one its outbox row names, and the queue is
    /// the kind the first send calls for ([`Simulation::lab_queue_for_send`]).
    pub(super) groups_from_file: bool,
    /// The first send has decided the queue's kind.
    pub(super) queue_decided: bool,
    /// One guard per dispatcher connection (same index): `@claim` and `@published`.
    pub(super) dispatch_guards: Vec<Guard>,
    /// When each dispatcher's current batch was claimed (same index).
    pub(super) claimed_at: Vec<u64>,
    /// Rows a dispatcher claimed while another live dispatcher's claim on them was still
    /// valid, with the claim statement: `two-dispatchers-one-row` once the second one publishes them.
    pub(super) contested: Vec<(u8, i64, TrailEntry)>,
    /// How often `@claim` returned each outbox row.
    pub(super) claims_per_row: std::collections::HashMap<i64, u32>,
    /// The highest effect and inbox row ids already in the picture.
    seen_effect: i64,
    seen_marker: i64,
    /// What this run does at the learner's statement boundaries, and what it reached.
    pub(crate) probe: ProbeState,
    /// The guard on the spare connection a competitor runs on (a twin consumer, the client's
    /// concurrent retry, a second dispatcher's claim): its own connection, so `changes()` and
    /// `last_insert_rowid()` of the actor it interrupts stay the actor's.
    pub(super) spare_guard: Guard,
    /// The side-effect functions on the spare connection.
    pub(super) spare_side_effects: SideEffects,
    /// Set where a UNIQUE violation is a duplicate only once the ledger holds the message's
    /// effect, and before that met a claim in progress
    /// ([`Simulation::lab_tell_claims_from_duplicates`]): the messages that waited on one.
    released: Option<release::Released>,
    /// Idempotency keys the provider is still running a call for, until when.
    pub(super) provider_busy: std::collections::HashMap<String, u64>,
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
        let dispatch_guards = conns
            .dispatchers
            .iter_mut()
            .map(Guard::install)
            .collect::<Result<Vec<_>, _>>()
            .ctx(Actor::Dispatcher(0), "install lab guard")?;
        let claimed_at = vec![0; dispatch_guards.len()];
        // Every guard first: setting a connection's limits moves its temporary store into
        // memory, which drops the temporary tables it held.
        let spare_guard = Guard::install(&mut conns.sweeper).ctx(actor, "install lab guard")?;
        // The engine's record of effects, on every connection learner SQL runs on.
        let learner_conns = (conns.consumers.iter())
            .chain(&conns.dispatchers)
            .chain([&conns.api, &conns.sweeper]);
        for conn in learner_conns {
            ledger::install(conn).ctx(actor, "install the effect ledger")?;
        }
        let spare_side_effects =
            SideEffects::install(&conns.sweeper).ctx(actor, "install lab functions")?;
        sql.apply_schema(&conns.sweeper, &spare_guard)?;
        Ok(LabRun {
            sql,
            guards,
            side_effects,
            api_guard,
            api_side_effects,
            published: HashSet::new(),
            accepted: HashSet::new(),
            lost: HashSet::new(),
            retries: 0,
            seen_outbox: 0,
            trail: Trail::default(),
            breaches: Vec::new(),
            unreadable_to_handler: false,
            seen_effect: 0,
            seen_marker: 0,
            groups_from_file: false,
            queue_decided: false,
            dispatch_guards,
            claimed_at,
            contested: Vec::new(),
            claims_per_row: std::collections::HashMap::new(),
            probe: ProbeState::default(),
            spare_guard,
            spare_side_effects,
            released: None,
            provider_busy: std::collections::HashMap::new(),
        })
    }
}

fn text(s: &str) -> Value {
    Value::Text(s.to_owned())
}

fn int(n: impl TryInto<i64>) -> Value {
    Value::Integer(n.try_into().unwrap_or(i64::MAX))
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
            (":claim_lease_ms", int(self.claim_lease_ms())),
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

    /// Where the handler decides about unreadable messages (lab 6), healthy ones fail too, for a
    /// while: in every run about a third of them (which ones depends on the seed) fail
    /// transiently on their first delivery, before the handler runs, and come back with a
    /// higher delivery count. A handler that takes a redelivery for poison dead-letters them.
    fn fails_transiently(&self, d: &Delivery, payload: &Result<(bool, i64, u64), Failure>) -> bool {
        payload.is_ok()
            && d.delivery_count == 1
            && u64::try_from(d.order_id).is_ok_and(|o| o % 3 == self.spec.seed % 3)
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
        if lab.unreadable_to_handler && self.fails_transiently(&d, payload) {
            let text =
                "a transient error before the handler ran: the database was briefly unreachable";
            return Ok(Some(self.fail(c, d, text.to_owned(), LAB_HANDLE_SQL)));
        }
        let calls = lab.side_effects[usize::from(c)].clone();
        let conn = &self.conns.consumers[usize::from(c)];
        let amount = payload.as_ref().ok().map(|p| p.1);
        ledger::set_delivery(conn, &d.message_id, amount).ctx(Actor::Consumer(c), "delivery")?;
        calls.open(Section::Handle);
        let result = self.lab_handle(c, d, payload, &calls);
        calls.close();
        let conn = &self.conns.consumers[usize::from(c)];
        ledger::clear_delivery(conn).ctx(Actor::Consumer(c), "delivery")?;
        result
    }
}

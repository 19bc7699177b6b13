//! The three ways a consumer applies a message: safe (marker + effect in one transaction),
//! naive (effect, then marker, no transaction) and the ExecuteUpdate trap (effect committed on
//! its own, marker in a transaction).

use super::action::{Action, Delivery};
use super::inbox::{self, Applied, EffectRow, Violation};
use super::{CONSUMER_NAME, SimError, Simulation, SqlContext};
use crate::fault::Fault;
use crate::model::{Actor, Event, EventKind, Outcome, Stage};
use crate::moments::{Fact, Guard};

const SAFE_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    inbox::SQL_INBOX_INSERT,
    inbox::SQL_EFFECT_INSERT,
    inbox::SQL_RECEIPT_INSERT,
    "COMMIT",
];
const SAFE_DUP_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    inbox::SQL_INBOX_INSERT,
    "ROLLBACK",
    inbox::SQL_RECEIPT_INSERT,
];
const NAIVE_SQL: &[&str] = &[inbox::SQL_EFFECT_INSERT, inbox::SQL_INBOX_INSERT];
const NAIVE_CRASH_SQL: &[&str] = &[inbox::SQL_EFFECT_INSERT];
/// A consumer without an inbox writes the effect and nothing else.
const NO_INBOX_SQL: &[&str] = &[inbox::SQL_EFFECT_INSERT];
const TRAP_SQL: &[&str] = &[
    inbox::SQL_EFFECT_INSERT,
    "BEGIN IMMEDIATE",
    inbox::SQL_INBOX_INSERT,
    "COMMIT",
];
const TRAP_DUP_SQL: &[&str] = &[
    inbox::SQL_EFFECT_INSERT,
    "BEGIN IMMEDIATE",
    inbox::SQL_INBOX_INSERT,
    "ROLLBACK",
];

impl Simulation {
    /// The event of an applied effect: `kind` with the business key, or
    /// [`EventKind::AppliedOutOfOrder`] when the customer's previous order has no effect yet.
    pub(crate) fn applied(
        &self,
        order_id: i64,
        kind: EventKind,
        business_key: String,
    ) -> (EventKind, Vec<String>) {
        let groups = self.spec.scenario.setup.groups;
        let previous = u32::try_from(order_id)
            .ok()
            .and_then(|order| super::api::previous_order_of(order, groups));
        let still_open = previous.filter(|p| self.ledger.has_no_effect(*p));
        if let Some(previous) = still_open {
            let customer = super::api::customer_of(order_id as u32, groups);
            (
                EventKind::AppliedOutOfOrder,
                vec![order_id.to_string(), customer, previous.to_string()],
            )
        } else {
            (kind, vec![business_key])
        }
    }

    fn lost_connection_armed(&mut self, order: i64) -> bool {
        self.script
            .armed
            .take_for(Fault::ConsumerLostConnectionAfterEffect, order)
    }

    /// Naive: effect, then marker - two autocommit writes, no unique index behind them.
    pub(crate) fn apply_naive(
        &mut self,
        c: u8,
        d: &Delivery,
        e: EffectRow,
        created: u64,
    ) -> Result<Option<Event>, SimError> {
        let actor = Actor::Consumer(c);
        let conn_i = usize::from(c);
        let msg = d.message_id.clone();
        let conn = &self.conns.consumers[conn_i];
        let effect_id =
            inbox::insert_effect(conn, &e, self.clock.now).ctx(actor, "naive effect")?;
        self.picture_effect(&e, effect_id, created);
        if self.lost_connection_armed(d.order_id) {
            return Ok(Some(self.lose_connection(
                c,
                d,
                EventKind::NaiveEffectThenConnectionLost,
                NAIVE_CRASH_SQL,
            )));
        }
        let conn = &self.conns.consumers[conn_i];
        let id = inbox::insert_marker(
            conn,
            &msg,
            CONSUMER_NAME,
            &e.instance,
            self.clock.now,
            Some(self.clock.now),
        )
        .ctx(actor, "naive marker")?;
        self.picture_marker(id, &msg, &e.instance, true);
        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
        let (kind, args) = self.applied(d.order_id, EventKind::AppliedNaive, e.business_key);
        Ok(Some(
            Event::new(actor, Stage::Effect, kind)
                .message(&msg)
                .sql(NAIVE_SQL)
                .args(args),
        ))
    }

    /// Pitfall: a consumer without an inbox commits the effect and settles; nothing records
    /// that the message is done, so a redelivery runs the handler again.
    pub(crate) fn apply_without_inbox(
        &mut self,
        c: u8,
        d: &Delivery,
        e: EffectRow,
        created: u64,
    ) -> Result<Option<Event>, SimError> {
        let actor = Actor::Consumer(c);
        let conn = &self.conns.consumers[usize::from(c)];
        let effect_id =
            inbox::insert_effect(conn, &e, self.clock.now).ctx(actor, "effect without inbox")?;
        self.picture_effect(&e, effect_id, created);
        if self.lost_connection_armed(d.order_id) {
            return Ok(Some(self.lose_connection(
                c,
                d,
                EventKind::NoInboxEffectThenConnectionLost,
                NO_INBOX_SQL,
            )));
        }
        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
        let (kind, args) = self.applied(d.order_id, EventKind::AppliedNoInbox, e.business_key);
        Ok(Some(
            Event::new(actor, Stage::Effect, kind)
                .message(&d.message_id)
                .sql(NO_INBOX_SQL)
                .args(args),
        ))
    }

    /// Pitfall: the effect commits by itself (like `ExecuteUpdate`), the marker in its own transaction.
    pub(crate) fn apply_trap(
        &mut self,
        c: u8,
        d: &Delivery,
        e: EffectRow,
        created: u64,
    ) -> Result<Option<Event>, SimError> {
        let actor = Actor::Consumer(c);
        let conn_i = usize::from(c);
        let msg = d.message_id.clone();
        let conn = &self.conns.consumers[conn_i];
        let effect_id = inbox::insert_effect(conn, &e, self.clock.now)
            .ctx(actor, "effect outside the transaction")?;
        self.picture_effect(&e, effect_id, created);
        if self.lost_connection_armed(d.order_id) {
            return Ok(Some(self.lose_connection(
                c,
                d,
                EventKind::TrapEffectThenConnectionLost,
                NAIVE_CRASH_SQL,
            )));
        }
        let conn = &self.conns.consumers[conn_i];
        let tx = super::begin_immediate(conn).ctx(actor, "begin marker transaction")?;
        let marker = match inbox::insert_marker(
            &tx,
            &msg,
            CONSUMER_NAME,
            &e.instance,
            self.clock.now,
            Some(self.clock.now),
        ) {
            Ok(id) => {
                tx.commit().ctx(actor, "commit marker")?;
                Some(id)
            }
            Err(err) if inbox::classify(&err) == Violation::InboxDuplicate => {
                tx.rollback().ctx(actor, "rollback marker")?;
                None
            }
            Err(err) => return Err(err).ctx(actor, "insert marker"),
        };
        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
        if let Some(id) = marker {
            self.picture_marker(id, &msg, &e.instance, true);
            Ok(Some(
                Event::new(actor, Stage::Effect, EventKind::TrapApplied)
                    .message(&msg)
                    .sql(TRAP_SQL)
                    .args(vec![e.business_key]),
            ))
        } else {
            // Only the marker was refused: the duplicate effect is already committed, so no
            // duplicate was prevented and the metric does not count it.
            self.note(Fact::Prevented {
                message_id: msg.clone(),
                guard: Guard::MarkerOnly,
            });
            Ok(Some(
                Event::new(actor, Stage::Effect, EventKind::TrapDuplicateEffectStays)
                    .message(&msg)
                    .sql(TRAP_DUP_SQL)
                    .outcome(Outcome::Failed)
                    .args(vec![e.business_key]),
            ))
        }
    }

    /// Safe: marker + effect + receipt in one `BEGIN IMMEDIATE` transaction.
    pub(crate) fn apply_in_one_transaction(
        &mut self,
        c: u8,
        d: Delivery,
        e: EffectRow,
        created: u64,
    ) -> Event {
        let actor = Actor::Consumer(c);
        let conn_i = usize::from(c);
        let msg = d.message_id.clone();
        let conn = &self.conns.consumers[conn_i];
        match inbox::apply_safe(conn, CONSUMER_NAME, &e, self.clock.now) {
            Ok(Applied::Done(inbox_id, effect_id)) => {
                self.picture_marker(inbox_id, &msg, &e.instance, true);
                self.picture_effect(&e, effect_id, created);
                if self.lost_connection_armed(d.order_id) {
                    return self.lose_connection(
                        c,
                        &d,
                        EventKind::AppliedThenConnectionLost,
                        SAFE_SQL,
                    );
                }
                self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
                let (kind, args) = self.applied(d.order_id, EventKind::Applied, e.business_key);
                Event::new(actor, Stage::Effect, kind)
                    .message(&msg)
                    .sql(SAFE_SQL)
                    .args(args)
            }
            Ok(Applied::Duplicate) => {
                self.ledger.duplicate_prevented();
                self.note(Fact::Prevented {
                    message_id: msg.clone(),
                    guard: Guard::UniqueIndex,
                });
                self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
                Event::new(actor, Stage::Consumer, EventKind::DuplicatePrevented)
                    .message(&msg)
                    .sql(SAFE_DUP_SQL)
                    .args(vec![inbox::INBOX_UNIQUE_COLUMNS.into()])
            }
            Err(err) => {
                let text = match inbox::classify(&err) {
                    Violation::OtherUnique(t) => {
                        format!("real error, not a duplicate: {t}")
                    }
                    Violation::InboxDuplicate | Violation::Other(_) => err.to_string(),
                };
                self.fail(c, d, text, SAFE_SQL)
            }
        }
    }
}

//! Two-phase claim for an effect outside the database: claim in the inbox, call the provider
//! with an idempotency key, then record the effect and mark the claim processed.

use super::action::{Action, Delivery};
use rusqlite::OptionalExtension;

use super::inbox::{self, Violation};
use super::{CONSUMER_NAME, SimError, Simulation, SqlContext};
use crate::fault::Fault;
use crate::model::{Actor, Event, EventKind, Mode, Outcome, Pitfall, Stage};
use crate::moments::{Fact, Guard};
use crate::state::rows::InboxColumn;
use crate::state::{RowChange, Table};

const CLAIM_SQL: &[&str] = &["BEGIN IMMEDIATE", inbox::SQL_INBOX_INSERT, "COMMIT"];
const CLAIM_DUP_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    inbox::SQL_INBOX_INSERT,
    "ROLLBACK",
    inbox::SQL_INBOX_PROCESSED,
];
/// The claim found a processed marker: a duplicate, and the consumer's receipt of it.
const CLAIM_DONE_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    inbox::SQL_INBOX_INSERT,
    "ROLLBACK",
    inbox::SQL_INBOX_PROCESSED,
    inbox::SQL_RECEIPT_INSERT,
];
/// A keyed call the provider answers with its first charge (the insert found the key).
const PROVIDER_SQL: &[&str] = &[inbox::SQL_CHARGE_KEYED, inbox::SQL_CHARGE_FIND];
/// A call that charged.
const CHARGE_SQL: &[&str] = &[inbox::SQL_CHARGE_KEYED];
/// The consumer gives its claim back after the provider's timeout.
const RELEASE_SQL: &[&str] = &[inbox::SQL_CLAIM_RELEASE];
const FINISH_SAFE_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    inbox::SQL_CLAIM_DONE,
    inbox::SQL_EFFECT_INSERT,
    "COMMIT",
];
const CLAIM_LOST_SQL: &[&str] = &["BEGIN IMMEDIATE", inbox::SQL_CLAIM_DONE, "ROLLBACK"];
const NAIVE_SQL: &[&str] = &[inbox::SQL_EFFECT_INSERT, inbox::SQL_INBOX_INSERT];

impl Simulation {
    /// Two-phase claim, phase 1: claim the message in the inbox (`processed_ms` NULL).
    pub(crate) fn two_phase_claim(&mut self, c: u8, d: Delivery) -> Result<Event, SimError> {
        let actor = Actor::Consumer(c);
        let instance = Simulation::instance(c);
        let conn = &self.conns.consumers[usize::from(c)];
        let tx = super::begin_immediate(conn).ctx(actor, "begin claim")?;
        match inbox::insert_marker(
            &tx,
            &d.message_id,
            CONSUMER_NAME,
            &instance,
            self.clock.now,
            None,
        ) {
            Ok(id) => {
                tx.commit().ctx(actor, "commit claim")?;
                self.picture_marker(id, &d.message_id, &instance, false);
                self.schedule(
                    self.clock.now + d.handling_ms / 2,
                    Action::ConsumerProvider(c),
                );
                Ok(Event::new(actor, Stage::Consumer, EventKind::Claimed)
                    .message(&d.message_id)
                    .sql(CLAIM_SQL))
            }
            Err(err) if inbox::classify(&err) == Violation::InboxDuplicate => {
                tx.rollback().ctx(actor, "rollback claim")?;
                let done = inbox::marker_state(conn, &d.message_id, CONSUMER_NAME)
                    .ctx(actor, "read claim")?;
                if done == Some(true) {
                    inbox::record_duplicate(conn, &d.message_id, &instance, self.clock.now)
                        .ctx(actor, "receipt")?;
                    self.ledger.duplicate_prevented();
                    self.note(Fact::Prevented {
                        message_id: d.message_id.clone(),
                        guard: Guard::UniqueIndex,
                    });
                    self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
                    return Ok(
                        Event::new(actor, Stage::Consumer, EventKind::DuplicatePrevented)
                            .message(&d.message_id)
                            .sql(CLAIM_DONE_SQL)
                            .args(vec![inbox::INBOX_UNIQUE_COLUMNS.into()]),
                    );
                }
                Ok(self.fail(
                    c,
                    d,
                    crate::engine_words::english(crate::engine_words::CLAIMED_ELSEWHERE, &[]),
                    CLAIM_DUP_SQL,
                ))
            }
            Err(err) => Err(err).ctx(actor, "insert claim"),
        }
    }

    /// The payment provider charges `amount` for `d`'s order, idempotent by `key` (a NULL key
    /// charges every time), and the ledger and the story learn of it: a new charge, or a key
    /// the provider knew (a duplicate prevented). Answers the charge's id and whether it is new.
    /// The built-in two-phase consumer and a lab's `charge()` share it.
    pub(crate) fn provider_charge(
        &mut self,
        d: &Delivery,
        key: Option<&str>,
        amount: i64,
    ) -> Result<(i64, bool), SimError> {
        let (id, new) = inbox::charge(
            &self.conns.provider,
            key,
            d.order_id,
            amount,
            self.clock.now,
        )
        .ctx(Actor::Provider, "charge")?;
        if new {
            self.note(Fact::Charged {
                order: d.order_id,
                message_id: d.message_id.clone(),
            });
        } else {
            self.ledger.duplicate_prevented();
            self.note(Fact::Prevented {
                message_id: d.message_id.clone(),
                guard: Guard::IdempotencyKey,
            });
        }
        Ok((id, new))
    }

    /// Phase 2: the provider call (with the message id as idempotency key unless naive/trap).
    pub(crate) fn consumer_provider(&mut self, c: u8) -> Result<Option<Event>, SimError> {
        let Some(mut d) = self.delivery(c) else {
            return Ok(None);
        };
        let (_, amount, _) = match self.read_payload(&d.body) {
            Ok(p) => p,
            Err(e) => return Ok(Some(self.fail(c, d, e, &[]))),
        };
        let keyed = self.spec.mode == Mode::Safe
            || (self.spec.mode == Mode::Pitfall
                && self.spec.settings.pitfall != Some(Pitfall::EffectOutsideTx));
        let key = keyed.then_some(d.message_id.as_str());
        let (id, new) = self.provider_charge(&d, key, amount)?;
        let caption = match (new, keyed) {
            (true, true) => EventKind::ProviderChargedKeyed,
            (true, false) => EventKind::ProviderChargedUnkeyed,
            (false, _) => EventKind::ProviderReplayed,
        };
        let sql = if new { CHARGE_SQL } else { PROVIDER_SQL };
        let charged = Event::new(Actor::Provider, Stage::Effect, caption)
            .message(&d.message_id)
            .sql(sql)
            .args(vec![id.to_string()]);
        // The charge is the provider's own event whether or not its answer reaches the
        // consumer: a timeout after the charge is the consumer's next event.
        let timed_out = self
            .script
            .armed
            .take_for(Fault::ProviderTimeoutAfterPerform, d.order_id);
        let (wait, next) = if timed_out {
            (1, Action::ConsumerProviderTimedOut(c))
        } else {
            d.charge_id = Some(id);
            (d.handling_ms / 2, Action::ConsumerFinish(c))
        };
        self.put_delivery(c, d);
        self.schedule(self.clock.now + wait, next);
        Ok(Some(charged))
    }

    /// The provider's answer never came: release the claim (unless naive) and fail; the
    /// charge already happened (the provider's previous event).
    pub(crate) fn consumer_provider_timed_out(&mut self, c: u8) -> Option<Event> {
        let d = self.delivery(c)?;
        let mut sql: &'static [&'static str] = &[];
        if self.spec.mode != Mode::Naive {
            sql = RELEASE_SQL;
            let conn = &self.conns.consumers[usize::from(c)];
            let released: Option<i64> = conn
                .prepare_cached(inbox::SQL_CLAIM_RELEASE)
                .and_then(|mut s| {
                    s.query_row(
                        rusqlite::params![d.message_id, CONSUMER_NAME, Simulation::instance(c)],
                        |r| r.get(0),
                    )
                })
                .ok();
            if let Some(rid) = released {
                self.change(RowChange::Delete(Table::Inbox, rid));
                self.ledger.inbox_markers_removed(1);
            }
        }
        let mut ev = self.fail(
            c,
            d,
            crate::engine_words::english(crate::engine_words::PROVIDER_TIMED_OUT, &[]),
            sql,
        );
        ev.outcome = Outcome::Unknown;
        Some(ev)
    }

    /// Phase 3: record the effect and mark the claim processed (one transaction unless naive).
    pub(crate) fn consumer_finish(&mut self, c: u8) -> Result<Option<Event>, SimError> {
        let Some(d) = self.delivery(c) else {
            return Ok(None);
        };
        let actor = Actor::Consumer(c);
        let (payload_ok, amount, created) =
            self.read_payload(&d.body)
                .unwrap_or((true, 0, self.clock.now));
        let e = self.effect_row(c, &d, "charge", amount, payload_ok);
        let conn = &self.conns.consumers[usize::from(c)];
        let (effect_id, marker) = if self.spec.mode == Mode::Naive {
            let eid = inbox::insert_effect(conn, &e, self.clock.now).ctx(actor, "naive effect")?;
            let mid = inbox::insert_marker(
                conn,
                &d.message_id,
                CONSUMER_NAME,
                &e.instance,
                self.clock.now,
                Some(self.clock.now),
            )
            .ctx(actor, "naive marker")?;
            (eid, Some(mid))
        } else {
            let Some(eid) = self.finish_claimed(c, &d, &e)? else {
                return Ok(Some(self.fail(
                    c,
                    d,
                    crate::engine_words::english(crate::engine_words::CLAIM_EXPIRED, &[]),
                    CLAIM_LOST_SQL,
                )));
            };
            (eid, None)
        };
        if let Some(id) = marker {
            self.picture_marker(id, &d.message_id, &e.instance, true);
        }
        self.picture_effect(&e, effect_id, created);
        if self
            .script
            .armed
            .take_for(Fault::ConsumerLostConnectionAfterEffect, d.order_id)
        {
            return Ok(Some(self.lose_connection(
                c,
                &d,
                EventKind::AppliedThenConnectionLost,
                FINISH_SAFE_SQL,
            )));
        }
        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
        // Naive mode made no claim (it checked, then called the provider), so there is no
        // phase 3 to name: it wrote the effect and then the marker, two separate writes.
        let (kind, sql, args) = if self.spec.mode == Mode::Naive {
            (EventKind::AppliedNaive, NAIVE_SQL, vec![e.business_key])
        } else {
            (
                EventKind::TwoPhaseFinished,
                FINISH_SAFE_SQL,
                vec![d.charge_id.unwrap_or(0).to_string()],
            )
        };
        Ok(Some(
            Event::new(actor, Stage::Effect, kind)
                .message(&d.message_id)
                .sql(sql)
                .args(args),
        ))
    }

    /// The safe phase 3 in one transaction: marks the claim processed, if it is still ours
    /// (the claim is a lease: if the sweeper removed it as stale, another delivery may own the
    /// message by now), and writes the effect. The effect's id, or `None` when the claim was
    /// gone and nothing was written.
    fn finish_claimed(
        &mut self,
        c: u8,
        d: &Delivery,
        e: &inbox::EffectRow,
    ) -> Result<Option<i64>, SimError> {
        let actor = Actor::Consumer(c);
        let conn = &self.conns.consumers[usize::from(c)];
        let tx = super::begin_immediate(conn).ctx(actor, "begin finish")?;
        let mid: Option<i64> = tx
            .prepare_cached(inbox::SQL_CLAIM_DONE)
            .and_then(|mut s| {
                s.query_row(
                    rusqlite::params![
                        d.message_id,
                        CONSUMER_NAME,
                        e.instance,
                        self.clock.now as i64
                    ],
                    |r| r.get(0),
                )
                .optional()
            })
            .ctx(actor, "mark the claim processed")?;
        let Some(mid) = mid else {
            tx.rollback().ctx(actor, "rollback finish")?;
            return Ok(None);
        };
        let eid = inbox::insert_effect(&tx, e, self.clock.now).ctx(actor, "effect")?;
        tx.commit().ctx(actor, "commit finish")?;
        self.change(RowChange::set(
            mid,
            InboxColumn::ProcessedMs,
            self.clock.now.to_string(),
        ));
        Ok(Some(eid))
    }
}

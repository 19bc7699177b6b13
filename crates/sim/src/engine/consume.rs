//! The consumer actor: receive, existence check, apply (safe / naive / pitfall), two-phase
//! claim with the provider, settle, and the failure path (immediate retry, delayed retry, DLQ),
//! which has a file of its own below.

mod failure_path;

use super::action::{Action, Delivery};
use super::broker::{Receive, complete, lock_held};
use super::inbox;
use super::{CHECK_MS, CONSUMER_NAME, SimError, Simulation, SqlContext};
use crate::fault::Fault;
use crate::model::{Actor, BrokerKind, Event, EventKind, Mode, Outcome, Pitfall, Stage};
use crate::moments::{Fact, Guard, Loss};

const CHECK_SQL: &[&str] = &[inbox::SQL_INBOX_CHECK];
/// The check found the row: the consumer writes its receipt of the duplicate.
const CHECK_FOUND_SQL: &[&str] = &[inbox::SQL_INBOX_CHECK, inbox::SQL_RECEIPT_INSERT];
const SETTLE_SQL: &[&str] = &[super::broker::SQL_COMPLETE];
const RECEIVE_SQL: &[&str] = &[super::broker::SQL_RECEIVE];
const LOCK_CHECK_SQL: &[&str] = &[super::broker::SQL_LOCK_HELD];

impl Simulation {
    pub(crate) fn delivery(&self, c: u8) -> Option<Delivery> {
        self.actors.consumers[usize::from(c)].busy.clone()
    }

    pub(crate) fn put_delivery(&mut self, c: u8, d: Delivery) {
        self.actors.consumers[usize::from(c)].busy = Some(d);
    }

    pub(crate) fn instance(c: u8) -> String {
        Actor::Consumer(c).to_string()
    }

    /// Schedules the consumer's next receive.
    pub(crate) fn poll_again(&mut self, c: u8, at: u64) {
        let st = &mut self.actors.consumers[usize::from(c)];
        st.busy = None;
        if !st.poll_scheduled {
            st.poll_scheduled = true;
            self.schedule(at, Action::ConsumerPoll(c));
        }
    }

    pub(crate) fn consumer_poll(&mut self, c: u8) -> Result<Option<Event>, SimError> {
        let i = usize::from(c);
        // `poll_scheduled` stays set while receiving so that a wake-up caused by this very
        // receive (a duplicate copy) goes to another instance.
        let result = self.consumer_receive(c);
        self.actors.consumers[i].poll_scheduled = false;
        if std::mem::take(&mut self.actors.consumers[i].repoll) {
            self.poll_again(c, self.clock.now + 1);
        }
        result
    }

    fn consumer_receive(&mut self, c: u8) -> Result<Option<Event>, SimError> {
        let i = usize::from(c);
        if self.actors.consumers[i].busy.is_some()
            || self.actors.consumers[i].down_until > self.clock.now
        {
            return Ok(None);
        }
        if self.broker_is_down() {
            self.actors.consumers[i].waiting_for_broker = true;
            return Ok(None);
        }
        let (r, ev) = match self.broker_receive(c)? {
            Receive::Empty => {
                return Ok(Some(
                    Event::new(Actor::Consumer(c), Stage::Broker, EventKind::ReceiveEmpty)
                        .sql(RECEIVE_SQL),
                ));
            }
            Receive::DeadLettered(ev) => {
                self.actors.consumers[i].repoll = true;
                return Ok(Some(ev));
            }
            Receive::Delivered(r, ev) => (r, ev),
        };
        let slow = self
            .script
            .armed
            .take_for(Fault::ConsumerSlowerThanLock, r.order_id);
        let handling = self.jittered(self.spec.scenario.setup.handling_ms)
            + if slow { self.spec.settings.lock_ms } else { 0 };
        self.put_delivery(
            c,
            Delivery {
                seq: r.seq,
                message_id: r.logical_id,
                order_id: r.order_id,
                body: r.body,
                token: self.actors.broker.locks.get(&r.seq).map_or(0, |(t, _)| *t),
                delivery_count: r.delivery_count,
                attempt: r.attempt,
                received_ms: self.clock.now,
                immediate_left: self.spec.settings.retry.immediate,
                handling_ms: handling,
                charge_id: None,
                error: None,
                dead_letter_reason: None,
                lab_reason: None,
                settled: false,
            },
        );
        self.schedule(self.clock.now + CHECK_MS, Action::ConsumerCheck(c));
        Ok(Some(ev))
    }

    pub(crate) fn consumer_check(&mut self, c: u8) -> Result<Option<Event>, SimError> {
        let Some(d) = self.delivery(c) else {
            return Ok(None);
        };
        let actor = Actor::Consumer(c);
        if self.spec.settings.pitfall == Some(Pitfall::NoInbox) {
            // No inbox to look in: the handler starts right away, for every delivery.
            self.schedule(self.clock.now + d.handling_ms, Action::ConsumerApply(c));
            return Ok(None);
        }
        let check_sql = if self.lab_takes_consumer() {
            super::lab_consumer::LAB_CHECK_SQL
        } else {
            CHECK_SQL
        };
        let seen = if self.lab_takes_consumer() {
            self.lab_seen(c, &d)?
        } else {
            inbox::inbox_seen(
                &self.conns.consumers[usize::from(c)],
                &d.message_id,
                CONSUMER_NAME,
            )
            .ctx(actor, "existence check")?
        };
        if seen {
            let check_sql = if self.lab_takes_consumer() {
                check_sql
            } else {
                inbox::record_duplicate(
                    &self.conns.consumers[usize::from(c)],
                    &d.message_id,
                    &Self::instance(c),
                    self.clock.now,
                )
                .ctx(actor, "receipt")?;
                CHECK_FOUND_SQL
            };
            self.ledger.duplicate_prevented();
            self.note(Fact::Prevented {
                message_id: d.message_id.clone(),
                guard: Guard::InboxCheck,
            });
            self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
            return Ok(Some(
                Event::new(actor, Stage::Consumer, EventKind::CheckFound)
                    .message(&d.message_id)
                    .sql(check_sql),
            ));
        }
        let next = if self.spec.scenario.setup.two_phase && self.spec.mode == Mode::Naive {
            Action::ConsumerProvider(c)
        } else {
            Action::ConsumerApply(c)
        };
        self.schedule(self.clock.now + d.handling_ms, next);
        if self.spec.scenario.setup.renew_lock
            && self.spec.settings.pitfall != Some(Pitfall::NoLockRenewal)
        {
            let token = d.token;
            self.schedule(
                self.clock.now + self.spec.settings.lock_ms / 2,
                Action::ConsumerRenew { c, token },
            );
        }
        let caption = if self.spec.mode == Mode::Naive {
            EventKind::CheckNoneNaive
        } else {
            EventKind::CheckNoneSafe
        };
        Ok(Some(
            Event::new(actor, Stage::Consumer, caption)
                .message(&d.message_id)
                .sql(check_sql)
                .args(vec![d.handling_ms.to_string()]),
        ))
    }

    pub(crate) fn consumer_apply(&mut self, c: u8) -> Result<Option<Event>, SimError> {
        let Some(d) = self.delivery(c) else {
            return Ok(None);
        };
        let pitfall = self.spec.settings.pitfall;
        if let Some(refused) = self.check_lock_before_apply(c, &d)? {
            return Ok(Some(refused));
        }
        if pitfall == Some(Pitfall::SettleBeforeCommit) && !d.settled {
            return self.settle_early(c, d).map(Some);
        }
        if self.lab_takes_consumer() {
            // The learner's @handle calls the provider itself in the two-phase scenarios, and
            // in lab 6 decides what an unreadable body means.
            let payload = self.read_payload(&d.body);
            if payload.is_ok() || self.lab_decides_unreadable() {
                return self.lab_apply(c, d, &payload);
            }
        }
        let (payload_ok, amount, created) = match self.read_payload(&d.body) {
            Ok(p) => p,
            Err(e) => return Ok(Some(self.fail(c, d, e, &[]))),
        };
        if self.spec.scenario.setup.two_phase {
            if self.spec.mode == Mode::Naive {
                return self.consumer_provider(c);
            }
            return self.two_phase_claim(c, d).map(Some);
        }
        let e = self.effect_row(c, &d, "credit", amount, payload_ok);
        match (self.spec.mode, pitfall) {
            (Mode::Naive, _) => self.apply_naive(c, &d, e, created),
            (_, Some(Pitfall::NoInbox)) => self.apply_without_inbox(c, &d, e, created),
            (_, Some(Pitfall::EffectOutsideTx)) => self.apply_trap(c, &d, e, created),
            _ => Ok(Some(self.apply_in_one_transaction(c, d, e, created))),
        }
    }

    /// The careful consumer makes sure it still holds the message before it commits: once the
    /// lock is gone the broker may have handed the message to another consumer or to the DLQ,
    /// and an effect now would sit beside that DLQ entry. The event that ends the attempt, if
    /// any.
    fn check_lock_before_apply(&mut self, c: u8, d: &Delivery) -> Result<Option<Event>, SimError> {
        let actor = Actor::Consumer(c);
        let pitfall = self.spec.settings.pitfall;
        if self.spec.mode != Mode::Naive && !d.settled && self.broker_is_down() {
            // The check is a broker call of its own: Service Bus renews the lock, SQS
            // extends the visibility of the receipt handle.
            let call = match self.spec.broker {
                BrokerKind::Asb => "RenewMessageLock",
                BrokerKind::Sqs => "ChangeMessageVisibility",
            };
            return Ok(Some(self.broker_call_failed(c, d, call, LOCK_CHECK_SQL)));
        }
        if pitfall == Some(Pitfall::SettleBeforeCommit) && !d.settled && self.broker_is_down() {
            let call = self.settle_call();
            return Ok(Some(self.broker_call_failed(c, d, call, SETTLE_SQL)));
        }
        if self.spec.mode != Mode::Naive
            && !d.settled
            && !lock_held(&self.conns.broker, d.seq, d.token, self.clock.now)
                .ctx(actor, "check lock")?
        {
            self.ledger.lock_lost();
            self.note(Fact::LockLost {
                message_id: d.message_id.clone(),
            });
            self.poll_again(c, self.clock.now + 1);
            return Ok(Some(
                Event::new(actor, Stage::Broker, EventKind::LockCheckFailed)
                    .message(&d.message_id)
                    .sql(LOCK_CHECK_SQL)
                    .outcome(Outcome::Failed)
                    .args(vec![super::broker::token_text(d.token)]),
            ));
        }
        Ok(None)
    }

    /// The pitfall "settle before commit": the consumer completes the message first; the work
    /// follows as an operation of its own, unless the connection drops in between (the order
    /// is lost).
    fn settle_early(&mut self, c: u8, mut d: Delivery) -> Result<Event, SimError> {
        let actor = Actor::Consumer(c);
        let ok = complete(&self.conns.broker, d.seq, d.token, self.clock.now)
            .ctx(actor, "settle early")?;
        if !ok {
            self.ledger.lock_lost();
            self.note(Fact::LockLost {
                message_id: d.message_id.clone(),
            });
            self.poll_again(c, self.clock.now + 1);
            return Ok(Event::new(actor, Stage::Broker, EventKind::LockLost)
                .message(&d.message_id)
                .sql(SETTLE_SQL)
                .outcome(Outcome::Failed)
                .args(vec![
                    super::broker::token_text(d.token),
                    crate::model::RefusedCall::Complete.name().to_string(),
                ]));
        }
        self.picture_dequeued(d.seq);
        d.settled = true;
        if !self
            .script
            .armed
            .take_for(Fault::ConsumerLostConnectionAfterEffect, d.order_id)
        {
            // The early complete is an operation of its own: the work follows next.
            let token = super::broker::token_text(d.token);
            let message_id = d.message_id.clone();
            self.put_delivery(c, d);
            self.schedule(self.clock.now + 1, Action::ConsumerApply(c));
            return Ok(Event::new(actor, Stage::Broker, EventKind::Settled)
                .message(&message_id)
                .sql(SETTLE_SQL)
                .args(vec![token]));
        }
        self.ledger.lost(1);
        self.note(Fact::Lost {
            message_id: d.message_id.clone(),
            loss: Loss::SettledBeforeCommit,
        });
        Ok(self.lose_connection(c, &d, EventKind::SettledThenConnectionLost, SETTLE_SQL))
    }
}

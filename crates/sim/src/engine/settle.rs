//! The end of a delivery: complete (settle), abandon with a delayed retry or dead-letter, and
//! reconnecting after a lost connection.

use super::action::{Action, Delivery};
use super::broker::{
    DeadLetterNote, HeldMessage, abandon, complete, delete_message, lock_held, token_text,
};
use super::payload::Failure;
use super::{SimError, Simulation, SqlContext};
use crate::model::{Actor, BrokerKind, Event, EventKind, Outcome, RefusedCall, Stage};
use crate::moments::Fact;
use crate::state::RowChange;
use crate::state::rows::QueueColumn;

const SETTLE_SQL: &[&str] = &[super::broker::SQL_COMPLETE];
const ABANDON_SQL: &[&str] = &[super::broker::SQL_ABANDON];
const DELETE_SQL: &[&str] = &[super::broker::SQL_DELETE];
const RENEW_SQL: &[&str] = &[super::broker::SQL_RENEW];
/// SQS: `SendMessage` to the DLQ queue, then `DeleteMessage` - two calls, no transaction.
const FORWARD_SQL: &[&str] = &[super::broker::SQL_FORWARD_TO_DLQ, super::broker::SQL_DELETE];
const DEAD_LETTER_SQL: &[&str] = &[
    super::broker::SQL_LOCK_HELD,
    "BEGIN IMMEDIATE",
    super::broker::SQL_DEAD_LETTER,
    super::broker::SQL_DELETE,
    "COMMIT",
];

impl Simulation {
    /// Lock renewal (Service Bus `RenewMessageLockAsync` / `AutoLockRenewal`) or visibility
    /// extension (SQS `ChangeMessageVisibility`): while the consumer still works on the same
    /// delivery, push the lock end one lock duration out and renew again halfway.
    pub(crate) fn consumer_renew(&mut self, c: u8, token: u64) -> Result<Option<Event>, SimError> {
        let Some(d) = self.delivery(c) else {
            return Ok(None);
        };
        if d.token != token || d.settled {
            return Ok(None);
        }
        let actor = Actor::Consumer(c);
        let lock_ends = self
            .actors
            .broker
            .locks
            .get(&d.seq)
            .filter(|(t, _)| *t == token)
            .map(|(_, until)| *until);
        if self.broker_is_down() {
            // The renewal fails like every broker call in an outage; the consumer tries again
            // while its lock still runs (after that there is nothing left to renew).
            let Some(lock_ends) = lock_ends.filter(|until| *until > self.clock.now) else {
                return Ok(None);
            };
            let retry = (self.spec.settings.lock_ms / 4).max(1);
            if self.clock.now + retry < lock_ends {
                self.schedule(self.clock.now + retry, Action::ConsumerRenew { c, token });
            }
            let call = match self.spec.broker {
                BrokerKind::Asb => "RenewMessageLock",
                BrokerKind::Sqs => "ChangeMessageVisibility",
            };
            return Ok(Some(
                Event::new(actor, Stage::Broker, EventKind::RenewFailedBrokerDown)
                    .message(&d.message_id)
                    .sql(RENEW_SQL)
                    .outcome(Outcome::Failed)
                    .args(vec![call.into(), retry.to_string(), lock_ends.to_string()]),
            ));
        }
        let until = self.clock.now + self.spec.settings.lock_ms;
        if self.clock.now.saturating_sub(d.received_ms) >= self.spec.settings.renew_limit_ms {
            // Auto-renewal ends at its limit; the lock then runs out on its own. The limit is
            // the consumer's (Service Bus: the client's MaxAutoLockRenewalDuration; SQS: the
            // consumer's own extension loop), so the event stands at the consumer.
            let kind = match self.spec.broker {
                BrokerKind::Asb => EventKind::RenewalLimitReached,
                BrokerKind::Sqs => EventKind::VisibilityLimitReached,
            };
            return Ok(Some(
                Event::new(actor, Stage::Consumer, kind)
                    .message(&d.message_id)
                    .outcome(Outcome::Failed)
                    .args(vec![self.spec.settings.renew_limit_ms.to_string()]),
            ));
        }
        let renewed = super::broker::renew(&self.conns.broker, d.seq, token, self.clock.now, until)
            .ctx(actor, "renew lock")?;
        if !renewed {
            return Ok(None);
        }
        self.actors.broker.locks.insert(d.seq, (token, until));
        self.schedule(until, Action::LockExpiry { seq: d.seq, token });
        self.schedule(
            self.clock.now + self.spec.settings.lock_ms / 2,
            Action::ConsumerRenew { c, token },
        );
        self.change(RowChange::set(
            d.seq,
            QueueColumn::VisibleMs,
            until.to_string(),
        ));
        let caption = match self.spec.broker {
            crate::BrokerKind::Asb => EventKind::LockRenewed,
            crate::BrokerKind::Sqs => EventKind::VisibilityExtended,
        };
        Ok(Some(
            Event::new(actor, Stage::Broker, caption)
                .message(&d.message_id)
                .sql(RENEW_SQL)
                .args(vec![until.to_string()]),
        ))
    }

    pub(crate) fn consumer_settle(&mut self, c: u8) -> Result<Option<Event>, SimError> {
        let Some(d) = self.delivery(c) else {
            return Ok(None);
        };
        let actor = Actor::Consumer(c);
        self.poll_again(c, self.clock.now + 1);
        if d.settled {
            return Ok(None);
        }
        if self.broker_is_down() {
            return Ok(Some(
                Event::new(actor, Stage::Broker, EventKind::SettleFailedBrokerDown)
                    .message(&d.message_id)
                    .sql(SETTLE_SQL)
                    .outcome(Outcome::Failed),
            ));
        }
        let deleted = match self.spec.broker {
            BrokerKind::Asb => complete(&self.conns.broker, d.seq, d.token, self.clock.now),
            BrokerKind::Sqs => delete_message(&self.conns.broker, d.seq, d.token),
        }
        .ctx(actor, "complete")?;
        if !deleted && self.spec.broker == BrokerKind::Sqs {
            // The call succeeded for the consumer; the broker kept the message because
            // another receive holds the newer handle. No settle was refused, so no lock-lost
            // moment: the event's own caption says what happened.
            self.ledger.lock_lost();
            return Ok(Some(
                Event::new(actor, Stage::Broker, EventKind::DeletedStaleHandle)
                    .message(&d.message_id)
                    .sql(DELETE_SQL)
                    .args(vec![token_text(d.token)]),
            ));
        }
        if deleted {
            self.picture_dequeued(d.seq);
            let sql = match self.spec.broker {
                BrokerKind::Asb => SETTLE_SQL,
                BrokerKind::Sqs => DELETE_SQL,
            };
            Ok(Some(
                Event::new(actor, Stage::Broker, EventKind::Settled)
                    .message(&d.message_id)
                    .sql(sql)
                    .args(vec![token_text(d.token)]),
            ))
        } else {
            Ok(Some(self.lock_lost(
                c,
                &d,
                RefusedCall::Complete,
                SETTLE_SQL,
            )))
        }
    }

    /// After a failed attempt: Service Bus `Abandon` releases the message at once (the broker
    /// counts the delivery; backoff is the consumer's business, so this instance pauses its
    /// receives); SQS `ChangeMessageVisibility` hides it for the backoff. Either way the broker,
    /// not the consumer, dead-letters it once the delivery count exceeds the maximum. The safe
    /// Service Bus consumer delays the message itself instead (see `retry_copy`).
    pub(crate) fn consumer_abandon(&mut self, c: u8) -> Result<Option<Event>, SimError> {
        let Some(d) = self.delivery(c) else {
            return Ok(None);
        };
        let actor = Actor::Consumer(c);
        let by_copy = self.retries_by_scheduled_copy();
        if self.broker_is_down() {
            let call = match self.spec.broker {
                BrokerKind::Asb if by_copy => "ScheduleMessage",
                BrokerKind::Asb => "Abandon",
                BrokerKind::Sqs => "ChangeMessageVisibility",
            };
            return Ok(Some(self.broker_call_failed(c, &d, call, ABANDON_SQL)));
        }
        if by_copy {
            return self.consumer_schedule_copy(c, d);
        }
        let error = d.error.clone().unwrap_or_default();
        let delay = self.next_retry_delay(d.order_id, d.delivery_count);
        let (visible, resume) = match self.spec.broker {
            BrokerKind::Asb => (self.clock.now, self.clock.now + delay),
            BrokerKind::Sqs => (self.clock.now + delay, self.clock.now + 1),
        };
        self.poll_again(c, resume);
        if !abandon(&self.conns.broker, d.seq, d.token, self.clock.now, visible)
            .ctx(actor, "abandon")?
        {
            let call = match self.spec.broker {
                BrokerKind::Asb => RefusedCall::Abandon,
                BrokerKind::Sqs => RefusedCall::ChangeMessageVisibility,
            };
            return Ok(Some(self.lock_lost(c, &d, call, ABANDON_SQL)));
        }
        if self.actors.broker.locks.remove(&d.seq).is_some() {
            self.ledger.lock_ended();
        }
        self.change(RowChange::set(
            d.seq,
            QueueColumn::VisibleMs,
            visible.to_string(),
        ));
        self.change(RowChange::set(d.seq, QueueColumn::LockToken, String::new()));
        self.schedule(visible.max(self.clock.now + 1), Action::BrokerWake);
        let jitter = self.spec.settings.retry.jitter.as_str().to_string();
        let (kind, args) = match self.spec.broker {
            BrokerKind::Asb => (
                EventKind::Abandoned,
                vec![
                    d.delivery_count.to_string(),
                    delay.to_string(),
                    jitter,
                    error,
                ],
            ),
            BrokerKind::Sqs => (
                EventKind::RetryDelayed,
                vec![delay.to_string(), jitter, error],
            ),
        };
        Ok(Some(
            Event::new(actor, Stage::Retry, kind)
                .message(&d.message_id)
                .sql(ABANDON_SQL)
                .args(args),
        ))
    }

    /// The backoff before attempt `attempt + 1` of `order`, drawn from the retry settings (the
    /// decorrelated variant grows from the order's previous wait).
    pub(crate) fn next_retry_delay(&mut self, order: i64, attempt: u32) -> u64 {
        let previous = self
            .actors
            .retry_delays
            .get(&order)
            .copied()
            .unwrap_or(self.spec.settings.retry.base_ms);
        let delay = self
            .spec
            .settings
            .retry
            .delay_ms(attempt, previous, &mut self.rng);
        self.actors.retry_delays.insert(order, delay);
        delay
    }

    /// A permanent error: the consumer dead-letters the message itself at this delivery, with
    /// a reason and description of its own. Service Bus: the application's `DeadLetter` call on
    /// the locked message. SQS has no such call: the consumer sends the message to the DLQ
    /// queue itself, its reason as a message attribute, and then deletes it from the queue.
    /// Either way it needs the broker and a valid lock / receipt handle.
    pub(crate) fn consumer_dead_letter(&mut self, c: u8) -> Result<Option<Event>, SimError> {
        let Some(d) = self.delivery(c) else {
            return Ok(None);
        };
        let actor = Actor::Consumer(c);
        if self.broker_is_down() {
            let call = match self.spec.broker {
                BrokerKind::Asb => "DeadLetter",
                BrokerKind::Sqs => "SendMessage to the DLQ",
            };
            return Ok(Some(self.broker_call_failed(c, &d, call, DEAD_LETTER_SQL)));
        }
        self.poll_again(c, self.clock.now + 1);
        let description = d.error.clone().unwrap_or_default();
        let reason = (d.lab_reason.as_deref())
            .or(d.dead_letter_reason)
            .unwrap_or(Failure::UNSUPPORTED_SCHEMA);
        let note = DeadLetterNote {
            reason,
            description: &description,
            deliveries: d.delivery_count,
        };
        let mut args = vec![
            reason.to_string(),
            description.clone(),
            d.delivery_count.to_string(),
        ];
        if self.spec.broker == BrokerKind::Sqs {
            let held = HeldMessage {
                seq: d.seq,
                token: d.token,
                message_id: &d.message_id,
                order_id: d.order_id,
                body: &d.body,
            };
            if self.forward_to_dlq(actor, &held, &note)? {
                return Ok(Some(
                    Event::new(actor, Stage::Dlq, EventKind::ForwardedToDlq)
                        .message(&d.message_id)
                        .sql(FORWARD_SQL)
                        .args(args),
                ));
            }
            // Neither call was refused: the stale handle's delete deleted nothing. No lock
            // was lost at a settle, so no lock-lost moment; the caption says what happened.
            self.ledger.lock_lost();
            args.push(token_text(d.token));
            return Ok(Some(
                Event::new(actor, Stage::Dlq, EventKind::ForwardedToDlqStaleDelete)
                    .message(&d.message_id)
                    .sql(FORWARD_SQL)
                    .args(args),
            ));
        }
        let held = lock_held(&self.conns.broker, d.seq, d.token, self.clock.now)
            .ctx(actor, "check lock")?;
        if !held || !self.move_to_dlq(actor, d.seq, d.token, &d.message_id, &note)? {
            return Ok(Some(self.lock_lost(
                c,
                &d,
                RefusedCall::DeadLetter,
                DEAD_LETTER_SQL,
            )));
        }
        Ok(Some(
            Event::new(actor, Stage::Dlq, EventKind::DeadLetteredByConsumer)
                .message(&d.message_id)
                .sql(DEAD_LETTER_SQL)
                .args(args),
        ))
    }

    /// The broker refused a settle, abandon or dead-letter call: the lock (receipt handle) of
    /// this delivery had run out, so this instance no longer holds the message.
    fn lock_lost(
        &mut self,
        c: u8,
        d: &Delivery,
        call: RefusedCall,
        sql: &'static [&'static str],
    ) -> Event {
        self.ledger.lock_lost();
        self.note(Fact::LockLost {
            message_id: d.message_id.clone(),
        });
        Event::new(Actor::Consumer(c), Stage::Broker, EventKind::LockLost)
            .message(&d.message_id)
            .sql(sql)
            .outcome(Outcome::Failed)
            .args(vec![token_text(d.token), call.name().to_string()])
    }

    pub(crate) fn consumer_reconnect(&mut self, c: u8) -> Event {
        self.poll_again(c, self.clock.now);
        Event::new(
            Actor::Consumer(c),
            Stage::Consumer,
            EventKind::ConsumerReconnected,
        )
    }
}

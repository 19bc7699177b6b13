//! The broker actor: receive with a lock / visibility timeout, duplicate copies, waking
//! consumers. Dead-lettering and the timed events (lock expiry, outage end) have files of
//! their own below; its SQL lives in [`super::queue`].

mod dead_letter;
mod fifo;
mod timed;

use rand::RngExt;

use super::action::Action;
pub(crate) use super::queue::*;
use super::{SimError, Simulation, SqlContext};
use crate::model::{Actor, BrokerKind, Event, EventKind, Stage};
use crate::moments::{Fact, Guard};
use crate::state::rows::{QueueColumn, QueueRow};
use crate::state::{RowChange, Table};

/// What a receive got.
pub(crate) enum Receive {
    /// Nothing visible.
    Empty,
    /// The broker moved the message to the DLQ instead of delivering it.
    DeadLettered(Event),
    /// A message, locked for the receiver.
    Delivered(Received, Event),
}

impl Simulation {
    /// True when the queue is an SQS FIFO queue: message groups, or deduplication (which SQS
    /// offers on FIFO queues only).
    pub(crate) fn sqs_fifo(&self) -> bool {
        self.spec.broker == BrokerKind::Sqs
            && (self.spec.settings.ordered || self.spec.settings.dedup_window_ms.is_some())
    }

    /// True while the broker outage lasts.
    pub(crate) fn broker_is_down(&self) -> bool {
        self.actors.broker.down_until > self.clock.now
    }

    /// Puts a queue row into the picture.
    pub(crate) fn picture_enqueued(&mut self, seq: i64, message_id: &str, group: Option<&str>) {
        self.change(RowChange::put(&QueueRow {
            seq,
            message_id: message_id.to_string(),
            visible_ms: self.clock.now,
            lock_token: None,
            delivery_count: 0,
            group_id: group.map(str::to_owned),
        }));
        self.ledger.enqueued();
    }

    /// Enqueues one message outside a batch (publish-in-request pitfall) and wakes a consumer.
    pub(crate) fn enqueue(
        &mut self,
        actor: Actor,
        msg: &str,
        order_id: i64,
        body: &str,
        group: Option<&str>,
    ) -> Result<Option<i64>, SimError> {
        let seq = enqueue(
            &self.conns.broker,
            self.clock.now,
            self.spec.settings.dedup_window_ms,
            msg,
            order_id,
            body,
            group,
        )
        .ctx(actor, "enqueue")?;
        if let Some(seq) = seq {
            self.ledger.published();
            self.picture_enqueued(seq, msg, group);
            self.wake_consumers(self.clock.now + 1, 1);
        } else {
            self.ledger.duplicate_prevented();
            self.note(Fact::Prevented {
                message_id: msg.to_string(),
                guard: Guard::BrokerDedup,
            });
        }
        Ok(seq)
    }

    /// Wakes up to `n` idle consumers at `at`.
    pub(crate) fn wake_consumers(&mut self, at: u64, n: usize) {
        let mut woken = 0;
        for c in 0..self.actors.consumers.len() {
            if woken == n {
                break;
            }
            let st = &mut self.actors.consumers[c];
            if st.busy.is_none() && !st.poll_scheduled && st.down_until <= at {
                st.poll_scheduled = true;
                woken += 1;
                self.schedule(at, Action::ConsumerPoll(c as u8));
            }
        }
    }

    /// The broker side of a consumer's receive: nothing visible, a message the broker moved to
    /// the DLQ instead of handing it out (its delivery count would exceed the maximum), or a
    /// delivery.
    pub(crate) fn broker_receive(&mut self, c: u8) -> Result<Receive, SimError> {
        let actor = Actor::Consumer(c);
        let token = self.actors.broker.next_token;
        self.actors.broker.next_token += 1;
        let Some(r) = self.take_visible(actor, token)? else {
            return Ok(Receive::Empty);
        };
        if r.delivery_count > self.spec.settings.max_deliveries {
            return self
                .dead_letter_by_broker(&r, token)
                .map(Receive::DeadLettered);
        }
        self.lock_for_receiver(&r, token);
        let copied = self.copy_if_duplicated(&r)?;
        let sql = if copied {
            RECEIVE_DUP_SQL
        } else if self.spec.settings.ordered {
            RECEIVE_ORDERED_SQL
        } else {
            RECEIVE_SQL
        };
        let caption = match (copied, r.delivery_count > 1) {
            (true, _) => EventKind::ReceivedTwice,
            (false, true) => EventKind::ReceivedAgain,
            (false, false) => EventKind::Received,
        };
        let ev = Event::new(actor, Stage::Consumer, caption)
            .message(&r.logical_id)
            .sql(sql)
            .args(vec![
                r.delivery_count.to_string(),
                self.spec.settings.lock_ms.to_string(),
                // For the record: the queue row and the lock token / receipt handle.
                r.seq.to_string(),
                token_text(token),
            ]);
        Ok(Receive::Delivered(r, ev))
    }

    /// The next visible message, locked under `token`, if any.
    fn take_visible(&mut self, actor: Actor, token: u64) -> Result<Option<Received>, SimError> {
        let offset = match self.spec.broker {
            // SQS standard: best-effort order; sometimes a later message comes first.
            BrokerKind::Sqs
                if !self.spec.settings.ordered && self.spec.settings.dedup_window_ms.is_none() =>
            {
                u32::from(self.rng.random_bool(0.2))
            }
            _ => 0,
        };
        let mut got = receive(
            &self.conns.broker,
            self.clock.now,
            self.spec.settings.lock_ms,
            token,
            self.spec.settings.ordered,
            offset,
        )
        .ctx(actor, "receive")?;
        if got.is_none() && offset > 0 {
            got = receive(
                &self.conns.broker,
                self.clock.now,
                self.spec.settings.lock_ms,
                token,
                self.spec.settings.ordered,
                0,
            )
            .ctx(actor, "receive")?;
        }
        Ok(got)
    }

    /// Records the receiver's lock on `r` (its expiry scheduled), in the picture, the metrics
    /// and the facts.
    fn lock_for_receiver(&mut self, r: &Received, token: u64) {
        let until = self.clock.now + self.spec.settings.lock_ms;
        self.actors.broker.locks.insert(r.seq, (token, until));
        self.schedule(until, Action::LockExpiry { seq: r.seq, token });
        let cells = [
            (QueueColumn::VisibleMs, until.to_string()),
            (QueueColumn::LockToken, token_text(token)),
            (QueueColumn::DeliveryCount, r.delivery_count.to_string()),
        ];
        for (column, value) in cells {
            self.change(RowChange::set(r.seq, column, value));
        }
        self.ledger.delivered(r.delivery_count);
        // The consumer reads the envelope: from here on the message is its logical id (the
        // broker's MessageId differs only for a DLQ replay under a new one).
        self.note(Fact::Received {
            message_id: r.logical_id.clone(),
            seq: r.seq,
            delivery: r.delivery_count,
        });
    }

    /// SQS standard's occasional duplicate, or the armed fault: a second copy of `r` another
    /// receiver can take at once. True when a copy was made.
    fn copy_if_duplicated(&mut self, r: &Received) -> Result<bool, SimError> {
        // Each message is duplicated at most once, so a trigger hits distinct messages.
        let fresh = !self.actors.broker.duplicated.contains(&r.order_id);
        let standard_dup = fresh
            && self.spec.broker == BrokerKind::Sqs
            && !self.spec.settings.ordered
            && self.spec.settings.dedup_window_ms.is_none()
            && self.spec.scenario.setup.duplicate_rate > 0.0
            && self
                .rng
                .random_bool(self.spec.scenario.setup.duplicate_rate);
        // An SQS FIFO queue introduces no duplicates (and drops a second publish inside its
        // deduplication interval): the fault has nothing to act on there.
        // Service Bus makes no copies of its own: there the fault is a second send (see the
        // dispatcher's publish), never a copy made at a receive.
        let forced_dup = fresh
            && !standard_dup
            && self.spec.broker == BrokerKind::Sqs
            && !self.sqs_fifo()
            && self
                .script
                .armed
                .take(crate::fault::Fault::DuplicateDelivery);
        if !(standard_dup || forced_dup) {
            return Ok(false);
        }
        self.actors.broker.duplicated.insert(r.order_id);
        // At-least-once: a copy on another server of the queue.
        let copy = duplicate(&self.conns.broker, r.seq, self.clock.now, self.clock.now)
            .ctx(Actor::Broker, "duplicate delivery")?;
        self.ledger.copied();
        self.note(Fact::Copied {
            message_id: r.logical_id.clone(),
        });
        self.picture_enqueued(copy, &r.message_id, None);
        self.wake_consumers(self.clock.now + 1, 1);
        Ok(true)
    }

    /// Removes a settled / dead-lettered row from the picture and the lock table.
    pub(crate) fn picture_dequeued(&mut self, seq: i64) {
        if self.actors.broker.locks.remove(&seq).is_some() {
            self.ledger.lock_ended();
        }
        self.change(RowChange::Delete(Table::Queue, seq));
        self.ledger.dequeued();
    }
}

//! Locks that run out and outages that end: the broker's timed events.

use rusqlite::OptionalExtension;

use super::super::Simulation;
use super::SQL_QUEUED_ID;
use crate::model::{Actor, BrokerKind, Event, EventKind, Stage};
use crate::moments::Fact;
use crate::state::RowChange;
use crate::state::rows::QueueColumn;

impl Simulation {
    /// A lock / visibility timeout ran out: the message is visible again.
    pub(crate) fn lock_expiry(&mut self, seq: i64, token: u64) -> Option<Event> {
        // A renewed lock has a later end; its own expiry is scheduled separately.
        if !self
            .actors
            .broker
            .locks
            .get(&seq)
            .is_some_and(|(t, until)| *t == token && *until <= self.clock.now)
        {
            return None;
        }
        self.actors.broker.locks.remove(&seq);
        self.note(Fact::LockExpired { seq });
        self.ledger.lock_ended();
        self.change(RowChange::set(seq, QueueColumn::LockToken, String::new()));
        self.wake_consumers(self.clock.now, 1);
        // The lock ran its full duration, counted from the delivery or the last renewal.
        let caption = match self.spec.broker {
            BrokerKind::Asb => EventKind::LockExpired,
            BrokerKind::Sqs => EventKind::VisibilityExpired,
        };
        let held_ms = self.spec.settings.lock_ms;
        // The caption names the message, not the queue row number a learner never sees.
        let message_id = self.queued_message_id(seq);
        Some(
            Event::new(Actor::Broker, Stage::Broker, caption)
                .maybe_message(message_id.as_deref())
                .args(vec![
                    message_id.clone().unwrap_or_else(|| format!("#{seq}")),
                    held_ms.to_string(),
                    // For the record: whose lock it was (the receive's token / handle).
                    super::token_text(token),
                ]),
        )
    }

    /// The message id of queue row `seq`, while it is in the queue. A failed read only costs
    /// the caption its id, so it is not an error of the run.
    fn queued_message_id(&self, seq: i64) -> Option<String> {
        self.conns
            .broker
            .prepare_cached(SQL_QUEUED_ID)
            .and_then(|mut s| s.query_row([seq], |r| r.get(0)).optional())
            .ok()
            .flatten()
    }

    /// An outage ends: when it was the last one still running, the broker is reachable again
    /// and everyone who waited is woken. An outage that ends inside a longer, overlapping one
    /// changes nothing (`None`), and two ending at the same moment announce it once.
    pub(crate) fn broker_up(&mut self) -> Option<Event> {
        let now = self.clock.now;
        if self.actors.broker.down_until != now || self.actors.broker.up_announced == Some(now) {
            return None;
        }
        self.actors.broker.up_announced = Some(now);
        for c in &mut self.actors.consumers {
            c.waiting_for_broker = false;
        }
        let n = self.actors.consumers.len();
        self.wake_consumers(now, n);
        self.wake_dispatcher(now);
        Some(Event::new(
            Actor::Broker,
            Stage::Broker,
            EventKind::BrokerUp,
        ))
    }
}

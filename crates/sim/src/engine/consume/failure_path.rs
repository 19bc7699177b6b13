//! The consumer's failure path: a processing error (retry at once, abandon or delay, or
//! dead-letter a permanent error), a broker call that fails while the broker is down, and a
//! connection lost after a durable write.

use super::super::action::{Action, Delivery};
use super::super::payload::Failure;
use super::super::{RECONNECT_MS, Simulation};
use crate::model::{Actor, BrokerKind, Event, EventKind, Mode, Outcome, Pitfall, Stage};
use crate::moments::{Fact, Loss};

impl Simulation {
    /// Processing failed: immediate retry, or abandon / dead-letter on the next step.
    pub(crate) fn fail(
        &mut self,
        c: u8,
        mut d: Delivery,
        failure: impl Into<Failure>,
        sql: &'static [&'static str],
    ) -> Event {
        let actor = Actor::Consumer(c);
        let Failure {
            text: error,
            permanent,
        } = failure.into();
        self.ledger.retried();
        let msg = d.message_id.clone();
        if d.settled {
            self.ledger.lost(1);
            self.note(Fact::Lost {
                message_id: msg.clone(),
                loss: Loss::FailedAfterSettle,
            });
            self.poll_again(c, self.clock.now + 1);
            return Event::new(actor, Stage::Consumer, EventKind::FailedAfterSettle)
                .message(&msg)
                .sql(sql)
                .outcome(Outcome::Failed)
                .args(vec![error]);
        }
        // A team that replays without knowing the cause has no classification of its own
        // either: every failure retries until the broker's delivery limit.
        let classifies = self.spec.mode != Mode::Naive
            && !self
                .spec
                .settings
                .pitfall
                .is_some_and(Pitfall::leaves_cause_unfixed);
        if let Some(reason) = permanent.filter(|_| classifies) {
            // No retry can fix an unknown schema version or a lost blob: the careful consumer
            // dead-letters the message itself at once, with a reason of its own (the broker
            // would only ever record that the delivery limit was exceeded).
            d.error = Some(error.clone());
            d.dead_letter_reason = Some(reason);
            self.put_delivery(c, d);
            self.schedule(self.clock.now + 1, Action::ConsumerDeadLetter(c));
            return Event::new(actor, Stage::Consumer, EventKind::FailedPermanent)
                .message(&msg)
                .sql(sql)
                .outcome(Outcome::Failed)
                .args(vec![error]);
        }
        if d.immediate_left > 0 {
            d.immediate_left -= 1;
            self.put_delivery(c, d);
            self.schedule(self.clock.now + 1, Action::ConsumerApply(c));
            return Event::new(actor, Stage::Consumer, EventKind::FailedRetryNow)
                .message(&msg)
                .sql(sql)
                .outcome(Outcome::Failed)
                .args(vec![error]);
        }
        d.error = Some(error.clone());
        self.put_delivery(c, d);
        self.schedule(self.clock.now + 1, Action::ConsumerAbandon(c));
        Event::new(actor, Stage::Consumer, EventKind::Failed)
            .message(&msg)
            .sql(sql)
            .outcome(Outcome::Failed)
            .args(vec![error])
    }

    /// The broker's name for settling: Service Bus `Complete`, SQS `DeleteMessage`.
    pub(crate) fn settle_call(&self) -> &'static str {
        match self.spec.broker {
            BrokerKind::Asb => "Complete",
            BrokerKind::Sqs => "DeleteMessage",
        }
    }

    /// A broker call failed because the broker is down: the consumer lets go of the message,
    /// which stays locked until its lock / visibility timeout runs out.
    pub(crate) fn broker_call_failed(
        &mut self,
        c: u8,
        d: &Delivery,
        call: &str,
        sql: &'static [&'static str],
    ) -> Event {
        self.poll_again(c, self.clock.now + 1);
        Event::new(
            Actor::Consumer(c),
            Stage::Broker,
            EventKind::BrokerCallFailed,
        )
        .message(&d.message_id)
        .sql(sql)
        .outcome(Outcome::Failed)
        .args(vec![call.to_string()])
    }

    /// The connection drops after a durable write: the message stays locked until it expires.
    pub(crate) fn lose_connection(
        &mut self,
        c: u8,
        d: &Delivery,
        caption: EventKind,
        sql: &'static [&'static str],
    ) -> Event {
        let i = usize::from(c);
        self.actors.consumers[i].busy = None;
        self.actors.consumers[i].down_until = self.clock.now + RECONNECT_MS;
        self.schedule(self.clock.now + RECONNECT_MS, Action::ConsumerReconnect(c));
        self.note(Fact::ConnectionLost {
            message_id: d.message_id.clone(),
        });
        // The lock still runs for what is left of it: it counts from the receive or the last
        // renewal, not from the lost connection.
        let lock_left = self
            .actors
            .broker
            .locks
            .get(&d.seq)
            .filter(|(token, _)| *token == d.token)
            .map_or(0, |(_, until)| until.saturating_sub(self.clock.now));
        Event::new(Actor::Consumer(c), Stage::Consumer, caption)
            .message(&d.message_id)
            .sql(sql)
            .outcome(Outcome::Unknown)
            .args(vec![lock_left.to_string()])
    }
}

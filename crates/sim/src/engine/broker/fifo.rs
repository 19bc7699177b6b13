//! The rule of an ordered queue for a send: on an SQS FIFO queue every message names its
//! `MessageGroupId`, or SQS refuses the send with `MissingParameter`; on a Service Bus queue
//! with sessions every message names its `SessionId`, or Service Bus refuses it. A Service Bus
//! queue without sessions and an SQS standard queue take a message without.

use super::super::action::Action;
use super::super::dispatch::{MAX_PUBLISH_ATTEMPTS, SQL_GIVE_UP, SQL_RELEASE};
use super::super::{SimError, Simulation};
use crate::model::{Actor, BrokerKind, Event, EventKind, Outcome, Stage};
use crate::moments::{Fact, Loss};

impl Simulation {
    /// True when the broker refuses a send of a message in `group`.
    pub(crate) fn refuses_send(&self, group: Option<&str>) -> bool {
        let sessions = self.spec.broker == BrokerKind::Asb && self.spec.settings.ordered;
        (self.sqs_fifo() || sessions) && group.is_none()
    }

    /// Why the broker refuses a send without a group, in its own words.
    pub(crate) fn refusal_reason(&self) -> &'static str {
        match self.spec.broker {
            BrokerKind::Asb => "the queue with sessions requires a SessionId",
            BrokerKind::Sqs => "the FIFO queue requires a MessageGroupId",
        }
    }

    /// The `MessageGroupId` a sender gives a message: its customer where order matters; on an
    /// SQS FIFO queue used for its deduplication only, the message's own id (each message its
    /// own group, so none waits behind another); otherwise none.
    pub(crate) fn message_group(&self, customer: &str, message_id: &str) -> Option<String> {
        if self.spec.settings.ordered {
            Some(customer.to_owned())
        } else if self.sqs_fifo() {
            Some(message_id.to_owned())
        } else {
            None
        }
    }
}

impl Simulation {
    /// The dispatcher's batch holds a row the ordered queue refuses (no group): nothing
    /// of the batch is sent and the rows go back to the outbox. The row will never be taken as
    /// it is, so after [`MAX_PUBLISH_ATTEMPTS`] tries the dispatcher gives it up (its order is
    /// lost, as with a row too large), and the other rows of the batch go out on the next poll.
    pub(crate) fn dispatcher_refused(&mut self, d: u8) -> Result<Event, SimError> {
        let actor = Actor::Dispatcher(d);
        let i = usize::from(d);
        let batch = std::mem::take(&mut self.actors.dispatchers[i].batch);
        let (never, rest): (Vec<_>, Vec<_>) = batch
            .into_iter()
            .partition(|c| self.refuses_send(c.group_id.as_deref()));
        let first = never
            .first()
            .map_or_else(String::new, |c| c.message_id.clone());
        let attempts = self.actors.dispatchers[i].failures + 1;
        self.ledger.retried();
        let retry = if attempts >= MAX_PUBLISH_ATTEMPTS {
            self.actors.dispatchers[i].failures = 0;
            for c in &never {
                self.note(Fact::Lost {
                    message_id: c.message_id.clone(),
                    loss: Loss::GaveUp,
                });
            }
            self.actors.dispatchers[i].batch = never;
            let reason = self.refusal_reason();
            self.release_batch(d, SQL_GIVE_UP, Some(reason))?;
            self.clock.now + 1
        } else {
            self.actors.dispatchers[i].failures = attempts;
            self.actors.dispatchers[i].batch = never;
            self.release_batch(d, SQL_RELEASE, None)?;
            self.clock.now + self.spec.settings.retry.base_ms
        };
        self.actors.dispatchers[i].batch = rest;
        self.release_batch(d, SQL_RELEASE, None)?;
        self.schedule(retry, Action::DispatcherPoll(d));
        Ok(send_refused(actor, Stage::Dispatcher, &first))
    }
}

/// The event of a send the broker refused for want of a `SessionId` / `MessageGroupId`.
pub(crate) fn send_refused(actor: Actor, stage: Stage, message_id: &str) -> Event {
    Event::new(actor, stage, EventKind::SendRefusedNoGroup)
        .message(message_id)
        .outcome(Outcome::Failed)
        .args(vec![message_id.to_owned()])
}

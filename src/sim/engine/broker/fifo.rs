//! SQS FIFO's rule for a send: every message names its `MessageGroupId`, or SQS refuses the
//! send with `MissingParameter`. Service Bus and an SQS standard queue take a message without.

use super::super::Simulation;
use crate::sim::model::{Actor, Event, EventKind, Outcome, Stage};

impl Simulation {
    /// True when the broker refuses a send of a message in `group`.
    pub(crate) fn refuses_send(&self, group: Option<&str>) -> bool {
        self.sqs_fifo() && group.is_none()
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

/// The event of a send SQS refused for want of a `MessageGroupId`.
pub(crate) fn send_refused(actor: Actor, stage: Stage, message_id: &str) -> Event {
    Event::new(actor, stage, EventKind::SendRefusedNoGroup)
        .message(message_id)
        .outcome(Outcome::Failed)
        .args(vec![message_id.to_owned()])
}

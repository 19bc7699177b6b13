//! The broker's dead-letter queue: the broker moves a message past its delivery limit there
//! itself, and every move (by the broker or by the consumer's own call) goes through one place.

use super::super::{SimError, Simulation, SqlContext};
use super::{DEAD_LETTER_SQL, DeadLetterNote, HeldMessage, Received, dead_letter, forward_to_dlq};
use crate::model::{Actor, BrokerKind, Event, EventKind, Stage};
use crate::moments::Fact;
use crate::state::RowChange;
use crate::state::rows::DlqRow;

/// Service Bus's own `DeadLetterErrorDescription` for `MaxDeliveryCountExceeded`: fixed text
/// with the count, never the consumer's exception.
fn max_delivery_description(deliveries: u32) -> String {
    format!("Message could not be consumed after {deliveries} delivery attempts.")
}

impl Simulation {
    /// The broker moves a message whose delivery count would exceed the maximum to the DLQ
    /// instead of handing it out. Service Bus stamps `MaxDeliveryCountExceeded` with its own
    /// fixed description (it never sees the consumer's exception); the SQS redrive policy
    /// records no reason at all. The entry counts the deliveries that took place: this receive
    /// is not one.
    pub(super) fn dead_letter_by_broker(
        &mut self,
        r: &Received,
        token: u64,
    ) -> Result<Event, SimError> {
        let deliveries = r.delivery_count.saturating_sub(1);
        let (reason, description) = match self.spec.broker {
            BrokerKind::Asb => (
                self.spec.profile.dlq_reason.to_string(),
                max_delivery_description(deliveries),
            ),
            BrokerKind::Sqs => (String::new(), String::new()),
        };
        let note = DeadLetterNote {
            reason: &reason,
            description: &description,
            deliveries,
        };
        self.move_to_dlq(Actor::Broker, r.seq, token, &r.message_id, &note)?;
        let (kind, args) = match self.spec.broker {
            BrokerKind::Asb => (
                EventKind::DeadLettered,
                vec![reason, description, deliveries.to_string()],
            ),
            BrokerKind::Sqs => (
                EventKind::Redriven,
                vec![
                    r.message_id.clone(),
                    self.spec.settings.max_deliveries.to_string(),
                    deliveries.to_string(),
                ],
            ),
        };
        Ok(Event::new(Actor::Broker, Stage::Dlq, kind)
            .message(&r.message_id)
            .sql(DEAD_LETTER_SQL)
            .args(args))
    }

    /// Moves queue row `seq` (locked under `token`) to the DLQ and records it in the picture,
    /// the metrics and the facts; false when the row no longer carries that token.
    pub(crate) fn move_to_dlq(
        &mut self,
        actor: Actor,
        seq: i64,
        token: u64,
        message_id: &str,
        note: &DeadLetterNote<'_>,
    ) -> Result<bool, SimError> {
        let dlq_seq = dead_letter(&self.conns.broker, seq, token, note, self.clock.now)
            .ctx(actor, "dead-letter")?;
        let Some(d) = dlq_seq else {
            return Ok(false);
        };
        self.picture_dequeued(seq);
        self.record_dlq_entry(d, message_id, note);
        Ok(true)
    }

    /// SQS: the consumer forwards the message it holds to the DLQ queue and deletes it from
    /// the queue with its receipt handle. Both calls succeed even after the visibility timeout
    /// ran out; with a stale handle (another receive since) the delete removes nothing, so the
    /// message is in the DLQ and still in the queue. Returns whether the delete removed it.
    pub(crate) fn forward_to_dlq(
        &mut self,
        actor: Actor,
        held: &HeldMessage<'_>,
        note: &DeadLetterNote<'_>,
    ) -> Result<bool, SimError> {
        let (d, deleted) = forward_to_dlq(&self.conns.broker, held, note, self.clock.now)
            .ctx(actor, "forward to the DLQ")?;
        if deleted {
            self.picture_dequeued(held.seq);
        }
        self.record_dlq_entry(d, held.message_id, note);
        Ok(deleted)
    }

    /// Puts DLQ entry `d` into the picture, the metrics and the facts.
    fn record_dlq_entry(&mut self, d: i64, message_id: &str, note: &DeadLetterNote<'_>) {
        self.change(RowChange::put(&DlqRow {
            seq: d,
            message_id: message_id.to_string(),
            reason: note.reason.to_string(),
            description: note.description.to_string(),
            delivery_count: note.deliveries,
            replayed_ms: None,
        }));
        self.ledger.dead_lettered();
        self.note(Fact::DeadLettered {
            message_id: message_id.to_string(),
            description: note.description.to_string(),
            delivery_count: note.deliveries,
        });
    }
}

//! What an applied effect and an inbox marker leave behind: the effect row to write, and the
//! rows, counters and facts the live picture and the metrics show for them.

use super::action::Delivery;
use super::inbox::EffectRow;
use super::{CONSUMER_NAME, Simulation};
use crate::moments::Fact;
use crate::state::{RowChange, rows};

impl Simulation {
    /// The next effect row for delivery `d` handled by consumer `c`.
    pub(crate) fn effect_row(
        &mut self,
        c: u8,
        d: &Delivery,
        kind: &'static str,
        amount: i64,
        payload_ok: bool,
    ) -> EffectRow {
        let n = self.ledger.next_business_key();
        EffectRow {
            business_key: format!("CR-{n:08}"),
            order_id: d.order_id,
            message_id: d.message_id.clone(),
            kind,
            amount_cents: amount,
            payload_ok,
            instance: Simulation::instance(c),
        }
    }

    /// Puts an applied effect into the picture and the metrics.
    pub(crate) fn picture_effect(&mut self, e: &EffectRow, effect_id: i64, created: u64) {
        self.change(RowChange::put(&rows::EffectRow {
            id: effect_id,
            business_key: e.business_key.clone(),
            order_id: e.order_id,
            message_id: e.message_id.clone(),
            kind: e.kind.into(),
            applied_ms: self.clock.now,
            instance: e.instance.clone(),
        }));
        self.ledger
            .effect_applied(e.order_id, self.clock.now.saturating_sub(created));
        self.note(Fact::Effect {
            order: e.order_id,
            message_id: e.message_id.clone(),
        });
    }

    pub(crate) fn picture_marker(
        &mut self,
        id: i64,
        message_id: &str,
        instance: &str,
        processed: bool,
    ) {
        let now = self.clock.now;
        self.change(RowChange::put(&rows::InboxRow {
            id,
            message_id: message_id.into(),
            consumer: CONSUMER_NAME.into(),
            instance: instance.into(),
            received_ms: now,
            processed_ms: processed.then_some(now),
        }));
        self.ledger.inbox_marked();
    }
}

//! Safe mode on Service Bus delays a retry the way chapters 10 and 12 teach: abandon would
//! release the message at once and raise its `DeliveryCount` (no delay at all), so the careful
//! consumer sends a copy scheduled for later (`ScheduledEnqueueTime`) under a new broker
//! `MessageId`, with its own attempt counter as an application property, and then completes the
//! delivery it holds. The copy keeps the body, so the envelope's message id, on which the inbox
//! deduplicates, stays the same; its `DeliveryCount` starts at 1 again, so after the last attempt
//! the consumer dead-letters the message itself with a reason of its own.

use rusqlite::{Connection, OptionalExtension, params};

use super::action::{Action, Delivery};
use super::payload::Failure;
use super::{SimError, Simulation, SqlContext};
use crate::model::{Actor, BrokerKind, Event, EventKind, Mode, Stage};
use crate::state::RowChange;
use crate::state::rows::QueueColumn;

/// The scheduled copy: a new `MessageId` (also its duplicate-detection id), hidden until
/// `visible_ms`, the attempt counter one higher; group, body and the envelope's id unchanged.
pub(crate) const SQL_SCHEDULE_COPY: &str = "INSERT INTO queue (message_id, logical_id, order_id, body, \
     enqueued_ms, visible_ms, group_id, dedup_id, attempt) SELECT ?2, logical_id, order_id, body, ?3, ?4, \
     group_id, ?2, attempt + 1 FROM queue WHERE seq = ?1 RETURNING seq";
const SCHEDULE_SQL: &[&str] = &[SQL_SCHEDULE_COPY];

/// The broker `MessageId` of the copy for attempt `attempt`: the envelope's id with `-a<n>`,
/// new to duplicate detection (which would silently drop a copy under the same id).
pub(crate) fn copy_message_id(logical_id: &str, attempt: u32) -> String {
    format!("{logical_id}-a{attempt}")
}

/// Sends the scheduled copy of queue row `seq`; `None` when the row is gone.
pub(crate) fn schedule_copy(
    conn: &Connection,
    seq: i64,
    message_id: &str,
    now: u64,
    visible: u64,
) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached(SQL_SCHEDULE_COPY)?
        .query_row(params![seq, message_id, now as i64, visible as i64], |r| {
            r.get(0)
        })
        .optional()
}

impl Simulation {
    /// True when a failed attempt is retried through a scheduled copy rather than abandon:
    /// the safe consumer on a Service Bus queue without sessions (a copy would go to the end
    /// of its session and overtake nothing there is to keep in order; lab runs whose file
    /// takes over the consumer keep the broker's plain failure path, as their briefs say).
    pub(crate) fn retries_by_scheduled_copy(&self) -> bool {
        self.spec.broker == BrokerKind::Asb
            && self.spec.mode == Mode::Safe
            && !self.spec.settings.ordered
            && !self.lab_takes_consumer()
    }

    /// The retry of a failed attempt through a scheduled copy, or the consumer's own
    /// dead-letter call after the last attempt. The copy goes out first and the delivery is
    /// completed on the next step: a lock lost in between leaves both, a duplicate the inbox
    /// absorbs (chapter 12).
    pub(crate) fn consumer_schedule_copy(
        &mut self,
        c: u8,
        mut d: Delivery,
    ) -> Result<Option<Event>, SimError> {
        let actor = Actor::Consumer(c);
        let max = self.spec.settings.max_deliveries;
        if d.attempt >= max {
            d.dead_letter_reason = Some(Failure::RETRIES_EXHAUSTED);
            self.put_delivery(c, d);
            return self.consumer_dead_letter(c);
        }
        let delay = self.next_retry_delay(d.order_id, d.attempt);
        let next = d.attempt + 1;
        let copy_id = copy_message_id(&d.message_id, next);
        let visible = self.clock.now + delay;
        let Some(copy) =
            schedule_copy(&self.conns.broker, d.seq, &copy_id, self.clock.now, visible)
                .ctx(actor, "schedule a copy")?
        else {
            return Ok(None);
        };
        self.picture_enqueued(copy, &copy_id, None);
        self.change(RowChange::set(
            copy,
            QueueColumn::VisibleMs,
            visible.to_string(),
        ));
        self.schedule(visible, Action::BrokerWake);
        let error = d.error.clone().unwrap_or_default();
        let event = Event::new(actor, Stage::Retry, EventKind::ScheduledCopy)
            .message(&d.message_id)
            .sql(SCHEDULE_SQL)
            .args(vec![
                d.attempt.to_string(),
                delay.to_string(),
                self.spec.settings.retry.jitter.as_str().to_string(),
                error,
                copy_id,
                next.to_string(),
                max.to_string(),
            ]);
        self.put_delivery(c, d);
        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
        Ok(Some(event))
    }
}

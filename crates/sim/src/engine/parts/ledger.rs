//! The run's accounting ([`Ledger`]): each method is one thing that happened in the run and
//! moves every counter it touches, so a rule such as "a delivery is in flight until its lock
//! goes" is written once.

use std::collections::{BTreeSet, HashSet};

use crate::report::Metrics;
use crate::state::StageCounters;

/// The run's accounting: metrics, stage counters and what the invariants and moments need.
#[derive(Default)]
pub(crate) struct Ledger {
    /// Counter metrics (percentiles are computed from `ages` when read).
    metrics: Metrics,
    /// Exact counts per flow-map stage.
    stages: StageCounters,
    /// Age of each message when its effect was applied, ms.
    ages: Vec<u32>,
    /// Effects per order number (index = order).
    effects_per_order: Vec<u8>,
    /// Unpublished outbox rows by (created, id): the oldest gives the outbox lag.
    unpublished: BTreeSet<(u64, i64)>,
    /// The number of the next effect's business key.
    next_effect: u64,
}

/// Adds one to a per-order count (orders outside the run are not counted).
fn count_for(per_order: &mut [u8], order: i64) {
    if let Some(n) = usize::try_from(order)
        .ok()
        .and_then(|i| per_order.get_mut(i))
    {
        *n = n.saturating_add(1);
    }
}

impl Ledger {
    /// The accounting of a run of `messages` orders, numbered from 1, before anything happened.
    pub fn new(messages: u32) -> Ledger {
        Ledger {
            effects_per_order: vec![0; messages as usize + 1],
            next_effect: 1,
            ..Ledger::default()
        }
    }

    /// The stage counters, the counter metrics and how many ages were recorded: what an event's
    /// record carries.
    pub fn counters(&self) -> (StageCounters, Metrics, usize) {
        (self.stages, self.metrics, self.ages.len())
    }

    /// The API (or a lab's accept) committed an order.
    pub fn order_accepted(&mut self) {
        self.stages.accepted += 1;
        self.metrics.accepted += 1;
    }

    /// An outbox row `id` was written at `created_ms`: it waits to be published.
    pub fn outbox_written(&mut self, created_ms: u64, id: i64) {
        self.unpublished.insert((created_ms, id));
        self.stages.outbox_pending += 1;
    }

    /// Outbox rows not published yet.
    pub fn unpublished_rows(&self) -> usize {
        self.unpublished.len()
    }

    /// The oldest unpublished outbox row as (created, id).
    pub fn oldest_unpublished(&self) -> Option<(u64, i64)> {
        self.unpublished.first().copied()
    }

    /// The outbox lag was measured at `lag_ms` (the metric keeps the largest).
    pub fn outbox_lag_seen(&mut self, lag_ms: u64) {
        let m = &mut self.metrics;
        m.outbox_lag_max_ms = m.outbox_lag_max_ms.max(lag_ms);
    }

    /// A dispatcher leased `n` outbox rows.
    pub fn rows_leased(&mut self, n: usize) {
        self.stages.dispatching += n as u64;
    }

    /// A dispatcher let go of the `n` rows of its batch (marked, released or lost in a crash).
    pub fn batch_let_go(&mut self, n: usize) {
        let st = &mut self.stages;
        st.dispatching = st.dispatching.saturating_sub(n as u64);
    }

    /// The outbox rows `ids` leave the backlog without a publish (the dispatcher gave up on
    /// them): each counts as no longer pending.
    pub fn rows_given_up(&mut self, ids: &[i64]) {
        self.unpublished.retain(|(_, id)| !ids.contains(id));
        let st = &mut self.stages;
        st.outbox_pending = st.outbox_pending.saturating_sub(ids.len() as u64);
    }

    /// The outbox rows `ids` were marked published: those still in the backlog leave it.
    pub fn rows_marked_published(&mut self, ids: &HashSet<i64>) {
        let before = self.unpublished.len();
        self.unpublished.retain(|(_, id)| !ids.contains(id));
        let removed = (before - self.unpublished.len()) as u64;
        let st = &mut self.stages;
        st.outbox_pending = st.outbox_pending.saturating_sub(removed);
    }

    /// The broker accepted a published message.
    pub fn published(&mut self) {
        self.metrics.published += 1;
    }

    /// A message (or a copy of one) entered the queue.
    pub fn enqueued(&mut self) {
        self.stages.queued += 1;
    }

    /// A message left the queue (settled or dead-lettered).
    pub fn dequeued(&mut self) {
        self.stages.queued = self.stages.queued.saturating_sub(1);
    }

    /// The broker handed a message to a consumer for its `delivery`-th time.
    pub fn delivered(&mut self, delivery: u32) {
        self.stages.in_flight += 1;
        self.metrics.delivered += 1;
        if delivery > 1 {
            self.metrics.redeliveries += 1;
        }
    }

    /// The broker made a second copy of a message (at-least-once delivery).
    pub fn copied(&mut self) {
        self.metrics.redeliveries += 1;
    }

    /// A delivery's lock (or visibility) ended: the message is no longer in flight.
    pub fn lock_ended(&mut self) {
        self.stages.in_flight = self.stages.in_flight.saturating_sub(1);
    }

    /// A consumer found its lock gone when it tried to settle.
    pub fn lock_lost(&mut self) {
        self.metrics.lock_lost += 1;
    }

    /// A message was scheduled for another try.
    pub fn retried(&mut self) {
        self.metrics.retries += 1;
    }

    /// A guard (inbox, idempotency key, duplicate detection) stopped a duplicate.
    pub fn duplicate_prevented(&mut self) {
        self.metrics.prevented_duplicates += 1;
    }

    /// `n` messages or orders were lost.
    pub fn lost(&mut self, n: usize) {
        self.metrics.lost += n as u64;
    }

    /// A message went to the DLQ.
    pub fn dead_lettered(&mut self) {
        self.stages.dlq += 1;
        self.metrics.dead_lettered += 1;
    }

    /// `n` DLQ entries were replayed and leave the DLQ's count.
    pub fn replayed(&mut self, n: usize) {
        self.stages.dlq = self.stages.dlq.saturating_sub(n as u64);
    }

    /// A consumer wrote an inbox marker.
    pub fn inbox_marked(&mut self) {
        self.stages.inbox += 1;
    }

    /// `n` inbox markers were removed (swept, released or reclaimed).
    pub fn inbox_markers_removed(&mut self, n: usize) {
        self.stages.inbox = self.stages.inbox.saturating_sub(n as u64);
    }

    /// The number for the next effect's business key.
    pub fn next_business_key(&mut self) -> u64 {
        let n = self.next_effect;
        self.next_effect += 1;
        n
    }

    /// An effect of `order` was applied to a message `age_ms` old.
    pub fn effect_applied(&mut self, order: i64, age_ms: u64) {
        self.stages.effects += 1;
        self.metrics.effects += 1;
        count_for(&mut self.effects_per_order, order);
        self.ages.push(u32::try_from(age_ms).unwrap_or(u32::MAX));
    }

    /// The first `n` message ages recorded (all of them when fewer).
    pub fn first_ages(&self, n: usize) -> &[u32] {
        &self.ages[..n.min(self.ages.len())]
    }

    /// The counter metrics with the percentiles of every age recorded so far.
    pub fn metrics_with_ages(&self) -> Metrics {
        let mut metrics = self.metrics;
        metrics.set_ages(&self.ages);
        metrics
    }

    /// True when `order` is one of the run's and has no effect yet.
    pub fn has_no_effect(&self, order: u32) -> bool {
        (self.effects_per_order.get(order as usize)).is_some_and(|n| *n == 0)
    }
}

#[cfg(test)]
mod tests;

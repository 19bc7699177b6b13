//! The dispatcher actor: claims outbox rows with a lease (SQLite has no SKIP LOCKED), publishes
//! them, then marks them. A crash between publish and mark publishes the rows again later.

use rusqlite::params;

use super::action::{Action, Claimed};
use super::lab_dispatch::{LAB_CLAIM_SQL, LAB_PUBLISHED_SQL};
pub(crate) use super::outbox::*;
use super::{SimError, Simulation, SqlContext};
use crate::fault::Fault;
use crate::model::{Actor, BrokerKind, Event, EventKind, Outcome, Stage};
use crate::moments::{Fact, Guard, Loss};
use crate::state::RowChange;
use crate::state::rows::OutboxColumn;

impl Simulation {
    /// Wakes one idle dispatcher at `at` when the outbox has work.
    pub(crate) fn wake_dispatcher(&mut self, at: u64) {
        if !self.outbox_may_have_work(None) {
            return;
        }
        if let Some(d) = self
            .actors
            .dispatchers
            .iter()
            .position(|d| !d.busy && d.down_until <= at)
        {
            self.actors.dispatchers[d].busy = true;
            self.schedule(at, Action::DispatcherPoll(d as u8));
        }
    }

    /// False when every unpublished row is in a batch another dispatcher than `me` holds: a
    /// claim would find nothing (rows whose lease outlived a crashed dispatcher still count,
    /// the claim finds out). Saves the empty claim after most marks.
    fn outbox_may_have_work(&self, me: Option<usize>) -> bool {
        let held: usize = (self.actors.dispatchers.iter().enumerate())
            .filter(|(j, _)| Some(*j) != me)
            .map(|(_, d)| d.batch.len())
            .sum();
        self.ledger.unpublished_rows() > held
    }

    /// The statements a publish ran: the duplicate-detection lookup only on a broker that
    /// has it switched on, and nothing more when it dropped every message.
    fn publish_sql(&self, all_dropped: bool) -> &'static [&'static str] {
        match (self.spec.settings.dedup_window_ms, all_dropped) {
            (None, _) => PUBLISH_SQL,
            (Some(_), true) => PUBLISH_DROPPED_SQL,
            (Some(_), false) => PUBLISH_DEDUP_SQL,
        }
    }

    /// Records the current outbox lag (age of the oldest unpublished row).
    pub(crate) fn note_outbox_lag(&mut self) {
        if let Some((created, outbox_id)) = self.ledger.oldest_unpublished() {
            let lag = self.clock.now.saturating_sub(created);
            self.ledger.outbox_lag_seen(lag);
            self.note(Fact::OutboxLag {
                outbox_id,
                age_ms: lag,
            });
        }
    }

    pub(crate) fn dispatcher_poll(&mut self, d: u8) -> Result<Option<Event>, SimError> {
        let actor = Actor::Dispatcher(d);
        let i = usize::from(d);
        if self.actors.dispatchers[i].down_until > self.clock.now {
            self.actors.dispatchers[i].busy = false;
            return Ok(None);
        }
        self.note_outbox_lag();
        let s = &self.spec.scenario.setup;
        let (lease, batch) = (s.lease_ms, s.batch);
        let rows = self.claim_rows(d, lease, batch)?;
        if rows.is_empty() {
            self.actors.dispatchers[i].busy = false;
            return Ok(None);
        }
        for (c, state) in &rows {
            let cells = [
                (OutboxColumn::LeaseOwner, &state.owner),
                (OutboxColumn::LeaseUntilMs, &state.until),
                (OutboxColumn::Attempts, &state.attempts),
            ];
            for (column, value) in cells {
                self.change(RowChange::set(c.id, column, value.clone()));
            }
        }
        self.ledger.rows_leased(rows.len());
        let first = rows[0].0.message_id.clone();
        let n = rows.len();
        self.actors.dispatchers[i].batch = rows.into_iter().map(|(c, _)| c).collect();
        self.schedule(
            self.clock.now + super::PUBLISH_MS,
            Action::DispatcherPublish(d),
        );
        Ok(Some(
            Event::new(actor, Stage::Dispatcher, EventKind::DispatcherClaimed)
                .message(&first)
                .sql(if self.lab_claims() {
                    LAB_CLAIM_SQL
                } else {
                    CLAIM_SQL
                })
                .args(vec![n.to_string(), lease.to_string()]),
        ))
    }

    pub(crate) fn release_batch(
        &mut self,
        d: u8,
        sql: &'static str,
        reason: Option<&str>,
    ) -> Result<(), SimError> {
        let i = usize::from(d);
        let batch = std::mem::take(&mut self.actors.dispatchers[i].batch);
        let me = owner(d);
        for c in &batch {
            let conn = &self.conns.dispatchers[i];
            match reason {
                Some(r) => conn
                    .prepare_cached(sql)
                    .and_then(|mut s| s.execute(params![c.id, me, r])),
                None => conn
                    .prepare_cached(sql)
                    .and_then(|mut s| s.execute(params![c.id, me])),
            }
            .ctx(Actor::Dispatcher(d), "release the lease")?;
            self.change(RowChange::set(
                c.id,
                OutboxColumn::LeaseOwner,
                String::new(),
            ));
            self.change(RowChange::set(
                c.id,
                OutboxColumn::LeaseUntilMs,
                String::new(),
            ));
        }
        self.ledger.batch_let_go(batch.len());
        if reason.is_some() {
            let ids: Vec<i64> = batch.iter().map(|c| c.id).collect();
            self.ledger.rows_given_up(&ids);
        }
        Ok(())
    }

    pub(crate) fn dispatcher_publish(&mut self, d: u8) -> Result<Event, SimError> {
        let actor = Actor::Dispatcher(d);
        let i = usize::from(d);
        let first = self.actors.dispatchers[i]
            .batch
            .first()
            .map(|c| c.message_id.clone());
        if self.broker_is_down() {
            return self.publish_while_broker_down(d, first.as_deref());
        }
        if let Some(size) = self.oversized_in_batch(i) {
            return self.publish_too_large(d, first.as_deref(), size);
        }
        let batch = self.actors.dispatchers[i].batch.clone();
        if let Some(c) = batch.first() {
            self.lab_queue_for_send(c.group_id.as_deref());
        }
        if batch
            .iter()
            .any(|c| self.refuses_send(c.group_id.as_deref()))
        {
            return self.dispatcher_refused(d);
        }
        self.actors.dispatchers[i].failures = 0;
        let retried = self.send_retried_in(&batch);
        // Every send of the batch: each row once, the retried one twice.
        let sends: Vec<&Claimed> = batch.iter().chain(retried.iter()).collect();
        let results = self.send_to_broker(actor, &sends)?;
        let dropped = self.take_in_sends(&sends, &results);
        let enqueued = sends.len() - dropped;
        // A retried send the broker kept is a second message of its own.
        let kept_twice = retried
            .as_ref()
            .filter(|_| results.last().is_some_and(Option::is_some));
        if let Some(c) = kept_twice {
            self.note(Fact::SentTwice {
                message_id: c.message_id.clone(),
            });
        }
        self.wake_consumers(self.clock.now + 1, enqueued);
        self.lab_note_published(d, &batch);
        // Every send of the batch, for the record (one publish operation each: a retried
        // message is named twice).
        let ids = sends
            .iter()
            .map(|c| c.message_id.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let sql = self.publish_sql(enqueued == 0);
        if self.script.armed.take(Fault::DispatcherCrashAfterPublish) {
            let lease_end = self.crash_after_publish(d, batch.len());
            return Ok(Event::new(
                actor,
                Stage::Dispatcher,
                EventKind::DispatcherCrashedAfterPublish,
            )
            .maybe_message(first.as_deref())
            .sql(sql)
            .outcome(Outcome::Failed)
            .args(vec![enqueued.to_string(), lease_end.to_string(), ids]));
        }
        self.schedule(self.clock.now + 1, Action::DispatcherMark(d));
        if let Some(c) = kept_twice {
            let args = vec![
                batch.len().to_string(),
                dropped.to_string(),
                ids,
                c.message_id.clone(),
            ];
            return Ok(
                Event::new(actor, Stage::Broker, EventKind::PublishedRetried)
                    .message(&c.message_id)
                    .sql(sql)
                    .args(args),
            );
        }
        let caption = if dropped > 0 {
            EventKind::PublishedDedup
        } else {
            EventKind::Published
        };
        Ok(Event::new(actor, Stage::Broker, caption)
            .maybe_message(first.as_deref())
            .sql(sql)
            .args(vec![enqueued.to_string(), dropped.to_string(), ids]))
    }

    /// The broker is down: the dispatcher releases its batch and polls again after its
    /// retry delay.
    fn publish_while_broker_down(&mut self, d: u8, first: Option<&str>) -> Result<Event, SimError> {
        let i = usize::from(d);
        let n = self.actors.dispatchers[i].batch.len();
        self.release_batch(d, SQL_RELEASE, None)?;
        let st = &mut self.actors.dispatchers[i];
        st.failures += 1;
        let (failures, last) = (st.failures, st.last_delay);
        let delay = self
            .spec
            .settings
            .retry
            .delay_ms(failures, last, &mut self.rng);
        self.actors.dispatchers[i].last_delay = delay;
        self.ledger.retried();
        self.schedule(self.clock.now + delay, Action::DispatcherPoll(d));
        Ok(Event::new(
            Actor::Dispatcher(d),
            Stage::Dispatcher,
            EventKind::PublishFailedBrokerDown,
        )
        .maybe_message(first)
        .sql(RELEASE_SQL)
        .outcome(Outcome::Failed)
        .args(vec![n.to_string(), delay.to_string()]))
    }

    /// The size of the first message of dispatcher `i`'s batch over the broker's limit.
    fn oversized_in_batch(&self, i: usize) -> Option<u64> {
        let limit = self.spec.profile.max_message_bytes.value;
        self.actors.dispatchers[i].batch.iter().find_map(|c| {
            let size = c
                .body
                .rsplit_once("inline:")
                .and_then(|(_, b)| b.parse::<u64>().ok())
                .unwrap_or(c.body.len() as u64);
            (size > limit).then_some(size)
        })
    }

    /// A message of the batch is over the broker's size limit: the dispatcher retries, and
    /// after its last attempt gives the batch up (its messages are lost).
    fn publish_too_large(
        &mut self,
        d: u8,
        first: Option<&str>,
        size: u64,
    ) -> Result<Event, SimError> {
        let (actor, i) = (Actor::Dispatcher(d), usize::from(d));
        let limit = self.spec.profile.max_message_bytes.value;
        let attempts = self.actors.dispatchers[i].failures + 1;
        let reason = format!("message size {size} bytes exceeds the broker limit of {limit} bytes");
        self.ledger.retried();
        let args = vec![size.to_string(), limit.to_string()];
        if attempts >= MAX_PUBLISH_ATTEMPTS {
            self.actors.dispatchers[i].failures = 0;
            for c in self.actors.dispatchers[i].batch.clone() {
                self.note(Fact::Lost {
                    message_id: c.message_id,
                    loss: Loss::GaveUp,
                });
            }
            self.release_batch(d, SQL_GIVE_UP, Some(&reason))?;
            self.schedule(self.clock.now + 1, Action::DispatcherPoll(d));
            return Ok(Event::new(actor, Stage::Outbox, EventKind::PublishGaveUp)
                .maybe_message(first)
                .sql(GIVE_UP_SQL)
                .outcome(Outcome::Failed)
                .args(args));
        }
        self.actors.dispatchers[i].failures = attempts;
        self.release_batch(d, SQL_RELEASE, None)?;
        self.schedule(
            self.clock.now + self.spec.settings.retry.base_ms,
            Action::DispatcherPoll(d),
        );
        Ok(
            Event::new(actor, Stage::Dispatcher, EventKind::PublishTooLarge)
                .maybe_message(first)
                .sql(RELEASE_SQL)
                .outcome(Outcome::Failed)
                .args(args),
        )
    }

    /// Sends every message of `sends` to the broker in one transaction; each result is the
    /// queue row, `None` when duplicate detection dropped the message.
    fn send_to_broker(
        &self,
        actor: Actor,
        sends: &[&Claimed],
    ) -> Result<Vec<Option<i64>>, SimError> {
        let conn = &self.conns.broker;
        let tx = super::begin_immediate(conn).ctx(Actor::Broker, "begin publish")?;
        let mut out = Vec::with_capacity(sends.len());
        for c in sends {
            out.push(
                super::broker::enqueue(
                    &tx,
                    self.clock.now,
                    self.spec.settings.dedup_window_ms,
                    &c.message_id,
                    c.order_id,
                    &c.body,
                    c.group_id.as_deref(),
                )
                .ctx(actor, "publish")?,
            );
        }
        tx.commit().ctx(Actor::Broker, "commit publish")?;
        Ok(out)
    }

    /// Puts each kept send into the picture and counts each dropped one as a duplicate the
    /// broker prevented; returns how many were dropped.
    fn take_in_sends(&mut self, sends: &[&Claimed], results: &[Option<i64>]) -> usize {
        let mut dropped = 0;
        for (c, seq) in sends.iter().zip(results) {
            if let Some(seq) = seq {
                self.ledger.published();
                self.picture_enqueued(*seq, &c.message_id, c.group_id.as_deref());
            } else {
                dropped += 1;
                self.ledger.duplicate_prevented();
                self.note(Fact::Prevented {
                    message_id: c.message_id.clone(),
                    guard: Guard::BrokerDedup,
                });
            }
        }
        dropped
    }

    /// The dispatcher crashes right after publishing, before it marks its batch: it restarts
    /// later and the lease keeps the rows until it ends. Returns the lease's end.
    fn crash_after_publish(&mut self, d: u8, batch_len: usize) -> u64 {
        let i = usize::from(d);
        let restart = self.clock.now + self.spec.scenario.setup.restart_ms;
        let lease_end = self.clock.now + self.spec.scenario.setup.lease_ms;
        self.actors.dispatchers[i].batch.clear();
        self.actors.dispatchers[i].down_until = restart;
        self.schedule(restart, Action::DispatcherRestart(d));
        self.schedule(lease_end, Action::LeaseExpiry);
        self.ledger.batch_let_go(batch_len);
        lease_end
    }

    /// The "duplicate delivery" fault on Service Bus: the broker makes no copies of its own,
    /// so a message arrives twice only when it was sent twice. The trigger fires at a send: its
    /// first attempt got no acknowledgement in time, and the SDK sent the message again. The
    /// first message of the batch not sent twice before is the one retried.
    fn send_retried_in(&mut self, batch: &[Claimed]) -> Option<Claimed> {
        if self.spec.broker != BrokerKind::Asb {
            return None;
        }
        let c = batch
            .iter()
            .find(|c| !self.actors.broker.duplicated.contains(&c.order_id))?;
        if !self.script.armed.take(Fault::DuplicateDelivery) {
            return None;
        }
        self.actors.broker.duplicated.insert(c.order_id);
        Some(c.clone())
    }

    pub(crate) fn dispatcher_mark(&mut self, d: u8) -> Result<Event, SimError> {
        let actor = Actor::Dispatcher(d);
        let i = usize::from(d);
        let batch = std::mem::take(&mut self.actors.dispatchers[i].batch);
        let (marked, states) = self.mark_rows(d, &batch)?;
        for (id, state) in &states {
            let cells = [
                (OutboxColumn::PublishedMs, &state.published),
                (OutboxColumn::LeaseOwner, &state.owner),
                (OutboxColumn::LeaseUntilMs, &state.until),
            ];
            for (column, value) in cells {
                self.change(RowChange::set(*id, column, value.clone()));
            }
        }
        // Only a row the mark left published leaves the outbox's backlog.
        let ids_set: std::collections::HashSet<i64> = (states.iter())
            .filter(|(_, st)| !st.published.is_empty())
            .map(|(id, _)| *id)
            .collect();
        self.ledger.rows_marked_published(&ids_set);
        self.ledger.batch_let_go(batch.len());
        self.note_outbox_lag();
        // A learner's mark that left a row unmarked: no poll of its own (a claim that returns
        // that row again would loop); the next order or lease expiry wakes a dispatcher.
        let stuck = self.lab_marks() && marked < batch.len();
        if self.outbox_may_have_work(Some(i)) && !stuck {
            self.schedule(self.clock.now + 1, Action::DispatcherPoll(d));
        } else {
            self.actors.dispatchers[i].busy = false;
        }
        let first = batch.first().map(|c| c.message_id.clone());
        let (caption, outcome) = if marked == batch.len() {
            (EventKind::DispatcherMarked, Outcome::Ok)
        } else {
            (EventKind::DispatcherMarkLeaseLost, Outcome::Failed)
        };
        Ok(Event::new(actor, Stage::Outbox, caption)
            .maybe_message(first.as_deref())
            .sql(if self.lab_marks() {
                LAB_PUBLISHED_SQL
            } else {
                MARK_SQL
            })
            .outcome(outcome)
            .args(vec![marked.to_string(), batch.len().to_string()]))
    }

    pub(crate) fn dispatcher_restart(&mut self, d: u8) -> Event {
        let i = usize::from(d);
        self.actors.dispatchers[i].busy = false;
        self.wake_dispatcher(self.clock.now);
        Event::new(
            Actor::Dispatcher(d),
            Stage::Dispatcher,
            EventKind::DispatcherRestarted,
        )
    }
}

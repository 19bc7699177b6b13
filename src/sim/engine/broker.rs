//! The broker actor: enqueue with duplicate detection, receive with a lock / visibility
//! timeout, complete, abandon with delay, dead-letter, lock expiry. The SQL lives in free
//! functions over a connection so that it can be tested against a real file on its own.

use rand::RngExt;
use rusqlite::{Connection, OptionalExtension, params};

use super::actions::Action;
use super::{SimError, Simulation, SqlContext};
use crate::sim::model::{Actor, BrokerKind, Event, Outcome, Stage};
use crate::sim::state::{RowChange, Table, col};

pub(crate) const SQL_DEDUP_SEEN: &str = "SELECT first_seen_ms FROM dedup WHERE dedup_id = ?1";
pub(crate) const SQL_DEDUP_PUT: &str = "INSERT INTO dedup (dedup_id, first_seen_ms) VALUES (?1, ?2) \
     ON CONFLICT(dedup_id) DO UPDATE SET first_seen_ms = excluded.first_seen_ms";
pub(crate) const SQL_ENQUEUE: &str = "INSERT INTO queue (message_id, order_id, body, enqueued_ms, visible_ms, \
     group_id, dedup_id) VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?1) RETURNING seq";
pub(crate) const SQL_RECEIVE: &str = "UPDATE queue SET visible_ms = ?1 + ?2, locked_until_ms = ?1 + ?2, \
     lock_token = ?3, delivery_count = delivery_count + 1 WHERE seq = (SELECT seq FROM queue \
     WHERE visible_ms <= ?1 ORDER BY seq LIMIT 1 OFFSET ?4) \
     RETURNING seq, message_id, order_id, body, delivery_count";
/// Per-group order (sessions / FIFO groups): nothing is handed out while an earlier message
/// of the same group is still in the queue.
pub(crate) const SQL_RECEIVE_ORDERED: &str = "UPDATE queue SET visible_ms = ?1 + ?2, locked_until_ms = ?1 + ?2, \
     lock_token = ?3, delivery_count = delivery_count + 1 WHERE seq = (SELECT q.seq FROM queue q \
     WHERE q.visible_ms <= ?1 AND (q.group_id IS NULL OR NOT EXISTS (SELECT 1 FROM queue p \
     WHERE p.group_id = q.group_id AND p.seq < q.seq)) ORDER BY q.seq LIMIT 1 OFFSET ?4) \
     RETURNING seq, message_id, order_id, body, delivery_count";
pub(crate) const SQL_COMPLETE: &str =
    "DELETE FROM queue WHERE seq = ?1 AND lock_token = ?2 AND locked_until_ms > ?3";
pub(crate) const SQL_ABANDON: &str = "UPDATE queue SET visible_ms = ?3, locked_until_ms = NULL, lock_token = NULL \
     WHERE seq = ?1 AND lock_token = ?2";
pub(crate) const SQL_DEAD_LETTER: &str = "INSERT INTO dlq (message_id, order_id, body, reason, description, \
     delivery_count, dead_lettered_ms) SELECT message_id, order_id, body, ?2, ?3, delivery_count, ?4 \
     FROM queue WHERE seq = ?1 RETURNING seq";
pub(crate) const SQL_DELETE: &str = "DELETE FROM queue WHERE seq = ?1";
pub(crate) const SQL_DUPLICATE: &str = "INSERT INTO queue (message_id, order_id, body, enqueued_ms, visible_ms, \
     delivery_count, group_id, dedup_id) SELECT message_id, order_id, body, ?2, ?2, 0, group_id, dedup_id \
     FROM queue WHERE seq = ?1 RETURNING seq";

const RECEIVE_SQL: &[&str] = &[SQL_RECEIVE];
const RECEIVE_ORDERED_SQL: &[&str] = &[SQL_RECEIVE_ORDERED];
const RECEIVE_DUP_SQL: &[&str] = &[SQL_RECEIVE, SQL_DUPLICATE];
const DEAD_LETTER_SQL: &[&str] = &["BEGIN IMMEDIATE", SQL_DEAD_LETTER, SQL_DELETE, "COMMIT"];

/// A message as the broker hands it out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Received {
    pub seq: i64,
    pub message_id: String,
    pub order_id: i64,
    pub body: String,
    pub delivery_count: u32,
}

/// The lock token / receipt handle text.
pub(crate) fn token_text(token: u64) -> String {
    format!("lt-{token}")
}

/// Enqueues one message unless the broker saw its id within `dedup_window`; `None` = dropped.
pub(crate) fn enqueue(
    conn: &Connection,
    now: u64,
    dedup_window: Option<u64>,
    message_id: &str,
    order_id: i64,
    body: &str,
    group: Option<&str>,
) -> rusqlite::Result<Option<i64>> {
    if let Some(window) = dedup_window {
        let seen: Option<i64> = conn
            .prepare_cached(SQL_DEDUP_SEEN)?
            .query_row(params![message_id], |r| r.get(0))
            .optional()?;
        if seen.is_some_and(|t| now.saturating_sub(t as u64) < window) {
            return Ok(None);
        }
        conn.prepare_cached(SQL_DEDUP_PUT)?
            .execute(params![message_id, now as i64])?;
    }
    conn.prepare_cached(SQL_ENQUEUE)?
        .query_row(
            params![message_id, order_id, body, now as i64, group],
            |r| r.get(0),
        )
        .map(Some)
}

/// Receives the first visible message (skipping `offset` for SQS standard's loose order).
pub(crate) fn receive(
    conn: &Connection,
    now: u64,
    lock_ms: u64,
    token: u64,
    ordered: bool,
    offset: u32,
) -> rusqlite::Result<Option<Received>> {
    let sql = if ordered {
        SQL_RECEIVE_ORDERED
    } else {
        SQL_RECEIVE
    };
    conn.prepare_cached(sql)?
        .query_row(
            params![now as i64, lock_ms as i64, token_text(token), offset],
            |r| {
                Ok(Received {
                    seq: r.get(0)?,
                    message_id: r.get(1)?,
                    order_id: r.get(2)?,
                    body: r.get(3)?,
                    delivery_count: r.get::<_, u32>(4)?,
                })
            },
        )
        .optional()
}

/// Completes (deletes) a message; false when the lock was lost.
pub(crate) fn complete(
    conn: &Connection,
    seq: i64,
    token: u64,
    now: u64,
) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached(SQL_COMPLETE)?
        .execute(params![seq, token_text(token), now as i64])?
        == 1)
}

/// Abandons a message so that it becomes visible at `visible_at`; false when the lock was lost.
pub(crate) fn abandon(
    conn: &Connection,
    seq: i64,
    token: u64,
    visible_at: u64,
) -> rusqlite::Result<bool> {
    Ok(conn.prepare_cached(SQL_ABANDON)?.execute(params![
        seq,
        token_text(token),
        visible_at as i64
    ])? == 1)
}

/// Moves a message to the DLQ in one transaction; returns the DLQ sequence number.
pub(crate) fn dead_letter(
    conn: &Connection,
    seq: i64,
    reason: &str,
    description: &str,
    now: u64,
) -> rusqlite::Result<Option<i64>> {
    let tx = super::begin_immediate(conn)?;
    let dlq_seq: Option<i64> = tx
        .prepare_cached(SQL_DEAD_LETTER)?
        .query_row(params![seq, reason, description, now as i64], |r| r.get(0))
        .optional()?;
    tx.prepare_cached(SQL_DELETE)?.execute(params![seq])?;
    tx.commit()?;
    Ok(dlq_seq)
}

/// Leaves a second copy of message `seq` in the queue (duplicate delivery).
pub(crate) fn duplicate(conn: &Connection, seq: i64, now: u64) -> rusqlite::Result<i64> {
    conn.prepare_cached(SQL_DUPLICATE)?
        .query_row(params![seq, now as i64], |r| r.get(0))
}

impl Simulation {
    /// True while the broker outage lasts.
    pub(crate) fn broker_is_down(&self) -> bool {
        self.broker_down_until > self.now
    }

    /// Puts a queue row into the picture.
    pub(crate) fn picture_enqueued(&mut self, seq: i64, message_id: &str, group: Option<&str>) {
        self.change(RowChange::Put(
            Table::Queue,
            seq,
            vec![
                seq.to_string(),
                message_id.to_string(),
                self.now.to_string(),
                String::new(),
                "0".into(),
                group.unwrap_or_default().to_string(),
            ],
        ));
        self.live.scalars.stages.queued += 1;
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
            self.now,
            self.set.dedup_window_ms,
            msg,
            order_id,
            body,
            group,
        )
        .ctx(actor, "enqueue")?;
        match seq {
            Some(seq) => {
                self.m().published += 1;
                self.picture_enqueued(seq, msg, group);
                self.wake_consumers(self.now + 1, 1);
            }
            None => self.m().prevented_duplicates += 1,
        }
        Ok(seq)
    }

    /// Wakes up to `n` idle consumers at `at`.
    pub(crate) fn wake_consumers(&mut self, at: u64, n: usize) {
        let mut woken = 0;
        for c in 0..self.consumers.len() {
            if woken == n {
                break;
            }
            let st = &mut self.consumers[c];
            if st.busy.is_none() && !st.poll_scheduled && st.down_until <= at {
                st.poll_scheduled = true;
                woken += 1;
                self.schedule(at, Action::ConsumerPoll(c as u8));
            }
        }
    }

    /// The broker side of a consumer's receive. `None` when nothing is visible.
    pub(crate) fn broker_receive(&mut self, c: u8) -> Result<Option<(Received, Event)>, SimError> {
        let actor = Actor::Consumer(c);
        let token = self.next_token;
        self.next_token += 1;
        let offset = match self.broker {
            // SQS standard: best-effort order; sometimes a later message comes first.
            BrokerKind::Sqs if !self.set.ordered && self.set.dedup_window_ms.is_none() => {
                u32::from(self.rng.random_bool(0.2))
            }
            _ => 0,
        };
        let mut got = receive(
            &self.conns.broker,
            self.now,
            self.set.lock_ms,
            token,
            self.set.ordered,
            offset,
        )
        .ctx(actor, "receive")?;
        if got.is_none() && offset > 0 {
            got = receive(
                &self.conns.broker,
                self.now,
                self.set.lock_ms,
                token,
                self.set.ordered,
                0,
            )
            .ctx(actor, "receive")?;
        }
        let Some(r) = got else {
            return Ok(None);
        };
        self.locks.insert(r.seq, token);
        let until = self.now + self.set.lock_ms;
        self.schedule(until, Action::LockExpiry { seq: r.seq, token });
        self.change(RowChange::Set(
            Table::Queue,
            r.seq,
            col::QUEUE_VISIBLE,
            until.to_string(),
        ));
        self.change(RowChange::Set(
            Table::Queue,
            r.seq,
            col::QUEUE_LOCK,
            token_text(token),
        ));
        self.change(RowChange::Set(
            Table::Queue,
            r.seq,
            col::QUEUE_DELIVERIES,
            r.delivery_count.to_string(),
        ));
        self.live.scalars.stages.in_flight += 1;
        self.m().delivered += 1;
        if r.delivery_count > 1 {
            self.m().redeliveries += 1;
        }
        // Each message is duplicated at most once, so a trigger hits distinct messages.
        let fresh = !self.duplicated.contains(&r.order_id);
        let standard_dup = fresh
            && self.broker == BrokerKind::Sqs
            && !self.set.ordered
            && self.set.dedup_window_ms.is_none()
            && self.scenario.setup.duplicate_rate > 0.0
            && self.rng.random_bool(self.scenario.setup.duplicate_rate);
        let forced_dup =
            fresh && !standard_dup && self.armed.take(crate::sim::fault::Fault::DuplicateDelivery);
        if standard_dup || forced_dup {
            self.duplicated.insert(r.order_id);
        }
        let sql = if standard_dup || forced_dup {
            let copy = duplicate(&self.conns.broker, r.seq, self.now)
                .ctx(Actor::Broker, "duplicate delivery")?;
            self.m().redeliveries += 1;
            self.picture_enqueued(copy, &r.message_id, None);
            self.wake_consumers(self.now + 1, 1);
            RECEIVE_DUP_SQL
        } else if self.set.ordered {
            RECEIVE_ORDERED_SQL
        } else {
            RECEIVE_SQL
        };
        let caption = match (standard_dup || forced_dup, r.delivery_count > 1) {
            (true, _) => "sim.received-twice",
            (false, true) => "sim.received-again",
            (false, false) => "sim.received",
        };
        let ev = Simulation::ev(
            actor,
            Stage::Consumer,
            Some(&r.message_id),
            caption,
            sql,
            Outcome::Ok,
            vec![r.delivery_count.to_string(), self.set.lock_ms.to_string()],
        );
        Ok(Some((r, ev)))
    }

    /// Removes a settled / dead-lettered row from the picture and the lock table.
    pub(crate) fn picture_dequeued(&mut self, seq: i64) {
        if self.locks.remove(&seq).is_some() {
            self.live.scalars.stages.in_flight =
                self.live.scalars.stages.in_flight.saturating_sub(1);
        }
        self.change(RowChange::Delete(Table::Queue, seq));
        self.live.scalars.stages.queued = self.live.scalars.stages.queued.saturating_sub(1);
        self.last_error.remove(&seq);
    }

    /// Dead-letters queue row `seq` with the profile's reason.
    pub(crate) fn dead_letter_now(
        &mut self,
        actor: Actor,
        seq: i64,
        message_id: &str,
        description: &str,
    ) -> Result<Event, SimError> {
        let reason = self.profile.dlq_reason;
        let dlq_seq = dead_letter(&self.conns.broker, seq, reason, description, self.now)
            .ctx(actor, "dead-letter")?;
        self.picture_dequeued(seq);
        if let Some(d) = dlq_seq {
            self.change(RowChange::Put(
                Table::Dlq,
                d,
                vec![
                    d.to_string(),
                    message_id.to_string(),
                    reason.into(),
                    description.into(),
                    self.set.max_deliveries.to_string(),
                    String::new(),
                ],
            ));
            self.live.scalars.stages.dlq += 1;
            self.m().dead_lettered += 1;
        }
        Ok(Simulation::ev(
            actor,
            Stage::Dlq,
            Some(message_id),
            "sim.dead-lettered",
            DEAD_LETTER_SQL,
            Outcome::Ok,
            vec![reason.into(), description.into()],
        ))
    }

    /// A lock / visibility timeout ran out: the message is visible again.
    pub(crate) fn lock_expiry(&mut self, seq: i64, token: u64) -> Option<Event> {
        if self.locks.get(&seq) != Some(&token) {
            return None;
        }
        self.locks.remove(&seq);
        self.live.scalars.stages.in_flight = self.live.scalars.stages.in_flight.saturating_sub(1);
        self.change(RowChange::Set(
            Table::Queue,
            seq,
            col::QUEUE_LOCK,
            String::new(),
        ));
        self.wake_consumers(self.now, 1);
        let caption = match self.broker {
            BrokerKind::Asb => "sim.lock-expired",
            BrokerKind::Sqs => "sim.visibility-expired",
        };
        Some(Simulation::ev(
            Actor::Broker,
            Stage::Broker,
            None,
            caption,
            &[],
            Outcome::Ok,
            vec![seq.to_string(), self.set.lock_ms.to_string()],
        ))
    }

    /// The outage ends: wake everyone who waited.
    pub(crate) fn broker_up(&mut self) -> Event {
        for c in &mut self.consumers {
            c.waiting_for_broker = false;
        }
        let n = self.consumers.len();
        self.wake_consumers(self.now, n);
        self.wake_dispatcher(self.now);
        Simulation::ev(
            Actor::Broker,
            Stage::Broker,
            None,
            "sim.broker-up",
            &[],
            Outcome::Ok,
            vec![],
        )
    }
}

//! The API actor: accepts orders idempotently on the request id and writes the outbox row in
//! the same transaction (or, in the publish-in-request pitfall, publishes directly).

use rand::RngExt;
use rusqlite::{OptionalExtension, params};

use super::action::Action;
use super::lab_accept::AcceptRequest;
use super::{SimError, Simulation, SqlContext};
use crate::fault::Fault;
use crate::model::{Actor, Event, EventKind, Outcome, Pitfall, Stage};
use crate::moments::{Fact, Loss};
use crate::state::RowChange;
use crate::state::rows::{OrderRow, OutboxRow};

pub(crate) const SQL_ORDER_INSERT: &str = "INSERT INTO orders (request_id, customer, amount_cents, created_ms) \
     VALUES (?1, ?2, ?3, ?4) ON CONFLICT(request_id) DO NOTHING RETURNING id";
pub(crate) const SQL_ORDER_FIND: &str = "SELECT id FROM orders WHERE request_id = ?1";
pub(crate) const SQL_OUTBOX_INSERT: &str = "INSERT INTO outbox (message_id, order_id, body, blob_key, blob_sha256, \
     group_id, created_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id";

const API_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    SQL_ORDER_INSERT,
    SQL_OUTBOX_INSERT,
    "COMMIT",
];
const API_RETRY_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    SQL_ORDER_INSERT,
    SQL_ORDER_FIND,
    "COMMIT",
];
/// Publish-in-request when the broker is unreachable: only the order was written.
const API_ORDER_ONLY_SQL: &[&str] = &["BEGIN IMMEDIATE", SQL_ORDER_INSERT, "COMMIT"];
const API_DIRECT_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    SQL_ORDER_INSERT,
    "COMMIT",
    super::broker::SQL_ENQUEUE,
];
/// Publish-in-request on a broker with duplicate detection.
const API_DIRECT_DEDUP_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    SQL_ORDER_INSERT,
    "COMMIT",
    super::broker::SQL_DEDUP_SEEN,
    super::broker::SQL_DEDUP_PUT,
    super::broker::SQL_ENQUEUE,
];
/// Publish-in-request the broker dropped as a duplicate (only the lookup ran).
const API_DIRECT_DROPPED_SQL: &[&str] = &[
    "BEGIN IMMEDIATE",
    SQL_ORDER_INSERT,
    "COMMIT",
    super::broker::SQL_DEDUP_SEEN,
];

/// Body schema the consumer understands from the start.
pub(crate) const BODY_V1: &str = "v1";
/// Body schema of poison messages (understood only after the cause is fixed).
pub(crate) const BODY_V2: &str = "v2";

/// Stable ids derived from the order number: the client reuses them on every retry.
pub(crate) fn request_id(order: u32) -> String {
    format!("req-{order:06}")
}

/// A deterministic amount per order (the same on a client retry).
fn amount_cents(order: u32) -> i64 {
    500 + i64::from(order.wrapping_mul(7_919) % 9_500)
}

/// The customer of an order: with `groups` customers, orders come in pairs that take turns
/// (orders 1 and 2 go to `customer-1`, 3 and 4 to the next); without groups one customer. A
/// pair makes two orders of one customer arrive back to back, so that two consumer instances
/// can hold them at once when nothing keeps the customer's orders in sequence.
pub(crate) fn customer_of(order: u32, groups: u32) -> String {
    if groups == 0 {
        "customer".into()
    } else {
        format!("customer-{}", order.div_ceil(2) % groups)
    }
}

/// The same customer's order just before `order` (see [`customer_of`]): the first of its pair,
/// else the second of the customer's previous pair, `groups` pairs back; None for a
/// customer's first order and when order does not matter (`groups` 0).
pub(crate) fn previous_order_of(order: u32, groups: u32) -> Option<u32> {
    if groups == 0 || order == 0 {
        return None;
    }
    if order.is_multiple_of(2) {
        return Some(order - 1);
    }
    let pair = order.div_ceil(2);
    (pair > groups).then(|| 2 * (pair - groups))
}

/// What the built-in API's transaction did.
enum Commit {
    /// A new order, with its outbox row unless the message is published in the request.
    New {
        order_id: i64,
        outbox_id: Option<i64>,
    },
    /// The request id was saved before: this order.
    Existing(i64),
}

impl Simulation {
    /// `ms` with the scenario's timing jitter drawn from the seed: `ms` plus up to
    /// `timing_jitter_pct` percent, so that different seeds give different interleavings.
    pub(crate) fn jittered(&mut self, ms: u64) -> u64 {
        let spread = ms * u64::from(self.spec.scenario.setup.timing_jitter_pct) / 100;
        if spread == 0 {
            ms
        } else {
            ms + self.rng.random_range(0..=spread)
        }
    }

    pub(crate) fn api_request(&mut self, order: u32, retry: bool) -> Result<Event, SimError> {
        if !retry && order < self.spec.messages {
            self.schedule_arrival(order + 1);
        }
        let request_id = request_id(order);
        // Every request makes a new message id, as chapter 8's code does; the engine's own API
        // never writes a retry's message, so only a lab's `@accept` sees it.
        let message_id = if retry && self.lab_accepts() {
            self.lab_retry_message_id(order)
        } else {
            crate::model::order_message_id(order)
        };
        let amount = amount_cents(order);
        let customer = customer_of(order, self.spec.scenario.setup.groups);
        let group = self.message_group(&customer, &message_id);
        let poison = !retry && self.script.armed.take(Fault::PoisonMessage);
        let version = if poison { BODY_V2 } else { BODY_V1 };
        let (body, blob) = self.api_body(order, version, amount)?;
        let direct = self.spec.settings.pitfall == Some(Pitfall::PublishInRequest);
        let req = AcceptRequest {
            order,
            retry,
            request_id,
            message_id,
            customer,
            amount_cents: amount,
            body,
            group,
        };
        if self.lab_accepts() {
            return self.lab_accept(&req);
        }
        let (order_id, outbox_id) = match self.api_commit(&req, blob, direct)? {
            Commit::New {
                order_id,
                outbox_id,
            } => (order_id, outbox_id),
            Commit::Existing(existing) => {
                return Ok(Event::new(Actor::Api, Stage::Api, EventKind::ApiSameOrder)
                    .message(&req.message_id)
                    .sql(API_RETRY_SQL)
                    .args(vec![req.request_id, existing.to_string()]));
            }
        };
        let msg = req.message_id.as_str();
        self.picture_order(order_id, &req.request_id, amount);
        if let Some(id) = outbox_id {
            self.picture_outbox_written(id, msg);
            self.wake_dispatcher(self.clock.now + 1);
        }
        self.note(Fact::Accepted {
            order: order_id,
            message_id: msg.to_owned(),
            outbox_id,
        });
        if direct {
            return self.api_publish_direct(order_id, msg, &req.body, req.group.as_deref());
        }
        let args = vec![req.request_id.clone(), order_id.to_string()];
        if !retry && self.script.armed.take(Fault::ApiTimeoutAfterCommit) {
            let again = self.clock.now + self.spec.scenario.setup.client_retry_ms;
            self.schedule(again, Action::ApiRequest { order, retry: true });
            return Ok(
                Event::new(Actor::Api, Stage::Api, EventKind::ApiTimeoutAfterCommit)
                    .message(msg)
                    .sql(API_SQL)
                    .outcome(Outcome::Unknown)
                    .args(args),
            );
        }
        let caption = if poison {
            EventKind::ApiAcceptedPoison
        } else {
            EventKind::ApiAccepted
        };
        Ok(Event::new(Actor::Api, Stage::Api, caption)
            .message(msg)
            .sql(API_SQL)
            .args(args))
    }

    /// The client sends order `order` after the scenario's (jittered) arrival interval.
    fn schedule_arrival(&mut self, order: u32) {
        let next = self.clock.now + self.jittered(self.spec.scenario.setup.arrival_ms);
        let retry = false;
        self.schedule(next, Action::ApiRequest { order, retry });
    }

    /// The built-in API's transaction: the order, and beside it the outbox row unless the
    /// message is published in the request. A request id already saved commits nothing new.
    fn api_commit(
        &self,
        req: &AcceptRequest,
        blob: Option<(String, String)>,
        direct: bool,
    ) -> Result<Commit, SimError> {
        let actor = Actor::Api;
        let now = self.clock.now as i64;
        let tx =
            super::begin_immediate(&self.conns.api).ctx(actor, "begin the order transaction")?;
        let new_id: Option<i64> = tx
            .prepare_cached(SQL_ORDER_INSERT)
            .and_then(|mut s| {
                let (id, customer) = (&req.request_id, &req.customer);
                s.query_row(params![id, customer, req.amount_cents, now], |r| r.get(0))
                    .optional()
            })
            .ctx(actor, "insert the order")?;
        let Some(order_id) = new_id else {
            let existing: i64 = tx
                .prepare_cached(SQL_ORDER_FIND)
                .and_then(|mut s| s.query_row(params![req.request_id], |r| r.get(0)))
                .ctx(actor, "find the order by request id")?;
            tx.commit().ctx(actor, "commit")?;
            return Ok(Commit::Existing(existing));
        };
        let mut outbox_id = None;
        if !direct {
            let (key, sha) = blob.unzip();
            let (msg, body, group) = (&req.message_id, &req.body, &req.group);
            outbox_id = Some(
                tx.prepare_cached(SQL_OUTBOX_INSERT)
                    .and_then(|mut s| {
                        s.query_row(params![msg, order_id, body, key, sha, group, now], |r| {
                            r.get::<_, i64>(0)
                        })
                    })
                    .ctx(actor, "insert the outbox row")?,
            );
        }
        tx.commit().ctx(actor, "commit the order")?;
        Ok(Commit::New {
            order_id,
            outbox_id,
        })
    }

    /// Puts a committed order into the picture and counts it accepted.
    pub(crate) fn picture_order(&mut self, id: i64, request_id: &str, amount_cents: i64) {
        self.change(RowChange::put(&OrderRow {
            id,
            request_id: request_id.to_owned(),
            amount_cents,
            created_ms: self.clock.now,
        }));
        self.ledger.order_accepted();
    }

    /// Puts an outbox row written beside its order into the picture and the outbox's backlog.
    pub(crate) fn picture_outbox_written(&mut self, id: i64, message_id: &str) {
        self.change(RowChange::put(&OutboxRow::written(
            id,
            message_id.to_owned(),
            self.clock.now,
        )));
        self.ledger.outbox_written(self.clock.now, id);
    }

    /// The message body, and for claim-check the blob key and checksum.
    fn api_body(
        &mut self,
        order: u32,
        version: &str,
        amount: i64,
    ) -> Result<(String, Option<(String, String)>), SimError> {
        let s = &self.spec.scenario.setup;
        if !s.claim_check {
            return Ok((
                format!("{version}|{order}|{amount}|{}|-", self.clock.now),
                None,
            ));
        }
        if self.spec.settings.pitfall == Some(Pitfall::InlinePayload) {
            // Base64 grows the payload by a third; the body only records the size it would have.
            let bytes = u64::from(s.payload_kib) * 1024 * 4 / 3;
            return Ok((
                format!(
                    "{version}|{order}|{amount}|{}|inline:{bytes}",
                    self.clock.now
                ),
                None,
            ));
        }
        let len = s.payload_kib as usize * 1024;
        let mut payload = vec![0_u8; len];
        self.rng.fill(&mut payload[..]);
        // Unpredictable name: 128 random bits from the run's RNG (seeded, so the trace stays
        // reproducible; a production store would use a CSPRNG).
        let key = format!(
            "{:016x}{:016x}",
            self.rng.random::<u64>(),
            self.rng.random::<u64>()
        );
        let sha = self
            .blobs
            .put(&key, &payload)
            .map_err(|e| SimError::Blob(e.to_string()))?;
        if self.script.armed.take(Fault::BlobMissing) {
            self.blobs.remove(&key);
        } else if self.script.armed.take(Fault::BlobHashMismatch) {
            self.blobs
                .corrupt(&key)
                .map_err(|e| SimError::Blob(e.to_string()))?;
        }
        Ok((
            format!(
                "{version}|{order}|{amount}|{}|blob:{key}:{sha}",
                self.clock.now
            ),
            Some((key, sha)),
        ))
    }

    /// Pitfall: publish inside the request. When the broker is down the order is committed but
    /// no message will ever exist.
    fn api_publish_direct(
        &mut self,
        order_id: i64,
        msg: &str,
        body: &str,
        group: Option<&str>,
    ) -> Result<Event, SimError> {
        let args = vec![msg.to_string(), order_id.to_string()];
        if self.broker_is_down() {
            self.ledger.lost(1);
            self.note(Fact::Lost {
                message_id: msg.to_string(),
                loss: Loss::DirectPublishFailed,
            });
            return Ok(
                Event::new(Actor::Api, Stage::Api, EventKind::ApiDirectPublishFailed)
                    .message(msg)
                    .sql(API_ORDER_ONLY_SQL)
                    .outcome(Outcome::Failed)
                    .args(args),
            );
        }
        let seq = self.enqueue(Actor::Api, msg, order_id, body, group)?;
        let sql = match (self.spec.settings.dedup_window_ms, seq) {
            (None, _) => API_DIRECT_SQL,
            (Some(_), Some(_)) => API_DIRECT_DEDUP_SQL,
            (Some(_), None) => API_DIRECT_DROPPED_SQL,
        };
        Ok(
            Event::new(Actor::Api, Stage::Broker, EventKind::ApiDirectPublished)
                .message(msg)
                .sql(sql)
                .args(args),
        )
    }
}

#[cfg(test)]
mod customer_tests {
    use super::{customer_of, previous_order_of};

    #[test]
    fn the_previous_order_is_the_customers_last_one_before() {
        for groups in 1..=4 {
            for order in 1..=60 {
                let expected = (1..order)
                    .rev()
                    .find(|o| customer_of(*o, groups) == customer_of(order, groups));
                assert_eq!(
                    previous_order_of(order, groups),
                    expected,
                    "order {order} with {groups} customers"
                );
            }
        }
        assert_eq!(
            previous_order_of(5, 0),
            None,
            "one customer, order does not matter"
        );
    }
}

//! The API's hook point in a lab run: the learner's `@accept` instead of the engine's own
//! order + outbox transaction (labs 2 and 5). The section runs on the API's connection; what it
//! committed (the order, outbox rows) is read back and put into the picture, the ledger and the
//! facts exactly as the built-in API does, so the dispatcher publishes the outbox rows with the
//! engine's own SQL and moments and checkers judge the run like any run.
//!
//! `publish(:message_id, :body)` hands a message to the broker right after its statement,
//! outside the transaction: during an outage it fails (the statement errors, the request
//! fails), and a rollback does not take it back. The scenario's API timeout strikes once
//! something is durable beyond the request (an order committed, a message published): the rest
//! of the section does not run, an open transaction rolls back, the client retries.
//!
//! This file runs the section; [`statement`] runs each of its statements and decides what
//! follows, [`committed`] reads back what the section left and ends the request.

mod committed;
mod queue_kind;
mod statement;

use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension};

use super::{SimError, Simulation, SqlContext};
use crate::lab::{LabFileError, LabFileErrorKind, Section, TrailEntry};
use crate::model::{Actor, Event};

/// What an event of the learner's `@accept` shows in the SQL view.
pub(crate) const LAB_ACCEPT_SQL: &[&str] = &["-- @accept (your lab file)"];

const SQL_ORDER_OF_REQUEST: &str = "SELECT id FROM orders WHERE request_id = ?1";

/// One request as the API received it.
#[derive(Clone)]
pub(crate) struct AcceptRequest {
    /// The order number (the client's counter).
    pub order: u32,
    /// A client retry of an earlier request.
    pub retry: bool,
    pub request_id: String,
    pub message_id: String,
    pub customer: String,
    pub amount_cents: i64,
    pub body: String,
    pub group: Option<String>,
}

/// How the section ended.
enum End {
    /// Every statement ran.
    Done,
    /// A statement failed (SQLite or a publish the broker refused): the request fails.
    Failed {
        text: String,
        at: TrailEntry,
        /// The broker refused a publish (it was down, or a FIFO queue got no group).
        refused: bool,
    },
    /// The API timeout struck after something became durable: the client retries.
    Struck,
    /// The API crashed right after a durable point (a statement-level fault): the rest did
    /// not run; the client retries when `client_retry` is set.
    Crashed {
        /// The statement the crash came right after.
        at: TrailEntry,
        /// The client sends the request again.
        client_retry: bool,
    },
}

fn order_of(conn: &Connection, request_id: &str) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached(SQL_ORDER_OF_REQUEST)?
        .query_row([request_id], |r| r.get(0))
        .optional()
}

const SQL_NEWEST_OUTBOX_ROW: &str = "SELECT coalesce(max(id), 0) FROM outbox";
/// The first message of an order that a row newer than ?1 gives a second one.
const SQL_SECOND_MESSAGE: &str = "SELECT first.message_id FROM outbox AS later \
     JOIN outbox AS first ON first.order_id = later.order_id AND first.id < later.id \
     WHERE later.id > ?1 ORDER BY first.id LIMIT 1";

fn newest_outbox_row(conn: &Connection) -> rusqlite::Result<i64> {
    conn.prepare_cached(SQL_NEWEST_OUTBOX_ROW)?
        .query_row([], |r| r.get(0))
}

/// The message id the order already had when a statement wrote an outbox row newer than
/// `newest_row` for the same order: the statement that sends an order a second message.
fn second_message_of_an_order(
    conn: &Connection,
    newest_row: i64,
) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached(SQL_SECOND_MESSAGE)?
        .query_row([newest_row], |r| r.get(0))
        .optional()
}

fn roll_back_open(conn: &Connection) -> rusqlite::Result<()> {
    if conn.is_autocommit() {
        Ok(())
    } else {
        conn.execute_batch("ROLLBACK")
    }
}

impl Simulation {
    /// Whether the lab opens `@accept` (the learner's SQL writes the orders).
    pub(crate) fn lab_accepts(&self) -> bool {
        self.lab
            .as_ref()
            .is_some_and(|l| l.sql.opens(Section::Accept))
    }

    /// The message id of a client retry of `order`: a request of its own, with a new id (a
    /// file that writes an outbox row under every request's id writes a second message).
    pub(crate) fn lab_retry_message_id(&mut self, order: u32) -> String {
        let n = self.lab.as_mut().map_or(0, |l| {
            l.retries += 1;
            l.retries
        });
        format!("{}-retry{n}", crate::model::order_message_id(order))
    }

    fn accept_entry(&self, message_id: &str, line: usize, column: usize) -> TrailEntry {
        TrailEntry {
            at_ms: self.clock.now,
            message_id: message_id.to_owned(),
            instance: Actor::Api.to_string(),
            section: Section::Accept,
            line,
            column,
        }
    }

    /// `@accept` for one request, then the bookkeeping of what it committed.
    pub(crate) fn lab_accept(&mut self, req: &AcceptRequest) -> Result<Event, SimError> {
        let Some(lab) = &self.lab else {
            return Err(SimError::Config("@accept outside a lab run".into()));
        };
        if self.lab_request_lost_in_transit(req) {
            return self.lab_accept_settle(req, End::Struck, &[]);
        }
        let calls = lab.api_side_effects.clone();
        calls.open(Section::Accept);
        let ran = self.lab_accept_section(req, false);
        calls.close();
        let (end, published) = ran?;
        self.lab_accept_settle(req, end, &published)
    }

    /// The first attempt of the run's first request never reaches the database (the client
    /// times out before the API answers) and the client retries a second later: the orders
    /// arriving meanwhile take the first row ids, so the client's `:order_id` is not the row's
    /// `id`. Where a customer's orders must stay in sequence the client's numbers are that
    /// sequence, and requests keep their order.
    fn lab_request_lost_in_transit(&self, req: &AcceptRequest) -> bool {
        !req.retry && req.order == 1 && self.spec.scenario.setup.groups == 0
    }

    /// The API's connection, or the spare one the client's concurrent retry runs on.
    fn accept_conn(&self, competitor: bool) -> &Connection {
        if competitor {
            &self.conns.sweeper
        } else {
            &self.conns.api
        }
    }

    /// The client's concurrent retry of `req`, in a gap of the first attempt: the same request
    /// runs the whole `@accept` on a connection of its own, then the first attempt goes on.
    fn lab_accept_competitor(&mut self, req: &AcceptRequest) -> Result<(), SimError> {
        let Some(lab) = &self.lab else {
            return Ok(());
        };
        let calls = lab.spare_side_effects.clone();
        let retry = AcceptRequest {
            retry: true,
            message_id: self.lab_retry_message_id(req.order),
            ..req.clone()
        };
        // The same request id: it touches the order row of the first attempt.
        self.lab_competitor_touched();
        calls.open(Section::Accept);
        let ran = self.lab_accept_section(&retry, true);
        calls.close();
        roll_back_open(&self.conns.sweeper).ctx(Actor::Api, "roll back")?;
        // How the retry ended is the client's business; what it committed and published is
        // read back with the first attempt's.
        ran.map(|_| ())
    }

    /// Runs the statements (on the spare connection for the client's concurrent retry);
    /// returns how the section ended and the messages it published.
    fn lab_accept_section(
        &mut self,
        req: &AcceptRequest,
        competitor: bool,
    ) -> Result<(End, Vec<(String, TrailEntry)>), SimError> {
        let Some(lab) = &self.lab else {
            return Ok((End::Done, Vec::new()));
        };
        let sql = Arc::clone(&lab.sql);
        let mut run = self.lab_accept_run(lab, req, competitor)?;
        let statements = sql.statements(Section::Accept);
        for index in 0..statements.len() {
            if let Some(end) = self.lab_accept_statement(&mut run, index, statements)? {
                return Ok((end, run.published));
            }
        }
        if !self.accept_conn(competitor).is_autocommit() {
            roll_back_open(self.accept_conn(competitor)).ctx(Actor::Api, "roll back")?;
            return Err(SimError::Lab(LabFileError {
                line: sql.section_line(Section::Accept),
                column: 1,
                kind: LabFileErrorKind::OpenTransaction,
            }));
        }
        Ok((End::Done, run.published))
    }
}

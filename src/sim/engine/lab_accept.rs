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

use std::sync::Arc;

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension};

use super::action::Action;
use super::{SimError, Simulation, SqlContext};
use crate::content::LabInvariant;
use crate::sim::fault::Fault;
use crate::sim::lab::hooks::{StatementError, run_statement};
use crate::sim::lab::{LabFileError, LabFileErrorKind, Section, SideEffect, TrailEntry};
use crate::sim::model::{Actor, Event, EventKind, Outcome, Stage};
use crate::sim::moments::{Fact, Loss};
use crate::sim::state::{RowChange, Table};

/// What an event of the learner's `@accept` shows in the SQL view.
pub(crate) const LAB_ACCEPT_SQL: &[&str] = &["-- @accept (your lab file)"];

const SQL_ORDER_OF_REQUEST: &str = "SELECT id FROM orders WHERE request_id = ?1";
const SQL_NEW_OUTBOX: &str =
    "SELECT id, message_id, order_id FROM outbox WHERE id > ?1 ORDER BY id";
const SQL_OUTBOX_OF_ORDER: &str = "SELECT 1 FROM outbox WHERE order_id = ?1";

/// One request as the API received it.
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
        /// The broker refused a publish (it was down).
        refused: bool,
    },
    /// The API timeout struck after something became durable: the client retries.
    Struck,
}

fn order_of(conn: &Connection, request_id: &str) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached(SQL_ORDER_OF_REQUEST)?
        .query_row([request_id], |r| r.get(0))
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
        let calls = lab.api_side_effects.clone();
        calls.open(Section::Accept);
        let ran = self.lab_accept_section(req);
        calls.close();
        let (end, published) = ran?;
        self.lab_accept_settle(req, end, &published)
    }

    /// Runs the statements; returns how the section ended and the messages it published.
    fn lab_accept_section(
        &mut self,
        req: &AcceptRequest,
    ) -> Result<(End, Vec<(String, TrailEntry)>), SimError> {
        let actor = Actor::Api;
        let Some(lab) = &self.lab else {
            return Ok((End::Done, Vec::new()));
        };
        let sql = Arc::clone(&lab.sql);
        let guard = lab.api_guard.clone();
        let calls = lab.api_side_effects.clone();
        let binds = [
            (":order_id", Value::Integer(i64::from(req.order))),
            (":request_id", Value::Text(req.request_id.clone())),
            (":customer", Value::Text(req.customer.clone())),
            (":amount_cents", Value::Integer(req.amount_cents)),
            (":message_id", Value::Text(req.message_id.clone())),
            (":body", Value::Text(req.body.clone())),
            (
                ":now_ms",
                Value::Integer(i64::try_from(self.clock.now).unwrap_or(i64::MAX)),
            ),
        ];
        let mut committed =
            order_of(&self.conns.api, &req.request_id).ctx(actor, "find the order")?;
        let mut published = Vec::new();
        for stmt in sql.statements(Section::Accept) {
            let result = run_statement(&self.conns.api, &guard, stmt, &binds);
            let here = self.accept_entry(&req.message_id, stmt.line, stmt.column);
            let mut refused = None;
            let mut sent = false;
            // What the statement asked of the broker happened (or failed), whatever the
            // statement did next.
            for call in calls.take() {
                let SideEffect::Publish { message_id, body } = call else {
                    continue;
                };
                let at = self.accept_entry(&message_id, stmt.line, stmt.column);
                if self.broker_is_down() {
                    refused = Some(format!("publish({message_id}): the broker is unreachable"));
                    break;
                }
                // The order the message names: the row the request wrote (inside its own
                // transaction, too), else the number the client gave it.
                let order_id = order_of(&self.conns.api, &req.request_id)
                    .ctx(actor, "find the order")?
                    .unwrap_or(i64::from(req.order));
                self.enqueue(actor, &message_id, order_id, &body, req.group.as_deref())?;
                if let Some(l) = &mut self.lab {
                    // A published message is the request's write outside the database: the
                    // statement a report names for what becomes of it.
                    l.published.insert(message_id.clone());
                    l.trail.entries.push(at.clone());
                }
                published.push((message_id, at));
                sent = true;
            }
            let broker_refused = refused.is_some();
            let text = match (refused, result) {
                (_, Err(StatementError::Learner(e))) => {
                    roll_back_open(&self.conns.api).ctx(actor, "roll back")?;
                    return Err(SimError::Lab(e));
                }
                (Some(text), _) => Some(text),
                (None, Err(StatementError::Runtime(e))) => Some(e.to_string()),
                (None, Ok(_)) => None,
            };
            if let Some(text) = text {
                roll_back_open(&self.conns.api).ctx(actor, "roll back")?;
                let end = End::Failed {
                    text,
                    at: here,
                    refused: broker_refused,
                };
                return Ok((end, published));
            }
            // Something durable beyond the request: the order committed, or a message out.
            let mut durable = sent;
            if committed.is_none() && self.conns.api.is_autocommit() {
                committed =
                    order_of(&self.conns.api, &req.request_id).ctx(actor, "find the order")?;
                durable |= committed.is_some();
            }
            if durable && !req.retry && self.script.armed.take(Fault::ApiTimeoutAfterCommit) {
                roll_back_open(&self.conns.api).ctx(actor, "roll back")?;
                return Ok((End::Struck, published));
            }
        }
        if !self.conns.api.is_autocommit() {
            roll_back_open(&self.conns.api).ctx(actor, "roll back")?;
            return Err(SimError::Lab(LabFileError {
                line: sql.section_line(Section::Accept),
                column: 1,
                kind: LabFileErrorKind::OpenTransaction,
            }));
        }
        Ok((End::Done, published))
    }

    /// Puts what the request committed into the picture and the ledger, notes a message
    /// published for an order that does not exist, and a lost order when nothing will ever
    /// carry the order's message.
    #[allow(clippy::too_many_lines)] // one narrated end of a request: each way it can end
    fn lab_accept_settle(
        &mut self,
        req: &AcceptRequest,
        end: End,
        published: &[(String, TrailEntry)],
    ) -> Result<Event, SimError> {
        let actor = Actor::Api;
        let (before_order, seen_outbox) = match &self.lab {
            Some(l) => (l.accepted.contains(&req.request_id), l.seen_outbox),
            None => (false, 0),
        };
        let order_id = order_of(&self.conns.api, &req.request_id).ctx(actor, "find the order")?;
        let new_rows: Vec<(i64, String, i64)> = self
            .conns
            .api
            .prepare_cached(SQL_NEW_OUTBOX)
            .and_then(|mut st| {
                st.query_map([seen_outbox], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect()
            })
            .ctx(actor, "read the outbox rows the lab file wrote")?;
        let now = self.clock.now.to_string();
        if let (Some(id), false) = (order_id, before_order) {
            if let Some(l) = &mut self.lab {
                l.accepted.insert(req.request_id.clone());
            }
            self.change(RowChange::Put(
                Table::Orders,
                id,
                Arc::new(vec![
                    id.to_string(),
                    req.request_id.clone(),
                    req.amount_cents.to_string(),
                    now.clone(),
                ]),
            ));
            self.ledger.stages.accepted += 1;
            self.ledger.metrics.accepted += 1;
            let outbox_id = new_rows.iter().find(|r| r.2 == id).map(|r| r.0);
            self.note(Fact::Accepted {
                order: id,
                message_id: req.message_id.clone(),
                outbox_id,
            });
        }
        for (id, message_id, _) in &new_rows {
            if let Some(l) = &mut self.lab {
                l.seen_outbox = l.seen_outbox.max(*id);
            }
            self.change(RowChange::Put(
                Table::Outbox,
                *id,
                Arc::new(vec![
                    id.to_string(),
                    message_id.clone(),
                    now.clone(),
                    String::new(),
                    String::new(),
                    String::new(),
                    "0".into(),
                ]),
            ));
            self.ledger.unpublished.insert((self.clock.now, *id));
            self.ledger.stages.outbox_pending += 1;
        }
        if !new_rows.is_empty() {
            self.wake_dispatcher(self.clock.now + 1);
        }
        if order_id.is_none() {
            // The message is out, the order it speaks of was never saved (rolled back): the
            // consumer works on an order that does not exist.
            for (message_id, at) in published {
                self.breach_of(
                    LabInvariant::PublishedWithoutOrder,
                    i64::from(req.order),
                    message_id,
                    at.clone(),
                );
            }
        }
        let args = vec![
            req.request_id.clone(),
            order_id.map_or_else(String::new, |id| id.to_string()),
        ];
        if let End::Struck = end {
            let again = self.clock.now + self.spec.scenario.setup.client_retry_ms;
            self.schedule(
                again,
                Action::ApiRequest {
                    order: req.order,
                    retry: true,
                },
            );
        }
        if let (End::Struck, Some(_)) = (&end, order_id) {
            return Ok(
                Event::new(actor, Stage::Api, EventKind::ApiTimeoutAfterCommit)
                    .message(&req.message_id)
                    .sql(LAB_ACCEPT_SQL)
                    .outcome(Outcome::Unknown)
                    .args(args),
            );
        }
        // Unless the client retries (struck), the request is over: an order saved without an outbox row and
        // without its message sent will never take effect.
        if let (Some(id), false) = (order_id, matches!(end, End::Struck)) {
            let has_row = self
                .conns
                .api
                .prepare_cached(SQL_OUTBOX_OF_ORDER)
                .and_then(|mut st| st.exists([id]))
                .ctx(actor, "look for the order's outbox row")?;
            let sent = self
                .lab
                .as_ref()
                .is_some_and(|l| l.published.contains(&req.message_id));
            if !has_row && !sent && !self.ledger_knows_lost(&req.message_id) {
                self.ledger.metrics.lost += 1;
                // The statement where the request ended names the loss in the report.
                let at = if let End::Failed { at, .. } = &end {
                    at.clone()
                } else {
                    let line = self
                        .lab
                        .as_ref()
                        .map_or(1, |l| l.sql.section_line(Section::Accept));
                    self.accept_entry(&req.message_id, line, 1)
                };
                if let Some(l) = &mut self.lab {
                    l.trail.entries.push(at);
                    l.lost.insert(req.message_id.clone());
                }
                // A publish the broker refused is the pitfall's loss; any other end is a request
                // that stopped between the commit and its message.
                let loss = if matches!(end, End::Failed { refused: true, .. }) {
                    Loss::DirectPublishFailed
                } else {
                    Loss::NoMessage
                };
                self.note(Fact::Lost {
                    message_id: req.message_id.clone(),
                    loss,
                });
            }
        }
        match end {
            End::Struck => {
                // Struck before any order was saved: the client retries all the same.
                let mut args = args;
                args.push("the client timed out; the transaction rolled back".into());
                Ok(Event::new(actor, Stage::Api, EventKind::ApiLabFailed)
                    .message(&req.message_id)
                    .sql(LAB_ACCEPT_SQL)
                    .outcome(Outcome::Unknown)
                    .args(args))
            }
            // A statement that fails while the broker is up and no order exists is the file's
            // own error: an API that refuses every order would lose nothing and pass.
            End::Failed {
                text,
                at,
                refused: false,
            } if order_id.is_none() => Err(SimError::Lab(LabFileError {
                line: at.line,
                column: at.column,
                kind: LabFileErrorKind::Sql(text),
            })),
            End::Failed { text, at, .. } => {
                let mut args = args;
                args.push(format!("line {}: {text}", at.line));
                Ok(Event::new(actor, Stage::Api, EventKind::ApiLabFailed)
                    .message(&req.message_id)
                    .sql(LAB_ACCEPT_SQL)
                    .outcome(Outcome::Failed)
                    .args(args))
            }
            End::Done => match order_id {
                None => Err(SimError::Lab(LabFileError {
                    line: self
                        .lab
                        .as_ref()
                        .map_or(1, |l| l.sql.section_line(Section::Accept)),
                    column: 1,
                    kind: LabFileErrorKind::NoOrder,
                })),
                Some(_) if before_order => {
                    Ok(Event::new(actor, Stage::Api, EventKind::ApiSameOrder)
                        .message(&req.message_id)
                        .sql(LAB_ACCEPT_SQL)
                        .args(args))
                }
                Some(_) => Ok(Event::new(actor, Stage::Api, EventKind::ApiLabAccepted)
                    .message(&req.message_id)
                    .sql(LAB_ACCEPT_SQL)
                    .args(args)),
            },
        }
    }

    /// Whether the request's order was already counted lost (a second request for it).
    fn ledger_knows_lost(&self, message_id: &str) -> bool {
        self.lab
            .as_ref()
            .is_some_and(|l| l.lost.contains(message_id))
    }
}

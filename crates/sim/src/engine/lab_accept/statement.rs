//! One statement of `@accept`: it runs, what it asked of the broker happens (whatever the
//! statement did next), and its result decides whether the section goes on or how it ends.

use rusqlite::types::Value;

use super::super::lab_consumer::LabRun;
use super::super::lab_probe::Boundary;
use super::super::{SimError, Simulation, SqlContext};
use super::second_message_of_an_order;
use super::{AcceptRequest, End, newest_outbox_row, order_of, roll_back_open};
use crate::fault::Fault;
use crate::lab::guard::Guard;
use crate::lab::hooks::{StatementError, run_statement};
use crate::lab::probe::Strike;
use crate::lab::{Section, SideEffect, SideEffects, Statement, TrailEntry};
use crate::model::Actor;

/// `@accept` under way for one request: what its statements run with, and what they have left
/// behind so far.
pub(super) struct AcceptRun<'a> {
    pub req: &'a AcceptRequest,
    /// The client's concurrent retry, on the spare connection.
    pub competitor: bool,
    guard: Guard,
    calls: SideEffects,
    binds: [(&'static str, Value); 7],
    /// The request's order row, once committed.
    committed: Option<i64>,
    /// The messages published so far, each with the statement that published it.
    pub published: Vec<(String, TrailEntry)>,
}

/// What the `publish` calls of one statement did.
struct Publishes {
    /// Why the broker refused one (the calls after it did not happen).
    refused: Option<String>,
    /// At least one message went out.
    sent: bool,
}

/// The named parameters `@accept` receives: the request as the client sent it.
fn binds(req: &AcceptRequest, now: u64) -> [(&'static str, Value); 7] {
    [
        (":order_id", Value::Integer(i64::from(req.order))),
        (":request_id", Value::Text(req.request_id.clone())),
        (":customer", Value::Text(req.customer.clone())),
        (":amount_cents", Value::Integer(req.amount_cents)),
        (":message_id", Value::Text(req.message_id.clone())),
        (":body", Value::Text(req.body.clone())),
        (
            ":now_ms",
            Value::Integer(i64::try_from(now).unwrap_or(i64::MAX)),
        ),
    ]
}

impl Simulation {
    /// `@accept` about to run for `req`: an earlier attempt of the same request may have
    /// committed its order already.
    pub(super) fn lab_accept_run<'a>(
        &self,
        lab: &LabRun,
        req: &'a AcceptRequest,
        competitor: bool,
    ) -> Result<AcceptRun<'a>, SimError> {
        let (guard, calls) = if competitor {
            (lab.spare_guard.clone(), lab.spare_side_effects.clone())
        } else {
            (lab.api_guard.clone(), lab.api_side_effects.clone())
        };
        let binds = binds(req, self.clock.now);
        let committed = order_of(self.accept_conn(competitor), &req.request_id)
            .ctx(Actor::Api, "find the order")?;
        Ok(AcceptRun {
            req,
            competitor,
            guard,
            calls,
            binds,
            committed,
            published: Vec::new(),
        })
    }

    /// Runs `statements[index]` and decides what follows: `None` goes on with the next
    /// statement, else the section ends so.
    pub(super) fn lab_accept_statement(
        &mut self,
        run: &mut AcceptRun<'_>,
        index: usize,
        statements: &[Statement],
    ) -> Result<Option<End>, SimError> {
        let actor = Actor::Api;
        let stmt = &statements[index];
        let mut boundary =
            Boundary::before(self.accept_conn(run.competitor), index, statements.len());
        let newest_row =
            newest_outbox_row(self.accept_conn(run.competitor)).ctx(actor, "read the outbox")?;
        let result = run_statement(
            self.accept_conn(run.competitor),
            &run.guard,
            stmt,
            &run.binds,
        );
        let here = self.accept_entry(&run.req.message_id, stmt.line, stmt.column);
        let publishes = self.lab_accept_publish(run, stmt)?;
        boundary.acted |= publishes.sent;
        if let Some(end) =
            self.lab_accept_failure(run.competitor, publishes.refused, result, &here)?
        {
            return Ok(Some(end));
        }
        self.lab_trail_second_message(run.competitor, newest_row, &here)?;
        if self.lab_accept_timeout_strikes(run, publishes.sent)? {
            roll_back_open(self.accept_conn(run.competitor)).ctx(actor, "roll back")?;
            return Ok(Some(End::Struck));
        }
        if run.competitor {
            return Ok(None);
        }
        let kinds = boundary.after(&self.conns.api, stmt);
        match self.lab_boundary(Section::Accept, index, kinds) {
            None => Ok(None),
            Some(Strike::Crash { client_retry }) => {
                roll_back_open(&self.conns.api).ctx(actor, "roll back")?;
                Ok(Some(End::Crashed {
                    at: here,
                    client_retry,
                }))
            }
            Some(Strike::Compete) => {
                self.lab_accept_competitor(run.req)?;
                Ok(None)
            }
        }
    }

    /// Carries out the statement's `publish` calls in order, until the broker refuses one.
    fn lab_accept_publish(
        &mut self,
        run: &mut AcceptRun<'_>,
        stmt: &Statement,
    ) -> Result<Publishes, SimError> {
        let mut publishes = Publishes {
            refused: None,
            sent: false,
        };
        for call in run.calls.take() {
            let SideEffect::Publish { message_id, body } = call else {
                continue;
            };
            let at = self.accept_entry(&message_id, stmt.line, stmt.column);
            if let Some(refusal) = self.lab_accept_publish_one(run, message_id, &body, at)? {
                publishes.refused = Some(refusal);
                break;
            }
            publishes.sent = true;
        }
        Ok(publishes)
    }

    /// Hands one message to the broker; returns why the broker refused it, if it did.
    fn lab_accept_publish_one(
        &mut self,
        run: &mut AcceptRun<'_>,
        message_id: String,
        body: &str,
        at: TrailEntry,
    ) -> Result<Option<String>, SimError> {
        if self.broker_is_down() {
            return Ok(Some(crate::engine_words::english(
                crate::engine_words::PUBLISH_REFUSED,
                &[&message_id],
            )));
        }
        // publish() has no parameter for a group: where the file owns the groups, its message
        // carries none.
        let group = if self.lab_groups_from_file() {
            None
        } else {
            run.req.group.clone()
        };
        self.lab_queue_for_send(group.as_deref());
        if self.refuses_send(group.as_deref()) {
            let reason = self.refusal_reason();
            return Ok(Some(format!("publish({message_id}): {reason}")));
        }
        // The order the message names: the row the request wrote (inside its own transaction,
        // too), else the number the client gave it.
        let order_id = order_of(self.accept_conn(run.competitor), &run.req.request_id)
            .ctx(Actor::Api, "find the order")?
            .unwrap_or(i64::from(run.req.order));
        self.enqueue(Actor::Api, &message_id, order_id, body, group.as_deref())?;
        if let Some(l) = &mut self.lab {
            // A published message is the request's write outside the database: the statement
            // a report names for what becomes of it.
            l.published.insert(run.req.request_id.clone());
            l.trail.entries.push(at.clone());
        }
        run.published.push((message_id, at));
        Ok(None)
    }

    /// How the statement failed, if it did: a file that cannot run stops the run; a publish
    /// the broker refused, or else an SQLite error, fails the request. Either way the open
    /// transaction rolls back.
    fn lab_accept_failure(
        &self,
        competitor: bool,
        refused: Option<String>,
        result: Result<bool, StatementError>,
        here: &TrailEntry,
    ) -> Result<Option<End>, SimError> {
        let broker_refused = refused.is_some();
        let text = match (refused, result) {
            (_, Err(StatementError::Learner(e))) => {
                roll_back_open(self.accept_conn(competitor)).ctx(Actor::Api, "roll back")?;
                return Err(SimError::Lab(e));
            }
            (Some(text), _) => text,
            (None, Err(StatementError::Runtime(e))) => e.to_string(),
            (None, Ok(_)) => return Ok(None),
        };
        roll_back_open(self.accept_conn(competitor)).ctx(Actor::Api, "roll back")?;
        Ok(Some(End::Failed {
            text,
            at: here.clone(),
            refused: broker_refused,
        }))
    }

    /// A second message for an order is the statement a duplicate effect names.
    fn lab_trail_second_message(
        &mut self,
        competitor: bool,
        newest_row: i64,
        here: &TrailEntry,
    ) -> Result<(), SimError> {
        if let Some(first) = second_message_of_an_order(self.accept_conn(competitor), newest_row)
            .ctx(Actor::Api, "read the outbox")?
            && let Some(l) = &mut self.lab
        {
            l.trail.entries.push(TrailEntry {
                message_id: first,
                ..here.clone()
            });
        }
        Ok(())
    }

    /// Whether the scenario's API timeout strikes now: on a first attempt, once something is
    /// durable beyond the request (a message out, or the order committed: looked for once no
    /// transaction is open, until found).
    fn lab_accept_timeout_strikes(
        &mut self,
        run: &mut AcceptRun<'_>,
        sent: bool,
    ) -> Result<bool, SimError> {
        let mut durable = sent;
        if run.committed.is_none() && self.accept_conn(run.competitor).is_autocommit() {
            run.committed = order_of(self.accept_conn(run.competitor), &run.req.request_id)
                .ctx(Actor::Api, "find the order")?;
            durable |= run.committed.is_some();
        }
        Ok(durable && !run.req.retry && self.script.armed.take(Fault::ApiTimeoutAfterCommit))
    }
}

//! The end of a lab request: what its `@accept` committed (the order, outbox rows) read back
//! into the picture, the ledger and the facts as the built-in API does; a message published for
//! an order that was never saved; a lost order; and the event that tells how the request ended.

use super::super::action::Action;
use super::super::{SimError, Simulation, SqlContext};
use super::{AcceptRequest, End, LAB_ACCEPT_SQL, order_of};
use crate::lab::{LabFileError, LabFileErrorKind, Section, TrailEntry};
use crate::model::{Actor, Event, EventKind, Outcome, Stage};
use crate::moments::{Fact, Loss};
use content::LabInvariant;

const SQL_NEW_OUTBOX: &str =
    "SELECT id, message_id, order_id FROM outbox WHERE id > ?1 ORDER BY id";
const SQL_OUTBOX_OF_ORDER: &str = "SELECT 1 FROM outbox WHERE order_id = ?1";

impl Simulation {
    /// Puts what the request committed into the picture and the ledger, notes a message
    /// published for an order that does not exist, and a lost order when nothing will ever
    /// carry the order's message.
    pub(super) fn lab_accept_settle(
        &mut self,
        req: &AcceptRequest,
        end: End,
        published: &[(String, TrailEntry)],
    ) -> Result<Event, SimError> {
        let before_order =
            (self.lab.as_ref()).is_some_and(|l| l.accepted.contains(&req.request_id));
        let order_id = self.take_in_committed(req, before_order)?;
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
        let retried = client_retries(&end);
        if retried {
            let again = self.clock.now + self.spec.scenario.setup.client_retry_ms;
            self.schedule(
                again,
                Action::ApiRequest {
                    order: req.order,
                    retry: true,
                },
            );
        }
        match (order_id, retried) {
            (Some(_), true) => {
                return Ok(
                    Event::new(Actor::Api, Stage::Api, EventKind::ApiTimeoutAfterCommit)
                        .message(&req.message_id)
                        .sql(LAB_ACCEPT_SQL)
                        .outcome(Outcome::Unknown)
                        .args(args),
                );
            }
            // Unless the client retries, the request is over: an order saved without an
            // outbox row and without its message sent will never take effect.
            (Some(id), false) => self.count_order_without_message(req, &end, id)?,
            (None, _) => {}
        }
        self.request_end_event(req, end, order_id, before_order, &args)
    }

    /// Reads back what the request committed: its order (counted once per request) and the
    /// outbox rows the file wrote since the last request, into the picture and the ledger.
    /// Returns the order's id when one is saved.
    fn take_in_committed(
        &mut self,
        req: &AcceptRequest,
        before_order: bool,
    ) -> Result<Option<i64>, SimError> {
        let actor = Actor::Api;
        let seen_outbox = self.lab.as_ref().map_or(0, |l| l.seen_outbox);
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
        if let (Some(id), false) = (order_id, before_order) {
            if let Some(l) = &mut self.lab {
                l.accepted.insert(req.request_id.clone());
            }
            self.picture_order(id, &req.request_id, req.amount_cents);
            // The order's message is the one its outbox row names (the client's concurrent
            // retry may have written it, under its own id).
            let row = new_rows.iter().find(|r| r.2 == id);
            self.note(Fact::Accepted {
                order: id,
                message_id: row.map_or_else(|| req.message_id.clone(), |r| r.1.clone()),
                outbox_id: row.map(|r| r.0),
            });
        }
        for (id, message_id, _) in &new_rows {
            if let Some(l) = &mut self.lab {
                l.seen_outbox = l.seen_outbox.max(*id);
            }
            self.picture_outbox_written(*id, message_id);
        }
        if !new_rows.is_empty() {
            self.wake_dispatcher(self.clock.now + 1);
        }
        Ok(order_id)
    }

    /// Counts order `id` lost when the request ended with neither an outbox row nor a sent
    /// message for it (once per request), naming the statement where it ended.
    fn count_order_without_message(
        &mut self,
        req: &AcceptRequest,
        end: &End,
        id: i64,
    ) -> Result<(), SimError> {
        let has_row = self
            .conns
            .api
            .prepare_cached(SQL_OUTBOX_OF_ORDER)
            .and_then(|mut st| st.exists([id]))
            .ctx(Actor::Api, "look for the order's outbox row")?;
        let sent = (self.lab.as_ref()).is_some_and(|l| l.published.contains(&req.request_id));
        if has_row || sent || self.ledger_knows_lost(&req.request_id) {
            return Ok(());
        }
        self.ledger.lost(1);
        // The statement where the request ended names the loss in the report.
        let at = if let End::Failed { at, .. } | End::Crashed { at, .. } = end {
            at.clone()
        } else {
            self.accept_entry(&req.message_id, self.accept_line(), 1)
        };
        if let Some(l) = &mut self.lab {
            l.trail.entries.push(at);
            l.lost.insert(req.request_id.clone());
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
        Ok(())
    }

    /// The event that tells how the request ended, or the file's own error when the request
    /// could not have succeeded on any broker.
    fn request_end_event(
        &self,
        req: &AcceptRequest,
        end: End,
        order_id: Option<i64>,
        before_order: bool,
        args: &[String],
    ) -> Result<Event, SimError> {
        use crate::engine_words::{API_CRASHED, CLIENT_TIMED_OUT, LINE, english};
        let failed = |reason: String, outcome: Outcome| {
            let mut args = args.to_vec();
            args.push(reason);
            Event::new(Actor::Api, Stage::Api, EventKind::ApiLabFailed)
                .message(&req.message_id)
                .sql(LAB_ACCEPT_SQL)
                .outcome(outcome)
                .args(args)
        };
        let ended = |kind: EventKind| {
            Event::new(Actor::Api, Stage::Api, kind)
                .message(&req.message_id)
                .sql(LAB_ACCEPT_SQL)
                .args(args.to_vec())
        };
        match end {
            End::Crashed { at, .. } => {
                let crashed = english(API_CRASHED, &[]);
                let reason = english(LINE, &[&at.line.to_string(), &crashed]);
                Ok(failed(reason, Outcome::Unknown))
            }
            // Struck before any order was saved: the client retries all the same.
            End::Struck => Ok(failed(english(CLIENT_TIMED_OUT, &[]), Outcome::Unknown)),
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
                let reason = english(LINE, &[&at.line.to_string(), &text]);
                Ok(failed(reason, Outcome::Failed))
            }
            End::Done => match order_id {
                None => Err(SimError::Lab(LabFileError {
                    line: self.accept_line(),
                    column: 1,
                    kind: LabFileErrorKind::NoOrder,
                })),
                Some(_) if before_order => Ok(ended(EventKind::ApiSameOrder)),
                Some(_) => Ok(ended(EventKind::ApiLabAccepted)),
            },
        }
    }

    /// The line of the file's `@accept` section (1 outside a lab).
    fn accept_line(&self) -> usize {
        (self.lab.as_ref()).map_or(1, |l| l.sql.section_line(Section::Accept))
    }

    /// Whether the request's order was already counted lost (a second attempt of it).
    fn ledger_knows_lost(&self, request_id: &str) -> bool {
        self.lab
            .as_ref()
            .is_some_and(|l| l.lost.contains(request_id))
    }
}

/// The client sends the request again after a timeout, and after a crash where the probe
/// says so.
fn client_retries(end: &End) -> bool {
    matches!(
        end,
        End::Struck
            | End::Crashed {
                client_retry: true,
                ..
            }
    )
}

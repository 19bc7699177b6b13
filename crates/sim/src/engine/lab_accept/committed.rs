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
    #[allow(clippy::too_many_lines)] // one narrated end of a request: each way it can end
    pub(super) fn lab_accept_settle(
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
        // The client sends the request again after a timeout, and after a crash where the
        // probe says so.
        let retried = matches!(
            end,
            End::Struck
                | End::Crashed {
                    client_retry: true,
                    ..
                }
        );
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
        if let (true, Some(_)) = (retried, order_id) {
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
        if let (Some(id), false) = (order_id, retried) {
            let has_row = self
                .conns
                .api
                .prepare_cached(SQL_OUTBOX_OF_ORDER)
                .and_then(|mut st| st.exists([id]))
                .ctx(actor, "look for the order's outbox row")?;
            let sent = self
                .lab
                .as_ref()
                .is_some_and(|l| l.published.contains(&req.request_id));
            if !has_row && !sent && !self.ledger_knows_lost(&req.request_id) {
                self.ledger.lost(1);
                // The statement where the request ended names the loss in the report.
                let at = if let End::Failed { at, .. } | End::Crashed { at, .. } = &end {
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
            }
        }
        match end {
            End::Crashed { at, .. } => {
                let mut args = args;
                let crashed = crate::engine_words::english(crate::engine_words::API_CRASHED, &[]);
                args.push(crate::engine_words::english(
                    crate::engine_words::LINE,
                    &[&at.line.to_string(), &crashed],
                ));
                Ok(Event::new(actor, Stage::Api, EventKind::ApiLabFailed)
                    .message(&req.message_id)
                    .sql(LAB_ACCEPT_SQL)
                    .outcome(Outcome::Unknown)
                    .args(args))
            }
            End::Struck => {
                // Struck before any order was saved: the client retries all the same.
                let mut args = args;
                args.push(crate::engine_words::english(
                    crate::engine_words::CLIENT_TIMED_OUT,
                    &[],
                ));
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
                args.push(crate::engine_words::english(
                    crate::engine_words::LINE,
                    &[&at.line.to_string(), &text],
                ));
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

    /// Whether the request's order was already counted lost (a second attempt of it).
    fn ledger_knows_lost(&self, request_id: &str) -> bool {
        self.lab
            .as_ref()
            .is_some_and(|l| l.lost.contains(request_id))
    }
}

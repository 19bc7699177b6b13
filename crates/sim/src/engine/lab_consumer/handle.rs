//! `@handle`, statement by statement: each statement's side effects (a charge, a dead-letter
//! call) happen first, then its result decides: a UNIQUE violation settles as a duplicate (in a
//! lab with two-phase claims only once the ledger holds the message's effect; a claim still in
//! progress is released for later), any other SQLite error takes the failure path, a file that
//! cannot run stops the run, and a lost connection after a durable effect leaves the message to
//! come back. A charge while a transaction is open is refused.

use std::sync::Arc;

use rusqlite::Connection;
use rusqlite::types::Value;

use super::super::action::{Action, Delivery};
use super::super::inbox::SQLITE_CONSTRAINT_UNIQUE;
use super::super::lab_effects::ProviderAnswer;
use super::super::lab_probe::Boundary;
use super::super::payload::Failure;
use super::super::{CONSUMER_NAME, SimError, Simulation, SqlContext};
use super::release::Waiting;
use super::{LAB_HANDLE_SQL, int, roll_back_open, text};
use crate::fault::Fault;
use crate::lab::hooks::{StatementError, run_statement};
use crate::lab::ledger;
use crate::lab::probe::Strike;
use crate::lab::{LabFileError, LabFileErrorKind, Section, SideEffect, SideEffects};
use crate::model::{Actor, Event, EventKind, Outcome, Stage};
use crate::moments::{Fact, Guard as FactGuard};
use content::LabInvariant;

/// The newest entry of the engine's ledger: a statement that moved it wrote an effect.
pub(super) const SQL_MAX_EFFECT: &str = "SELECT COALESCE(MAX(id), 0) FROM effect_ledger";

fn is_unique_violation(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.extended_code == SQLITE_CONSTRAINT_UNIQUE)
}

impl Simulation {
    #[allow(clippy::too_many_lines)] // one statement loop with each of its exits
    pub(super) fn lab_handle(
        &mut self,
        c: u8,
        d: Delivery,
        payload: &Result<(bool, i64, u64), Failure>,
        calls: &SideEffects,
    ) -> Result<Option<Event>, SimError> {
        let Some(lab) = &self.lab else {
            return Ok(None);
        };
        let sql = Arc::clone(&lab.sql);
        let actor = Actor::Consumer(c);
        let i = usize::from(c);
        let (amount, created, payload_error) = match payload {
            Ok((_, amount, created)) => (Some(*amount), *created, None),
            Err(f) => (None, self.clock.now, Some(f.text.clone())),
        };
        let business_key = self
            .effect_row(c, &d, "credit", amount.unwrap_or(0), true)
            .business_key;
        let schema_version = d.body.split('|').next().unwrap_or_default().to_owned();
        let binds = [
            (":message_id", text(&d.message_id)),
            (":order_id", int(d.order_id)),
            (":consumer", text(CONSUMER_NAME)),
            (":instance", text(&Simulation::instance(c))),
            (":now_ms", int(self.clock.now)),
            (":business_key", text(&business_key)),
            (":amount_cents", amount.map_or(Value::Null, int)),
            (":delivery_count", int(d.delivery_count)),
            (":claim_lease_ms", int(self.claim_lease_ms())),
            (":schema_version", text(&schema_version)),
            (
                ":payload_error",
                payload_error.as_deref().map_or(Value::Null, text),
            ),
        ];
        let max_effect = |conn: &Connection| -> Result<i64, SimError> {
            conn.prepare_cached(SQL_MAX_EFFECT)
                .and_then(|mut st| st.query_row([], |r| r.get(0)))
                .ctx(actor, "count effects")
        };
        let mut before = max_effect(&self.conns.consumers[i])?;
        let mut wrote_effect = false;
        let mut last = None;
        let statements = sql.statements(Section::Handle);
        for (index, stmt) in statements.iter().enumerate() {
            let guard = match &self.lab {
                Some(l) => l.guards[i].clone(),
                None => return Ok(None),
            };
            let mut boundary = Boundary::before(&self.conns.consumers[i], index, statements.len());
            let changes_before = self.conns.consumers[i].total_changes();
            let result = run_statement(&self.conns.consumers[i], &guard, stmt, &binds);
            let here = self.trail_entry(c, &d, stmt);
            last = Some(here.clone());
            // What the statement asked of the world outside happened, whatever it did next.
            for call in calls.take() {
                match call {
                    SideEffect::Charge {
                        key,
                        amount: charged,
                    } => {
                        if boundary.holds_transaction(&self.conns.consumers[i], stmt) {
                            // A remote call never runs under the database's write lock: the
                            // engine refuses it, and the delivery fails.
                            self.breach(LabInvariant::ChargeInTransaction, &d, here.clone());
                            roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                            self.lab_picture(c, created)?;
                            let refused = crate::engine_words::english(
                                crate::engine_words::CHARGE_REFUSED,
                                &[],
                            );
                            let line = stmt.line.to_string();
                            let text = crate::engine_words::english(
                                crate::engine_words::LINE,
                                &[&line, &refused],
                            );
                            return Ok(Some(self.fail(c, d, text, LAB_HANDLE_SQL)));
                        }
                        boundary.acted = true;
                        if amount != Some(charged) {
                            self.breach(LabInvariant::EffectUnlikeMessage, &d, here.clone());
                        }
                        match self.lab_charge(&d, key.as_deref(), charged, here.clone())? {
                            ProviderAnswer::Answered => {}
                            ProviderAnswer::TimedOut => {
                                roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                                self.lab_picture(c, created)?;
                                let text = crate::engine_words::english(
                                    crate::engine_words::PROVIDER_TIMED_OUT,
                                    &[],
                                );
                                let mut ev = self.fail(c, d, text, LAB_HANDLE_SQL);
                                ev.outcome = Outcome::Unknown;
                                return Ok(Some(ev));
                            }
                            ProviderAnswer::InProgress => {
                                // 409: another call with this key is still running. Neither a
                                // failure nor a success: wait, like a claim in progress.
                                roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                                self.lab_picture(c, created)?;
                                return Ok(Some(self.lab_release_for_later(
                                    c,
                                    &d,
                                    Waiting::ProviderInProgress,
                                    here,
                                )));
                            }
                        }
                    }
                    // Refused outside @accept: the function never records it here.
                    SideEffect::Publish { .. } => {}
                    SideEffect::DeadLetter { reason } => {
                        roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                        self.lab_picture(c, created)?;
                        let failure = payload.as_ref().err();
                        return Ok(Some(self.lab_dead_letter(c, d, reason, failure, here)));
                    }
                }
            }
            match result {
                Ok(_) => {}
                Err(StatementError::Learner(e)) => {
                    roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                    return Err(SimError::Lab(e));
                }
                Err(StatementError::Runtime(e)) => {
                    roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                    self.lab_picture(c, created)?;
                    if is_unique_violation(&e) && self.lab_claim_in_progress(c, &d)? {
                        return Ok(Some(self.lab_release_for_later(
                            c,
                            &d,
                            Waiting::ClaimInProgress,
                            here,
                        )));
                    }
                    if is_unique_violation(&e) {
                        self.ledger.metrics.prevented_duplicates += 1;
                        self.note(Fact::Prevented {
                            message_id: d.message_id.clone(),
                            guard: FactGuard::UniqueIndex,
                        });
                        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
                        return Ok(Some(
                            Event::new(actor, Stage::Consumer, EventKind::DuplicatePrevented)
                                .message(&d.message_id)
                                .sql(LAB_HANDLE_SQL)
                                .args(vec![e.to_string()]),
                        ));
                    }
                    if payload_error.is_some() {
                        // No retry can read an unknown schema version: this error is permanent
                        // and the retry path only spends the delivery limit on it.
                        self.breach(LabInvariant::PoisonRetried, &d, here);
                    }
                    let line = stmt.line.to_string();
                    let text = crate::engine_words::english(
                        crate::engine_words::LINE,
                        &[&line, &e.to_string()],
                    );
                    return Ok(Some(self.fail(c, d, text, LAB_HANDLE_SQL)));
                }
            }
            // A statement that changed no row wrote no effect: the ledger is read only after
            // one that did (a read after every statement costs a lab run its budget).
            let changed = self.conns.consumers[i].total_changes() != changes_before;
            let now_max = if changed {
                max_effect(&self.conns.consumers[i])?
            } else {
                before
            };
            if now_max > before {
                if ledger::unlike_delivery(&self.conns.consumers[i], before)
                    .ctx(actor, "read the ledger")?
                {
                    self.breach(LabInvariant::EffectUnlikeMessage, &d, here.clone());
                }
                before = now_max;
                wrote_effect = true;
                if let Some(l) = &mut self.lab {
                    l.trail.entries.push(here);
                }
            }
            // The connection drops once an effect is durable (its transaction committed), as
            // in the built-in modes: what is committed stays, the message comes back.
            if wrote_effect
                && self.conns.consumers[i].is_autocommit()
                && self
                    .script
                    .armed
                    .take_for(Fault::ConsumerLostConnectionAfterEffect, d.order_id)
            {
                let (_, markers) = self.lab_picture(c, created)?;
                let kind = if markers > 0 {
                    EventKind::AppliedThenConnectionLost
                } else {
                    EventKind::NaiveEffectThenConnectionLost
                };
                return Ok(Some(self.lose_connection(c, &d, kind, LAB_HANDLE_SQL)));
            }
            let kinds = boundary.after(&self.conns.consumers[i], stmt);
            match self.lab_boundary(Section::Handle, index, kinds) {
                None => {}
                Some(Strike::Crash { .. }) => {
                    // A point inside a transaction (right after a charge) loses what is open.
                    roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
                    let (_, markers) = self.lab_picture(c, created)?;
                    let kind = if markers > 0 {
                        EventKind::AppliedThenConnectionLost
                    } else {
                        EventKind::NaiveEffectThenConnectionLost
                    };
                    return Ok(Some(self.lose_connection(c, &d, kind, LAB_HANDLE_SQL)));
                }
                Some(Strike::Compete) => {
                    self.lab_compete_consumer(c, &d, &binds, created)?;
                    before = max_effect(&self.conns.consumers[i])?;
                }
            }
        }
        if !self.conns.consumers[i].is_autocommit() {
            roll_back_open(&self.conns.consumers[i]).ctx(actor, "roll back")?;
            return Err(SimError::Lab(LabFileError {
                line: sql.section_line(Section::Handle),
                column: 1,
                kind: LabFileErrorKind::OpenTransaction,
            }));
        }
        let (effects, _) = self.lab_picture(c, created)?;
        self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
        if effects == 0 {
            // The handler decided the message needs no effect (it found it already done). When
            // it never had one, the order is lost, and the report names where the handler
            // settled it: the section's last statement.
            if let (Some(at), Some(l)) = (last, &mut self.lab)
                && l.trail.for_message(&d.message_id).next().is_none()
            {
                l.trail.entries.push(at);
            }
            return Ok(Some(
                Event::new(actor, Stage::Consumer, EventKind::CheckFound)
                    .message(&d.message_id)
                    .sql(LAB_HANDLE_SQL),
            ));
        }
        let (kind, args) = self.applied(d.order_id, EventKind::Applied, business_key);
        Ok(Some(
            Event::new(actor, Stage::Effect, kind)
                .message(&d.message_id)
                .sql(LAB_HANDLE_SQL)
                .args(args)
                .outcome(Outcome::Ok),
        ))
    }
}

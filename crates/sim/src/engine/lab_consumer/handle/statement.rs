//! One statement of `@handle`: it runs, the calls it made to the world outside happen (whatever
//! the statement did next), and then its result, the ledger and the crash probe decide whether
//! the section goes on or how the delivery ends.

use std::ops::ControlFlow;

use super::super::super::action::Action;
use super::super::super::lab_effects::ProviderAnswer;
use super::super::super::lab_probe::Boundary;
use super::super::super::{SimError, Simulation, SqlContext};
use super::super::release::Waiting;
use super::super::{LAB_HANDLE_SQL, roll_back_open};
use super::{HandleRun, is_unique_violation, max_effect};
use crate::fault::Fault;
use crate::lab::guard::Guard;
use crate::lab::hooks::{StatementError, run_statement};
use crate::lab::ledger;
use crate::lab::probe::Strike;
use crate::lab::{Section, SideEffect, Statement, TrailEntry};
use crate::model::{Actor, Event, EventKind, Outcome, Stage};
use crate::moments::{Fact, Guard as FactGuard};
use content::LabInvariant;

/// The statement that runs: where the trail names it, and what the crash probe knows of it.
struct Current<'s> {
    stmt: &'s Statement,
    here: TrailEntry,
    boundary: Boundary,
}

impl Simulation {
    /// Runs `statements[index]` and decides what follows: `Continue` with the next statement,
    /// or `Break` with how the delivery ended.
    pub(super) fn lab_handle_statement(
        &mut self,
        run: &mut HandleRun<'_>,
        guard: &Guard,
        index: usize,
        statements: &[Statement],
    ) -> Result<ControlFlow<Event>, SimError> {
        let i = usize::from(run.c);
        let stmt = &statements[index];
        let boundary = Boundary::before(&self.conns.consumers[i], index, statements.len());
        let changes_before = self.conns.consumers[i].total_changes();
        let result = run_statement(&self.conns.consumers[i], guard, stmt, &run.binds);
        let here = self.trail_entry(run.c, &run.d, stmt);
        run.last = Some(here.clone());
        let mut now = Current {
            stmt,
            here,
            boundary,
        };
        // What the statement asked of the world outside happened, whatever it did next.
        for call in run.calls.take() {
            if let Some(event) = self.lab_handle_call(run, &mut now, call)? {
                return Ok(ControlFlow::Break(event));
            }
        }
        if let Err(e) = result {
            return self.lab_handle_error(run, &now, e).map(ControlFlow::Break);
        }
        // A statement that changed no row wrote no effect: the ledger is read only after one
        // that did (a read after every statement costs a lab run its budget).
        if self.conns.consumers[i].total_changes() != changes_before {
            self.lab_handle_read_ledger(run, &now)?;
        }
        // The connection drops once an effect is durable (its transaction committed), as in
        // the built-in modes: what is committed stays, the message comes back.
        if run.wrote_effect
            && self.conns.consumers[i].is_autocommit()
            && self
                .script
                .armed
                .take_for(Fault::ConsumerLostConnectionAfterEffect, run.d.order_id)
        {
            return self.lab_handle_connection_lost(run).map(ControlFlow::Break);
        }
        let kinds = now.boundary.after(&self.conns.consumers[i], stmt);
        match self.lab_boundary(Section::Handle, index, kinds) {
            None => {}
            Some(Strike::Crash { .. }) => {
                // A point inside a transaction (right after a charge) loses what is open.
                roll_back_open(&self.conns.consumers[i])
                    .ctx(Actor::Consumer(run.c), "roll back")?;
                return self.lab_handle_connection_lost(run).map(ControlFlow::Break);
            }
            Some(Strike::Compete) => {
                self.lab_compete_consumer(run.c, &run.d, &run.binds, run.created)?;
                run.newest_effect = max_effect(&self.conns.consumers[i], Actor::Consumer(run.c))?;
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Rolls back what the statement left open and puts what is committed into the picture:
    /// the start of every way a delivery ends early.
    fn lab_handle_abandon(&mut self, run: &HandleRun<'_>) -> Result<(), SimError> {
        roll_back_open(&self.conns.consumers[usize::from(run.c)])
            .ctx(Actor::Consumer(run.c), "roll back")?;
        self.lab_picture(run.c, run.created)?;
        Ok(())
    }

    /// Carries out one call the statement made; `Some` when it ends the delivery.
    fn lab_handle_call(
        &mut self,
        run: &HandleRun<'_>,
        now: &mut Current<'_>,
        call: SideEffect,
    ) -> Result<Option<Event>, SimError> {
        match call {
            SideEffect::Charge {
                key,
                amount: charged,
            } => self.lab_handle_charge(run, now, key.as_deref(), charged),
            // Refused outside @accept: the function never records it here.
            SideEffect::Publish { .. } => Ok(None),
            SideEffect::DeadLetter { reason } => {
                self.lab_handle_abandon(run)?;
                let failure = run.payload.as_ref().err();
                let here = now.here.clone();
                Ok(Some(self.lab_dead_letter(
                    run.c,
                    run.d.clone(),
                    reason,
                    failure,
                    here,
                )))
            }
        }
    }

    /// A charge at the payment provider: refused while a transaction is open; else the
    /// provider's answer decides (a timeout fails the delivery with an unknown outcome, a call
    /// with the same key still running makes it wait).
    fn lab_handle_charge(
        &mut self,
        run: &HandleRun<'_>,
        now: &mut Current<'_>,
        key: Option<&str>,
        charged: i64,
    ) -> Result<Option<Event>, SimError> {
        let (c, d) = (run.c, &run.d);
        if now
            .boundary
            .holds_transaction(&self.conns.consumers[usize::from(c)], now.stmt)
        {
            // A remote call never runs under the database's write lock: the engine refuses
            // it, and the delivery fails.
            self.breach(LabInvariant::ChargeInTransaction, d, now.here.clone());
            self.lab_handle_abandon(run)?;
            let refused = crate::engine_words::english(crate::engine_words::CHARGE_REFUSED, &[]);
            let line = now.stmt.line.to_string();
            let text = crate::engine_words::english(crate::engine_words::LINE, &[&line, &refused]);
            return Ok(Some(self.fail(c, d.clone(), text, LAB_HANDLE_SQL)));
        }
        now.boundary.acted = true;
        if run.amount != Some(charged) {
            self.breach(LabInvariant::EffectUnlikeMessage, d, now.here.clone());
        }
        match self.lab_charge(d, key, charged, now.here.clone())? {
            ProviderAnswer::Answered => Ok(None),
            ProviderAnswer::TimedOut => {
                self.lab_handle_abandon(run)?;
                let text =
                    crate::engine_words::english(crate::engine_words::PROVIDER_TIMED_OUT, &[]);
                let mut ev = self.fail(c, d.clone(), text, LAB_HANDLE_SQL);
                ev.outcome = Outcome::Unknown;
                Ok(Some(ev))
            }
            ProviderAnswer::InProgress => {
                // 409: another call with this key is still running. Neither a failure nor a
                // success: wait, like a claim in progress.
                self.lab_handle_abandon(run)?;
                let waiting = Waiting::ProviderInProgress;
                Ok(Some(self.lab_release_for_later(
                    c,
                    d,
                    waiting,
                    now.here.clone(),
                )))
            }
        }
    }

    /// A statement that failed ends the delivery: a file that cannot run stops the run; of
    /// SQLite's errors, a UNIQUE violation waits for a claim in progress or else settles as a
    /// duplicate, and any other takes the failure path.
    fn lab_handle_error(
        &mut self,
        run: &HandleRun<'_>,
        now: &Current<'_>,
        error: StatementError,
    ) -> Result<Event, SimError> {
        let (c, d) = (run.c, &run.d);
        let e = match error {
            StatementError::Learner(e) => {
                roll_back_open(&self.conns.consumers[usize::from(c)])
                    .ctx(Actor::Consumer(c), "roll back")?;
                return Err(SimError::Lab(e));
            }
            StatementError::Runtime(e) => e,
        };
        self.lab_handle_abandon(run)?;
        if is_unique_violation(&e) && self.lab_claim_in_progress(c, d)? {
            let here = now.here.clone();
            return Ok(self.lab_release_for_later(c, d, Waiting::ClaimInProgress, here));
        }
        if is_unique_violation(&e) {
            self.ledger.duplicate_prevented();
            self.note(Fact::Prevented {
                message_id: d.message_id.clone(),
                guard: FactGuard::UniqueIndex,
            });
            self.schedule(self.clock.now + 1, Action::ConsumerSettle(c));
            return Ok(Event::new(
                Actor::Consumer(c),
                Stage::Consumer,
                EventKind::DuplicatePrevented,
            )
            .message(&d.message_id)
            .sql(LAB_HANDLE_SQL)
            .args(vec![e.to_string()]));
        }
        if run.payload_error.is_some() {
            // No retry can read an unknown schema version: this error is permanent and the
            // retry path only spends the delivery limit on it.
            self.breach(LabInvariant::PoisonRetried, d, now.here.clone());
        }
        let line = now.stmt.line.to_string();
        let text =
            crate::engine_words::english(crate::engine_words::LINE, &[&line, &e.to_string()]);
        Ok(self.fail(c, d.clone(), text, LAB_HANDLE_SQL))
    }

    /// After a statement that changed rows: whether the engine's ledger moved, i.e. the
    /// statement wrote an effect, and whether that effect is unlike the delivery.
    fn lab_handle_read_ledger(
        &mut self,
        run: &mut HandleRun<'_>,
        now: &Current<'_>,
    ) -> Result<(), SimError> {
        let conn = &self.conns.consumers[usize::from(run.c)];
        let actor = Actor::Consumer(run.c);
        let newest = max_effect(conn, actor)?;
        if newest <= run.newest_effect {
            return Ok(());
        }
        if ledger::unlike_delivery(conn, run.newest_effect).ctx(actor, "read the ledger")? {
            self.breach(LabInvariant::EffectUnlikeMessage, &run.d, now.here.clone());
        }
        run.newest_effect = newest;
        run.wrote_effect = true;
        if let Some(l) = &mut self.lab {
            l.trail.entries.push(now.here.clone());
        }
        Ok(())
    }

    /// The consumer lost its connection: what is committed stays, the message comes back.
    fn lab_handle_connection_lost(&mut self, run: &HandleRun<'_>) -> Result<Event, SimError> {
        let (_, markers) = self.lab_picture(run.c, run.created)?;
        let kind = if markers > 0 {
            EventKind::AppliedThenConnectionLost
        } else {
            EventKind::NaiveEffectThenConnectionLost
        };
        Ok(self.lose_connection(run.c, &run.d, kind, LAB_HANDLE_SQL))
    }
}

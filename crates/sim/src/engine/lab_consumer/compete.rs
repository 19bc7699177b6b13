//! The twin consumer of a statement-level fault: the same message handed to another instance
//! (its lock ran out while the first one paused between two statements), which runs the
//! learner's whole `@check` and `@handle` on a connection of its own, right in that gap. What it
//! commits and charges is the world's; the first consumer then goes on with its next statement.

use std::sync::Arc;

use rusqlite::OptionalExtension;
use rusqlite::types::Value;

use super::super::action::Delivery;
use super::super::lab_effects::ProviderAnswer;
use super::super::lab_probe::writes;
use super::super::{SimError, Simulation, SqlContext};
use super::handle::SQL_MAX_EFFECT;
use super::{int, roll_back_open, text};
use crate::lab::hooks::{StatementError, run_statement};
use crate::lab::ledger;
use crate::lab::{Section, SideEffect, TrailEntry};
use crate::model::Actor;
use content::LabInvariant;

/// A claim of an instance on a message, not processed, taken after a time.
const SQL_LIVE_CLAIM: &str = "SELECT id, received_ms FROM inbox WHERE message_id = ?1 AND instance = ?2 \
     AND processed_ms IS NULL AND received_ms > ?3 ORDER BY id DESC LIMIT 1";
/// The claim is still the one its holder took: the same row, instance and time.
const SQL_CLAIM_HELD: &str = "SELECT EXISTS (SELECT 1 FROM inbox WHERE id = ?1 AND instance = ?2 \
     AND received_ms = ?3)";

/// A claim the first consumer holds while its twin runs.
#[derive(Debug, Clone)]
struct LiveClaim {
    id: i64,
    instance: String,
    received_ms: i64,
}

impl Simulation {
    /// The twin of consumer `c` handles delivery `d` (the next delivery of the same message)
    /// with the learner's `@check` and `@handle`, on the spare connection. `binds` are the
    /// first consumer's; the twin's instance and delivery count replace theirs.
    pub(super) fn lab_compete_consumer(
        &mut self,
        c: u8,
        d: &Delivery,
        binds: &[(&str, Value)],
        created: u64,
    ) -> Result<(), SimError> {
        let Some(lab) = &self.lab else {
            return Ok(());
        };
        let sql = Arc::clone(&lab.sql);
        let guard = lab.spare_guard.clone();
        let calls = lab.spare_side_effects.clone();
        let twin = c ^ 1;
        let instance = Simulation::instance(twin);
        let binds: Vec<(&str, Value)> = binds
            .iter()
            .map(|(name, v)| match *name {
                ":instance" => (*name, text(&instance)),
                ":delivery_count" => (*name, int(d.delivery_count + 1)),
                ":now_ms" => (*name, int(self.clock.now)),
                _ => (*name, v.clone()),
            })
            .collect();
        // The twin holds the same message: it touches what the first consumer touches.
        self.lab_competitor_touched();
        let actor = Actor::Consumer(twin);
        let mut found = false;
        for stmt in sql.statements(Section::Check) {
            match run_statement(&self.conns.sweeper, &guard, stmt, &binds) {
                Ok(row) => found = row,
                Err(StatementError::Learner(e)) => {
                    roll_back_open(&self.conns.sweeper).ctx(actor, "roll back")?;
                    return Err(SimError::Lab(e));
                }
                // The first consumer's own @check reports a failing check at its line.
                Err(StatementError::Runtime(_)) => break,
            }
        }
        roll_back_open(&self.conns.sweeper).ctx(actor, "end @check")?;
        if found {
            return Ok(());
        }
        let amount = match binds.iter().find(|(n, _)| *n == ":amount_cents") {
            Some((_, Value::Integer(n))) => Some(*n),
            _ => None,
        };
        ledger::set_delivery(&self.conns.sweeper, &d.message_id, amount).ctx(actor, "delivery")?;
        let live = self.live_claim(c, d)?;
        calls.open(Section::Handle);
        let result = self.lab_twin_handle(twin, d, &binds, live);
        calls.close();
        ledger::clear_delivery(&self.conns.sweeper).ctx(actor, "delivery")?;
        roll_back_open(&self.conns.sweeper).ctx(actor, "roll back")?;
        result?;
        self.lab_picture(c, created)?;
        Ok(())
    }

    /// The claim consumer `c` holds on `d`'s message while the twin runs (an inbox row of
    /// its instance, not processed, younger than the scenario's claim lease).
    fn live_claim(&self, c: u8, d: &Delivery) -> Result<Option<LiveClaim>, SimError> {
        if !self.lab_tells_claims_from_duplicates() {
            return Ok(None);
        }
        let since = self.clock.now.saturating_sub(self.claim_lease_ms()) as i64;
        let instance = Simulation::instance(c);
        self.conns
            .sweeper
            .query_row(
                SQL_LIVE_CLAIM,
                rusqlite::params![d.message_id, instance, since],
                |r| {
                    Ok(LiveClaim {
                        id: r.get(0)?,
                        instance: instance.clone(),
                        received_ms: r.get(1)?,
                    })
                },
            )
            .optional()
            .ctx(Actor::Consumer(c), "read the claim")
    }

    /// The twin's `@handle`: each statement's charge happens, an error or a dead-letter ends
    /// it (its transaction rolls back), and every effect it writes is on the trail. A
    /// statement that takes over the first consumer's `live` claim (removes it or makes it
    /// another's), or calls the provider while that claim holds, breaks
    /// `live-claim-taken-over`.
    fn lab_twin_handle(
        &mut self,
        twin: u8,
        d: &Delivery,
        binds: &[(&str, Value)],
        mut live: Option<LiveClaim>,
    ) -> Result<(), SimError> {
        let Some(lab) = &self.lab else {
            return Ok(());
        };
        let sql = Arc::clone(&lab.sql);
        let guard = lab.spare_guard.clone();
        let calls = lab.spare_side_effects.clone();
        let actor = Actor::Consumer(twin);
        let max_effect = |sim: &Simulation| -> Result<i64, SimError> {
            sim.conns
                .sweeper
                .prepare_cached(SQL_MAX_EFFECT)
                .and_then(|mut st| st.query_row([], |r| r.get(0)))
                .ctx(actor, "count effects")
        };
        let mut before = max_effect(self)?;
        for stmt in sql.statements(Section::Handle) {
            let in_tx = !self.conns.sweeper.is_autocommit();
            let result = run_statement(&self.conns.sweeper, &guard, stmt, binds);
            let here = TrailEntry {
                at_ms: self.clock.now,
                message_id: d.message_id.clone(),
                instance: Simulation::instance(twin),
                section: Section::Handle,
                line: stmt.line,
                column: stmt.column,
            };
            for call in calls.take() {
                match call {
                    SideEffect::Charge { key, amount } => {
                        // Refused inside a transaction, as the first consumer's would be.
                        if in_tx || writes(&self.conns.sweeper, stmt) {
                            self.breach(LabInvariant::ChargeInTransaction, d, here);
                            return Ok(());
                        }
                        // A call while the first consumer's claim is live is a call in
                        // parallel with it, whether the twin took the claim or ignored it.
                        if live.take().is_some() {
                            self.breach(LabInvariant::LiveClaimTakenOver, d, here.clone());
                        }
                        let answer = self.lab_charge(d, key.as_deref(), amount, here.clone())?;
                        if answer != ProviderAnswer::Answered {
                            return Ok(());
                        }
                    }
                    SideEffect::DeadLetter { .. } => return Ok(()),
                    SideEffect::Publish { .. } => {}
                }
            }
            match result {
                Ok(_) => {}
                Err(StatementError::Learner(e)) => return Err(SimError::Lab(e)),
                Err(StatementError::Runtime(_)) => return Ok(()),
            }
            if let Some(claim) = &live {
                let held: bool = (self.conns.sweeper)
                    .query_row(
                        SQL_CLAIM_HELD,
                        rusqlite::params![claim.id, claim.instance, claim.received_ms],
                        |r| r.get(0),
                    )
                    .ctx(actor, "read the claim")?;
                if !held {
                    self.breach(LabInvariant::LiveClaimTakenOver, d, here.clone());
                    live = None;
                }
            }
            let now_max = max_effect(self)?;
            if now_max > before {
                before = now_max;
                if let Some(l) = &mut self.lab {
                    l.trail.entries.push(here);
                }
            }
        }
        Ok(())
    }
}

//! A delivery that must wait: it found a claim another delivery took and has not processed
//! yet (the call to the provider may still be running), or the provider answered 409 "in
//! progress". Neither is done nor failed, so the consumer settles nothing and lets the message
//! go: the lock (Service Bus) or the visibility timeout (SQS) runs out and the broker delivers
//! it again later, a real delay that abandon would not give. A claim that never expires makes
//! every delivery wait until none is left; the end of the run names it.

use std::collections::HashMap;

use super::super::action::Delivery;
use super::super::{SimError, Simulation, SqlContext};
use crate::lab::{Section, TrailEntry, ledger};
use crate::model::{Actor, Event, EventKind, Outcome, Stage};
use content::LabInvariant;

/// What the SQL view shows when a delivery found a claim still in progress.
pub(crate) const LAB_WAIT_CLAIM_SQL: &[&str] =
    &["-- @handle (your lab file): a claim not yet processed, released for later"];
/// What it shows when the provider answered 409 "in progress".
pub(crate) const LAB_WAIT_PROVIDER_SQL: &[&str] =
    &["-- @handle (your lab file): charge() answered 409 in progress, released for later"];

/// Why a delivery waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Waiting {
    /// A UNIQUE violation on a claim whose message has no effect yet.
    ClaimInProgress,
    /// The provider is still running a call with the same key.
    ProviderInProgress,
}

/// The messages that waited on a claim, with the order and the statement that met the claim
/// first.
pub(crate) type Released = HashMap<String, (i64, TrailEntry)>;

impl Simulation {
    /// From now on a UNIQUE violation settles a delivery as a duplicate only when the ledger
    /// holds the message's effect; one that meets a claim not yet processed waits (a lab whose
    /// handler may claim before it calls the provider).
    pub fn lab_tell_claims_from_duplicates(&mut self) {
        if let Some(l) = &mut self.lab {
            l.released.get_or_insert_default();
        }
    }

    /// Whether the lab tells a claim in progress from a duplicate (and leaves the claims'
    /// expiry to the learner).
    pub(crate) fn lab_tells_claims_from_duplicates(&self) -> bool {
        self.lab.as_ref().is_some_and(|l| l.released.is_some())
    }

    /// Whether a UNIQUE violation of consumer `c` handling `d` met a claim in progress: the
    /// lab tells claims from duplicates and the engine's ledger holds no effect of the message.
    pub(super) fn lab_claim_in_progress(&self, c: u8, d: &Delivery) -> Result<bool, SimError> {
        if !self.lab_tells_claims_from_duplicates() {
            return Ok(false);
        }
        let conn = &self.conns.consumers[usize::from(c)];
        let done =
            ledger::holds_effect(conn, &d.message_id).ctx(Actor::Consumer(c), "read the ledger")?;
        Ok(!done)
    }

    /// Consumer `c` lets delivery `d` go without settling it; the broker brings it back once
    /// its lock or visibility timeout runs out.
    pub(super) fn lab_release_for_later(
        &mut self,
        c: u8,
        d: &Delivery,
        why: Waiting,
        here: TrailEntry,
    ) -> Event {
        if why == Waiting::ClaimInProgress
            && let Some(released) = self.lab.as_mut().and_then(|l| l.released.as_mut())
        {
            released
                .entry(d.message_id.clone())
                .or_insert((d.order_id, here));
        }
        self.poll_again(c, self.clock.now + 1);
        let sql = match why {
            Waiting::ClaimInProgress => LAB_WAIT_CLAIM_SQL,
            Waiting::ProviderInProgress => LAB_WAIT_PROVIDER_SQL,
        };
        Event::new(Actor::Consumer(c), Stage::Consumer, EventKind::Failed)
            .message(&d.message_id)
            .sql(sql)
            .outcome(Outcome::Unknown)
    }

    /// At the end of the run: a message that waited on a claim and never took effect met a
    /// claim that never expired (`claim-never-expires`, at the statement that met it first).
    pub(crate) fn lab_check_claims(&mut self) -> Result<(), SimError> {
        let Some(released) = self.lab.as_ref().and_then(|l| l.released.as_ref()) else {
            return Ok(());
        };
        let mut stuck = Vec::new();
        for (message_id, (order, statement)) in released {
            let done = ledger::holds_effect(&self.conns.sweeper, message_id)
                .ctx(Actor::Consumer(0), "read the ledger")?;
            if !done {
                stuck.push((*order, message_id.clone(), statement.clone()));
            }
        }
        stuck.sort_by_key(|(_, _, s)| (s.at_ms, s.message_id.clone()));
        for (order, message_id, statement) in stuck {
            debug_assert_eq!(statement.section, Section::Handle);
            self.breach_of(
                LabInvariant::ClaimNeverExpires,
                order,
                &message_id,
                statement,
            );
        }
        Ok(())
    }
}

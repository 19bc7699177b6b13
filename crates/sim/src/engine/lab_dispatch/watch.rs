//! What a lab run watches in the learner's dispatcher: two live dispatchers on one row
//! (`two-dispatchers-one-row`), a claim that returns the same row for ever, and rows left
//! unmarked at the end of the run (`outbox-row-stuck`).

use super::super::action::Claimed;
use super::super::{SimError, Simulation, SqlContext};
use super::RowState;
use crate::lab::{LabFileError, LabFileErrorKind, Section, Statement};
use crate::model::Actor;
use content::LabInvariant;

/// The rows still waiting for their mark (a row given up on has its reason).
const SQL_UNMARKED: &str = "SELECT order_id, message_id FROM outbox \
     WHERE published_ms IS NULL AND failed_reason IS NULL ORDER BY id";

/// How often one outbox row may be claimed in a lab run: far more than a broker outage's
/// retries need, few enough that a claim returning the same row again and again ends soon.
const MAX_CLAIMS_PER_ROW: u32 = 100;

impl Simulation {
    /// Counts how often each row was claimed; a claim that keeps returning a row (one
    /// already published, or one its `@published` never marks) would publish it for ever, so
    /// the run stops there with the file's error.
    pub(super) fn count_claims(
        &mut self,
        stmt: &Statement,
        claimed: &[Claimed],
    ) -> Result<(), SimError> {
        let Some(lab) = &mut self.lab else {
            return Ok(());
        };
        for c in claimed {
            let n = lab.claims_per_row.entry(c.id).or_insert(0);
            *n += 1;
            if *n > MAX_CLAIMS_PER_ROW {
                return Err(SimError::Lab(LabFileError {
                    line: stmt.line,
                    column: stmt.column,
                    kind: LabFileErrorKind::ClaimedTooOften(c.message_id.clone()),
                }));
            }
        }
        Ok(())
    }

    /// The trail of a learner's claim, and the rows another live dispatcher still holds.
    pub(super) fn note_claim(
        &mut self,
        d: u8,
        lease_ms: u64,
        stmt: &Statement,
        rows: &[(Claimed, RowState)],
    ) {
        let now = self.clock.now;
        let entries: Vec<_> = (rows.iter())
            .map(|(c, _)| self.dispatch_entry(d, &c.message_id, Section::Claim, stmt))
            .collect();
        let held_by_other = |id: i64, claimed_at: &[u64]| {
            (self.actors.dispatchers.iter().enumerate()).any(|(e, st)| {
                e != usize::from(d)
                    && st.down_until <= now
                    && now < claimed_at[e] + lease_ms
                    && st.batch.iter().any(|c| c.id == id)
            })
        };
        let Some(lab) = &self.lab else {
            return;
        };
        let contested: Vec<_> = (rows.iter().zip(&entries))
            .filter(|((c, _), _)| held_by_other(c.id, &lab.claimed_at))
            .map(|((c, _), e)| (d, c.id, e.clone()))
            .collect();
        let Some(lab) = &mut self.lab else {
            return;
        };
        lab.claimed_at[usize::from(d)] = now;
        lab.contested.retain(|(who, _, _)| *who != d);
        lab.contested.extend(contested);
        lab.trail.entries.extend(entries);
    }

    /// After dispatcher `d` published `batch`: a row it claimed while another live
    /// dispatcher held it breaks `two-dispatchers-one-row` (once per row), named at the claim.
    pub(crate) fn lab_note_published(&mut self, d: u8, batch: &[Claimed]) {
        let Some(lab) = &mut self.lab else {
            return;
        };
        let mut found = Vec::new();
        lab.contested.retain(|(who, id, entry)| {
            let hit = *who == d && batch.iter().any(|c| c.id == *id);
            if hit {
                found.push((*id, entry.clone()));
            }
            !hit
        });
        for (id, entry) in found {
            if let Some(c) = batch.iter().find(|c| c.id == id) {
                self.breach_of(
                    LabInvariant::TwoDispatchersOneRow,
                    c.order_id,
                    &c.message_id,
                    entry,
                );
            }
        }
    }

    /// At the end of a run of a lab that opens `@claim`: every outbox row the dispatchers did
    /// not give up on must be marked published. A row still unmarked stays leased for ever
    /// (a lease without an end, held by a dispatcher that crashed): `outbox-row-stuck`, named
    /// at the claim that took it last.
    pub fn lab_check_outbox(&mut self) -> Result<(), SimError> {
        if !self.lab_claims() {
            return Ok(());
        }
        let Some(lab) = &self.lab else {
            return Ok(());
        };
        let claim_line = lab.sql.section_line(Section::Claim);
        let stuck: Vec<(i64, String)> = self
            .conns
            .sweeper
            .prepare(SQL_UNMARKED)
            .and_then(|mut st| st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
            .ctx(Actor::Dispatcher(0), "read the outbox")?;
        let mut found = Vec::new();
        for (order, message_id) in stuck {
            let statement =
                lab.trail
                    .newest_or_header(&message_id, Section::Claim, claim_line, self.clock.now);
            found.push((order, message_id, statement));
        }
        for (order, message_id, statement) in found {
            self.breach_of(LabInvariant::OutboxRowStuck, order, &message_id, statement);
        }
        Ok(())
    }
}

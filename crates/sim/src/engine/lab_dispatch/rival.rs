//! The second dispatcher of a statement-level fault: in a gap of one dispatcher's `@claim` or
//! `@published`, another one polls the same outbox with the learner's whole `@claim`, on a
//! connection of its own. A row both then hold is a row two live dispatchers publish
//! (`two-dispatchers-one-row`). A dispatcher that crashes right after a durable point keeps
//! what it wrote in the rows, and comes back after the scenario's restart time.

use std::sync::Arc;

use rusqlite::types::Value;

use super::super::action::{Action, Claimed};
use super::super::outbox::owner;
use super::super::{SimError, Simulation};
use super::{RowState, cannot_run, end_of_section, int};
use crate::lab::hooks::query_statement;
use crate::lab::{Section, Statement};

impl Simulation {
    /// A second dispatcher (not `d`) runs the learner's whole `@claim` on the spare connection:
    /// the ids of the rows it claimed.
    pub(super) fn lab_rival_claim(
        &mut self,
        d: u8,
        lease_ms: u64,
        batch: u32,
    ) -> Result<Vec<i64>, SimError> {
        let Some(lab) = &self.lab else {
            return Ok(Vec::new());
        };
        let sql = Arc::clone(&lab.sql);
        let guard = lab.spare_guard.clone();
        let lease_ms = if lease_ms == 0 {
            self.spec.scenario.setup.lease_ms
        } else {
            lease_ms
        };
        let batch = batch.min(self.spec.scenario.setup.batch);
        let binds = [
            (":dispatcher", Value::Text(owner(d ^ 1))),
            (":now_ms", int(self.clock.now)),
            (":lease_ms", int(lease_ms)),
            (":batch", Value::Integer(i64::from(batch))),
        ];
        // It polls the same outbox rows the first one works on.
        self.lab_competitor_touched();
        let conn = &self.conns.sweeper;
        let mut ids = Vec::new();
        for stmt in sql.statements(Section::Claim) {
            match query_statement(conn, &guard, stmt, &binds) {
                Ok(r) if r.columns.is_empty() => {}
                Ok(r) => {
                    let at = r.columns.iter().position(|c| c.eq_ignore_ascii_case("id"));
                    ids = at.map_or_else(Vec::new, |i| {
                        (r.rows.iter())
                            .filter_map(|row| match row[i] {
                                Value::Integer(n) => Some(n),
                                _ => None,
                            })
                            .collect()
                    });
                }
                Err(e) => return Err(end_of_section(conn, 0, Some(cannot_run(stmt, e)))),
            }
        }
        if !conn.is_autocommit() {
            return Err(end_of_section(conn, sql.section_line(Section::Claim), None));
        }
        Ok(ids)
    }

    /// Rows of `d`'s batch the rival claimed too: each breaks `two-dispatchers-one-row` once
    /// `d` publishes it, named at `d`'s statement of `section`.
    pub(super) fn note_rival(
        &mut self,
        d: u8,
        section: Section,
        stmt: &Statement,
        rows: &[(Claimed, RowState)],
        rival: &[i64],
    ) {
        let shared: Vec<_> = (rows.iter())
            .filter(|(c, _)| rival.contains(&c.id))
            .map(|(c, _)| {
                (
                    d,
                    c.id,
                    self.dispatch_entry(d, &c.message_id, section, stmt),
                )
            })
            .collect();
        if let Some(lab) = &mut self.lab {
            lab.contested.extend(shared);
        }
    }

    /// Dispatcher `d` crashes: what its statements committed stays in the rows; it is back
    /// after the scenario's restart time, and its leases run out as they were written.
    pub(super) fn lab_dispatcher_crash(&mut self, d: u8) {
        let i = usize::from(d);
        let setup = &self.spec.scenario.setup;
        let restart = self.clock.now + setup.restart_ms;
        let lease_end = self.clock.now + setup.lease_ms;
        self.actors.dispatchers[i].down_until = restart;
        self.schedule(restart, Action::DispatcherRestart(d));
        self.schedule(lease_end, Action::LeaseExpiry);
    }
}

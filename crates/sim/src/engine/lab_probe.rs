//! The statement boundaries of learner sections, as the engine meets them: whether the
//! statement just run made something durable and whether the next one follows outside a
//! transaction, handed to the run's probe ([`crate::lab::probe`]), which says whether the actor
//! crashes here or a competitor runs here.

use rusqlite::Connection;

use super::Simulation;
use crate::lab::probe::{Probe, ProbeState, Strike};
use crate::lab::{Section, Statement};

/// What one statement did, seen from its connection.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Boundary {
    /// A transaction was open before the statement.
    pub in_tx_before: bool,
    /// The statement called a function that acts outside the database (`charge`, `publish`).
    pub acted: bool,
    /// The statement is the section's last.
    pub last: bool,
}

impl Boundary {
    /// Before running `stmt` on `conn`.
    pub(crate) fn before(conn: &Connection, index: usize, count: usize) -> Boundary {
        Boundary {
            in_tx_before: !conn.is_autocommit(),
            acted: false,
            last: index + 1 >= count,
        }
    }

    /// After `stmt` ran on `conn`: whether it left a durable point and whether a gap follows.
    pub(crate) fn after(self, conn: &Connection, stmt: &Statement) -> (bool, bool) {
        let outside = conn.is_autocommit();
        let durable = self.acted || (outside && (self.in_tx_before || writes(conn, stmt)));
        (durable, outside && !self.last)
    }
}

impl Boundary {
    /// Whether `stmt`, just run on `conn`, ran inside a transaction: one open before it, or
    /// the statement's own write transaction (a write that calls a function holds the write
    /// lock while the function runs).
    pub(crate) fn holds_transaction(self, conn: &Connection, stmt: &Statement) -> bool {
        self.in_tx_before || writes(conn, stmt)
    }
}

/// Whether `stmt` may write to the database (SQLite's own answer; `BEGIN` and `COMMIT` count
/// as read-only here, a `COMMIT` is recognised by the transaction it ends).
pub(crate) fn writes(conn: &Connection, stmt: &Statement) -> bool {
    conn.prepare_cached(&stmt.sql).is_ok_and(|s| !s.readonly())
}

impl Simulation {
    /// The run's probe (a lab run only).
    pub fn lab_probe(&self) -> Option<&ProbeState> {
        self.lab.as_ref().map(|l| &l.probe)
    }

    /// Aims this run's probe (before the first step).
    pub fn lab_set_probe(&mut self, probe: Probe) {
        if let Some(l) = &mut self.lab {
            l.probe = ProbeState::new(probe);
        }
    }

    /// The boundary right after statement `index` of `section` (what it is: [`Boundary::after`]):
    /// records it and says what strikes here.
    pub(crate) fn lab_boundary(
        &mut self,
        section: Section,
        index: usize,
        (durable, gap): (bool, bool),
    ) -> Option<Strike> {
        self.lab
            .as_mut()
            .and_then(|l| l.probe.boundary(section, index, durable, gap))
    }

    /// A competitor ran and touched the same message or row.
    pub(crate) fn lab_competitor_touched(&mut self) {
        if let Some(l) = &mut self.lab {
            l.probe.touched();
        }
    }
}

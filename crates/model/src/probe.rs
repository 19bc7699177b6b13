//! Statement-level faults with coverage by construction. A learner section is a list of
//! statements; between them the world goes on. Two places matter:
//!
//! - a *durable point*: right after a statement that made something last (one that wrote
//!   outside a transaction, a `COMMIT`, or a call that acts outside the database): the actor
//!   may crash there, and what it did so far stays;
//! - a *gap*: between two statements outside a transaction: a competitor that touches the same
//!   message or row (a twin consumer given the same message, the client's concurrent retry of
//!   the same request, a second dispatcher polling the same rows) may run its whole section
//!   there.
//!
//! Every transaction still runs inside one step of the simulation (the connections wait for no
//! lock), so a competitor never meets an open transaction. A discovery run records the points
//! and gaps each section reaches; then one run per point crashes there at its first
//! occurrence, and one run per gap runs the competitor there. The check counts what fired.

use std::collections::BTreeSet;

use content::LabSection as Section;

/// A place in a section: right after its statement `index` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Site {
    /// The section.
    pub section: Section,
    /// The statement's index in the section.
    pub index: usize,
}

/// What a run does at statement boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Probe {
    /// Nothing strikes; the points and gaps reached are recorded.
    #[default]
    Discover,
    /// The actor crashes right after this durable point, at its first occurrence. In `@accept`
    /// the client retries the request afterwards when `client_retry` is set.
    Crash {
        /// Where.
        site: Site,
        /// The client sends the request again (`@accept` only).
        client_retry: bool,
    },
    /// A competitor runs its whole section in this gap, at its first occurrence.
    Compete {
        /// Where.
        site: Site,
    },
}

/// What a statement boundary asks of the actor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strike {
    /// Crash here (the rest of the section does not run, an open transaction rolls back).
    Crash {
        /// The client retries (`@accept`).
        client_retry: bool,
    },
    /// Run the competitor's whole section here, then go on.
    Compete,
}

/// The durable points and gaps a run reached.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reached {
    /// Durable points.
    pub points: BTreeSet<Site>,
    /// Gaps.
    pub gaps: BTreeSet<Site>,
}

/// The probe of one run: what it should do, what it reached, whether it struck.
#[derive(Debug, Clone, Default)]
pub struct ProbeState {
    probe: Probe,
    reached: Reached,
    /// The probe struck, and (for a competitor) its section touched the same message or row.
    struck: Option<bool>,
}

impl ProbeState {
    /// A probe that does `probe`.
    pub fn new(probe: Probe) -> ProbeState {
        ProbeState {
            probe,
            ..ProbeState::default()
        }
    }

    /// The probe.
    pub fn probe(&self) -> Probe {
        self.probe
    }

    /// The boundary after statement `index` of `section` was reached; `durable` and `gap`
    /// say what it is. Returns what strikes here (once per run: the first occurrence).
    pub fn boundary(
        &mut self,
        section: Section,
        index: usize,
        durable: bool,
        gap: bool,
    ) -> Option<Strike> {
        let site = Site { section, index };
        if durable {
            self.reached.points.insert(site);
        }
        if gap {
            self.reached.gaps.insert(site);
        }
        if self.struck.is_some() {
            return None;
        }
        let strike = match self.probe {
            Probe::Crash {
                site: s,
                client_retry,
            } if durable && s == site => Strike::Crash { client_retry },
            Probe::Compete { site: s } if gap && s == site => Strike::Compete,
            _ => return None,
        };
        // A crash always lands; a competitor counts once it touched the same message or row.
        self.struck = Some(matches!(strike, Strike::Crash { .. }));
        Some(strike)
    }

    /// The competitor that just ran touched the same message or row.
    pub fn touched(&mut self) {
        if self.struck.is_some() {
            self.struck = Some(true);
        }
    }

    /// What the run reached.
    pub fn reached(&self) -> &Reached {
        &self.reached
    }

    /// Whether the probe struck where it was aimed (and a competitor touched the same message
    /// or row).
    pub fn landed(&self) -> bool {
        self.struck == Some(true)
    }
}

/// The targeted runs that cover `reached`: one crash per point (two in `@accept`, with and
/// without the client's retry) and one competitor per gap.
pub fn targets(reached: &Reached) -> Vec<Probe> {
    let mut out = Vec::new();
    for &site in &reached.points {
        out.push(Probe::Crash {
            site,
            client_retry: false,
        });
        if site.section == Section::Accept {
            out.push(Probe::Crash {
                site,
                client_retry: true,
            });
        }
    }
    out.extend(reached.gaps.iter().map(|&site| Probe::Compete { site }));
    out
}

/// How many of the targeted runs landed: crash points and gaps, each out of its total.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Crash runs that struck.
    pub points_hit: u64,
    /// Crash runs made.
    pub points: u64,
    /// Competitor runs that touched the same message or row.
    pub gaps_hit: u64,
    /// Competitor runs made.
    pub gaps: u64,
}

impl Coverage {
    /// Counts one targeted run.
    pub fn count(&mut self, probe: Probe, landed: bool) {
        match probe {
            Probe::Discover => {}
            Probe::Crash { .. } => {
                self.points += 1;
                self.points_hit += u64::from(landed);
            }
            Probe::Compete { .. } => {
                self.gaps += 1;
                self.gaps_hit += u64::from(landed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_strikes_once_at_its_site_and_records_every_boundary() {
        let site = Site {
            section: Section::Handle,
            index: 1,
        };
        let mut p = ProbeState::new(Probe::Crash {
            site,
            client_retry: false,
        });
        assert_eq!(p.boundary(Section::Handle, 0, true, true), None);
        assert_eq!(
            p.boundary(Section::Handle, 1, true, false),
            Some(Strike::Crash {
                client_retry: false
            })
        );
        assert_eq!(
            p.boundary(Section::Handle, 1, true, false),
            None,
            "first occurrence only"
        );
        assert!(p.landed());
        assert_eq!(p.reached().points.len(), 2);
        assert_eq!(p.reached().gaps.len(), 1);
    }

    #[test]
    fn a_competitor_lands_only_when_it_touched_the_same_row() {
        let site = Site {
            section: Section::Claim,
            index: 0,
        };
        let mut p = ProbeState::new(Probe::Compete { site });
        assert_eq!(
            p.boundary(Section::Claim, 0, false, true),
            Some(Strike::Compete)
        );
        assert!(!p.landed());
        p.touched();
        assert!(p.landed());
    }

    #[test]
    fn accept_points_are_struck_with_and_without_the_retry() {
        let mut reached = Reached::default();
        reached.points.insert(Site {
            section: Section::Accept,
            index: 0,
        });
        reached.points.insert(Site {
            section: Section::Handle,
            index: 2,
        });
        reached.gaps.insert(Site {
            section: Section::Handle,
            index: 0,
        });
        assert_eq!(targets(&reached).len(), 4);
    }
}

//! Pacing: the instructor's commands to the room (open a chapter or a scenario, reveal a
//! decision), stored and served to the trainees' polls with the distributions revealed so far.

use super::{HostState, lock};
use crate::domain::workshop::pace::{MAX_PACES, PaceReply};
use crate::domain::workshop::{Pace, PaceKind};
use std::collections::BTreeMap;

impl HostState {
    /// Stores and serves a pacing command after checking its ids against the content.
    pub fn pace(&self, kind: PaceKind, now_ms: i64) -> Result<Pace, String> {
        kind.validate(&self.catalog)?;
        let pace = lock(&self.db)
            .add_pace(kind, now_ms)
            .map_err(|e| format!("host database: {e}"))?;
        lock(&self.paces).push(pace.clone());
        Ok(pace)
    }

    /// The pacing commands after `after` (the newest [`MAX_PACES`] at most) and the decisions
    /// revealed so far.
    pub fn paces_after(&self, after: u64) -> PaceReply {
        let paces = lock(&self.paces);
        let newer: Vec<Pace> = paces.iter().filter(|p| p.id > after).cloned().collect();
        let skip = newer.len().saturating_sub(MAX_PACES);
        let revealed = revealed(&paces);
        drop(paces);
        let distributions = if revealed.is_empty() {
            BTreeMap::new()
        } else {
            let mut all = lock(&self.summary).distributions(&self.catalog);
            all.retain(|d, _| revealed.contains(d));
            all
        };
        PaceReply {
            paces: newer.into_iter().skip(skip).collect(),
            revealed,
            distributions,
            hold_feedback: self.hold_feedback,
            stuck: None,
        }
    }
}

/// Decision ids revealed by any command so far, in the order revealed.
pub(super) fn revealed(paces: &[Pace]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for pace in paces {
        if let PaceKind::RevealDecision { decision } = &pace.kind
            && !out.contains(decision)
        {
            out.push(decision.clone());
        }
    }
    out
}

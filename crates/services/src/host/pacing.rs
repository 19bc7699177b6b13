//! Pacing: the instructor's commands to the room (open a chapter or a scenario, reveal a
//! decision, open a second vote on one), stored and served to the trainees' polls with the distributions revealed so far.

use super::{HostDbError, HostState, lock};
use domain::workshop::pace::{MAX_PACES, PaceReply};
use domain::workshop::{Pace, PaceKind};
use std::collections::BTreeMap;

/// Why a pacing command was not stored.
#[derive(Debug, thiserror::Error)]
pub enum PaceError {
    /// It names a chapter, scenario, mode or decision the content does not have (which).
    #[error("{0}")]
    Refused(String),
    /// The host database failed.
    #[error(transparent)]
    Database(#[from] HostDbError),
}

impl HostState {
    /// Stores and serves a pacing command after checking its ids against the content.
    pub fn pace(&self, kind: PaceKind, now_ms: i64) -> Result<Pace, PaceError> {
        kind.validate(&self.catalog).map_err(PaceError::Refused)?;
        let pace = lock(&self.db).add_pace(kind, now_ms).map_err(HostDbError)?;
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
        let second_votes = second_votes(&paces);
        drop(paces);
        let (distributions, second_distributions) = if revealed.is_empty() {
            (BTreeMap::new(), BTreeMap::new())
        } else {
            let summary = lock(&self.summary);
            let mut first = summary.distributions(&self.catalog);
            first.retain(|d, _| revealed.contains(d));
            let second = summary.second_distributions(
                &self.catalog,
                second_votes.iter().filter(|d| revealed.contains(d)),
            );
            (first, second)
        };
        PaceReply {
            paces: newer.into_iter().skip(skip).collect(),
            revealed,
            distributions,
            second_votes,
            second_distributions,
            second_given: Vec::new(),
            hold_feedback: self.hold_feedback,
            stuck: None,
        }
    }

    /// The decisions of `second_votes` whose second vote the host counted for `trainee`.
    pub fn second_given(&self, trainee: &str, second_votes: &[String]) -> Vec<String> {
        let trainee = super::names::normal_id(trainee);
        let summary = lock(&self.summary);
        second_votes
            .iter()
            .filter(|d| summary.second_given(&trainee, d))
            .cloned()
            .collect()
    }
}

/// Decision ids revealed by any command so far, in the order revealed.
pub(super) fn revealed(paces: &[Pace]) -> Vec<String> {
    decisions_named(paces, |kind| match kind {
        PaceKind::RevealDecision { decision } => Some(decision),
        _ => None,
    })
}

/// Decision ids a second vote was opened on, in the order opened.
pub(super) fn second_votes(paces: &[Pace]) -> Vec<String> {
    decisions_named(paces, |kind| match kind {
        PaceKind::SecondVote { decision } => Some(decision),
        _ => None,
    })
}

/// The decision ids `pick` finds in the commands, each once, in the order first named.
fn decisions_named(paces: &[Pace], pick: impl Fn(&PaceKind) -> Option<&String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for decision in paces.iter().filter_map(|p| pick(&p.kind)) {
        if !out.contains(decision) {
            out.push(decision.clone());
        }
    }
    out
}

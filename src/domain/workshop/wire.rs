//! The JSON bodies trainee and host exchange.

use super::Event;
use serde::{Deserialize, Serialize};

/// Largest number of events in one delivery.
pub const MAX_BATCH: usize = 200;

/// `POST /api/events`: a trainee's batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventBatch {
    /// The join code.
    pub code: String,
    /// The trainee's id.
    pub trainee: String,
    /// The trainee's secret (the host keeps only its hash; first use registers it).
    pub token: String,
    /// The display name.
    pub name: String,
    /// The events, oldest first.
    pub events: Vec<Event>,
}

/// An event the host refused, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    /// The event id.
    pub id: String,
    /// Why.
    pub reason: String,
}

/// The host's answer to a batch.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BatchReply {
    /// The session's name.
    pub session: String,
    /// Events stored now.
    pub stored: u32,
    /// Events the host already had (recognised by id, not counted again).
    pub duplicates: u32,
    /// Events refused (they are never retried).
    pub rejected: Vec<Rejected>,
}

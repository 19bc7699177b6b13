//! The bodies of the instructor's routes (pacing and the summary have their own types in
//! [`crate::workshop`]).

use serde::{Deserialize, Serialize};

/// The body of `POST /api/kick`, `/api/remove` and `/api/ack`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Who {
    /// The trainee's name (any case) or id.
    pub who: String,
}

/// A trainee the instructor removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kicked {
    /// Their id.
    pub id: String,
    /// Their name in the room.
    pub name: String,
    /// How many of their events were deleted.
    pub events: usize,
}

/// The answer to `POST /api/ack`: whose stuck signal was acknowledged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acknowledged {
    /// The trainee's name.
    pub name: String,
}

/// The answer to `POST /api/lock` and `/api/unlock`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoorState {
    /// Whether new trainees are kept out now.
    pub locked: bool,
}

/// The answer to `GET /api/silent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SilentCount {
    /// How many trainees never sent an event.
    pub n: usize,
}

/// What removing the silent trainees did (`POST /api/silent`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SilentRemoved {
    /// How many trainees never sent an event (before removing, or removed).
    pub n: usize,
    /// Their names, when they were removed.
    pub names: Vec<String>,
}

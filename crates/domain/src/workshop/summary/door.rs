//! The room's door as the instructor's screens show it: whether new trainees may join, and how
//! many joined in the last minute, so a flood of registrations is seen while it happens.

use serde::{Deserialize, Serialize};

/// More new trainees than this in one minute is flagged: a whole class joining at once stays
/// below it; a script registering from several addresses does not.
pub const BURST_JOINS_PER_MINUTE: u32 = 30;

/// The room's door.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Door {
    /// No new trainees may join (known trainees still come back).
    pub locked: bool,
    /// Trainees who joined in the last 60 seconds (removed ones included: they did join).
    pub joins_last_minute: u32,
    /// More joins in the last minute than [`BURST_JOINS_PER_MINUTE`].
    pub burst: bool,
    /// Trainees in the room who never sent an event (what "remove the silent" would remove).
    pub silent: u32,
}

impl Door {
    /// The door with `joins_last_minute`, flagged as a burst above the limit.
    pub fn new(locked: bool, joins_last_minute: u32, silent: u32) -> Door {
        Door {
            locked,
            joins_last_minute,
            burst: joins_last_minute > BURST_JOINS_PER_MINUTE,
            silent,
        }
    }
}

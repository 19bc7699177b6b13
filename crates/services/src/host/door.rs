//! The instructor's hand on the room's door, for a flood of registrations: lock the room (no new
//! trainees; a known trainee's client coming back with its token is never refused; the lock
//! survives a restart), see how many joined in the last minute, and remove in one action every
//! trainee who never sent an event.

use super::{HostDbError, HostState, lock};
use domain::workshop::summary::door::Door;

/// One minute, in ms: the window of the joins-per-minute figure.
const MINUTE_MS: i64 = 60_000;

pub use domain::workshop::wire::SilentRemoved;

impl HostState {
    /// Whether new trainees are kept out.
    pub fn locked(&self) -> bool {
        self.door_locked.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Locks (or unlocks) the room for new trainees; stored, so a restart keeps it.
    pub fn set_locked(&self, locked: bool) -> Result<(), HostDbError> {
        // Under the database lock, so a registration sees either state whole.
        let db = lock(&self.db);
        db.set_locked(locked)?;
        self.door_locked
            .store(locked, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }

    /// The door as the summary shows it at `now_ms`.
    pub(super) fn door(&self, now_ms: i64) -> Door {
        let db = lock(&self.db);
        let joins = db.joins_since(now_ms - MINUTE_MS).unwrap_or(0);
        let silent = db.silent_trainees().map_or(0, |t| t.len() as u32);
        Door::new(self.locked(), joins, silent)
    }

    /// How many trainees never sent an event (shown before they are removed).
    pub fn silent_count(&self) -> Result<usize, HostDbError> {
        Ok(lock(&self.db).silent_trainees()?.len())
    }

    /// Removes every trainee who never sent an event; their clients are refused from now on.
    pub fn remove_silent(&self, now_ms: i64) -> Result<SilentRemoved, HostDbError> {
        let mut db = lock(&self.db);
        let removed = db.remove_silent(now_ms)?;
        if !removed.is_empty() {
            *lock(&self.summary) = db.summary(&self.catalog)?;
        }
        Ok(SilentRemoved {
            n: removed.len(),
            names: removed.into_iter().map(|(_, name)| name).collect(),
        })
    }
}

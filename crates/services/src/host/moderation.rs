//! The instructor's hand on the room: removing a trainee (kick, or only their row) and
//! acknowledging a stuck signal. Each changes the database and the summary together.

use super::{HostDbError, HostState, lock, names};
pub use domain::workshop::wire::Kicked;

/// Why a stuck signal could not be acknowledged.
#[derive(Debug, thiserror::Error)]
pub enum AckError {
    /// The trainee has no open stuck signal (their name).
    #[error("{name} is not stuck")]
    NotStuck { name: String },
    /// The host database failed.
    #[error(transparent)]
    Database(#[from] HostDbError),
}

impl HostState {
    /// Removes the trainee called `who` (name in any case, or id): their events leave the
    /// database and the summary, and their client is refused from now on. None when no
    /// trainee is called so.
    pub fn kick(&self, who: &str, now_ms: i64) -> Result<Option<Kicked>, HostDbError> {
        self.remove(who, now_ms, true)
    }

    /// Removes the row of the trainee called `who` (one who left, a stray row): their events
    /// leave the database and the summary, but unlike [`HostState::kick`] their client is not
    /// refused; delivering again makes a new row. None when no trainee is called so.
    pub fn remove_row(&self, who: &str, now_ms: i64) -> Result<Option<Kicked>, HostDbError> {
        self.remove(who, now_ms, false)
    }

    fn remove(&self, who: &str, now_ms: i64, ban: bool) -> Result<Option<Kicked>, HostDbError> {
        let mut db = lock(&self.db);
        let Some((id, name, events)) = db.remove_trainee(who, now_ms, ban)? else {
            return Ok(None);
        };
        // Rebuilt from the database under its lock (a rare command): the summary holds
        // exactly what is stored, distributions included; every other trainee keeps the
        // contact heard since it was last stored.
        let mut summary = db.summary(&self.catalog)?;
        let mut old = lock(&self.summary);
        for (trainee, at_ms) in old.contacts() {
            summary.touch(&trainee, at_ms);
        }
        *old = summary;
        Ok(Some(Kicked { id, name, events }))
    }

    /// Acknowledges the open stuck signal of the trainee called `who` (name in any case, or
    /// id): the dashboard marks it and the trainee's next poll tells them. Ok(None) when no
    /// trainee is called so.
    pub fn acknowledge(&self, who: &str) -> Result<Option<String>, AckError> {
        let db = lock(&self.db);
        let Some((id, name)) = db.find_trainee(who).map_err(HostDbError)? else {
            return Ok(None);
        };
        let mut summary = lock(&self.summary);
        let Some(n) = summary.open_stuck(&id) else {
            return Err(AckError::NotStuck { name });
        };
        db.acknowledge(&id, n).map_err(HostDbError)?;
        summary.acknowledge(&id, n);
        Ok(Some(name))
    }

    /// The trainee's open stuck signal: None when not stuck, else whether it was acknowledged.
    pub fn stuck_state(&self, trainee: &str) -> Option<bool> {
        lock(&self.summary).stuck_state(&names::normal_id(trainee))
    }
}

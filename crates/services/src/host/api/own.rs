//! Whether a request comes from a trainee's own client: its token, hashed, is the one on file.

use super::{TraineeCheck, token_hash};
use crate::host::{HostState, lock, names};

impl HostState {
    /// Whether `token` is the token of the trainee with id `trainee` (not removed).
    pub(super) fn owns(&self, trainee: &str, token: Option<&str>) -> bool {
        let Some(token) = token else { return false };
        let id = names::normal_id(trainee);
        matches!(
            lock(&self.db).check_trainee(&id, &token_hash(token)),
            Ok(TraineeCheck::Known)
        )
    }
}

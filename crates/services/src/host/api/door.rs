//! The door's API, for the instructor key: lock and unlock the room, count the trainees who
//! never sent an event and remove them.

use super::ApiResponse;
use crate::host::HostState;
use domain::workshop::wire::{DoorState, Route, SilentCount};

impl HostState {
    /// Answers a door route ([`Route::Lock`], [`Route::Unlock`], [`Route::CountSilent`],
    /// [`Route::RemoveSilent`]); the caller checked the instructor key.
    pub(super) fn door_request(&self, route: Route, now_ms: i64) -> ApiResponse {
        let answer = match route {
            Route::Lock | Route::Unlock => {
                let locked = route == Route::Lock;
                self.set_locked(locked)
                    .map(|()| ApiResponse::json(&DoorState { locked }))
            }
            Route::CountSilent => self
                .silent_count()
                .map(|n| ApiResponse::json(&SilentCount { n })),
            _ => self
                .remove_silent(now_ms)
                .map(|removed| ApiResponse::json(&removed)),
        };
        answer.unwrap_or_else(|e| ApiResponse::text(500, &e.to_string()))
    }
}

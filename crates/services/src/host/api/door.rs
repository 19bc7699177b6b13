//! The door's API, for the instructor key: `POST /api/lock` and `/api/unlock`, `GET
//! /api/silent` (how many trainees never sent an event) and `POST /api/silent` (remove them).

use super::{ApiRequest, ApiResponse};
use crate::host::HostState;

impl HostState {
    /// Answers a door request; None for any other path.
    pub(super) fn door_route(&self, req: &ApiRequest<'_>, now_ms: i64) -> Option<ApiResponse> {
        let action = match (req.method, req.path) {
            ("POST", "/api/lock") => Door::Lock(true),
            ("POST", "/api/unlock") => Door::Lock(false),
            ("GET", "/api/silent") => Door::CountSilent,
            ("POST", "/api/silent") => Door::RemoveSilent,
            (_, "/api/lock" | "/api/unlock" | "/api/silent") => {
                return Some(ApiResponse::text(405, "method not allowed here"));
            }
            _ => return None,
        };
        if let Err(refusal) = self.instructor(req) {
            return Some(refusal.response());
        }
        let answer = match action {
            Door::Lock(locked) => self
                .set_locked(locked)
                .map(|()| serde_json::json!({ "locked": locked })),
            Door::CountSilent => self.silent_count().map(|n| serde_json::json!({ "n": n })),
            Door::RemoveSilent => self
                .remove_silent(now_ms)
                .and_then(|r| serde_json::to_value(r).map_err(|e| e.to_string())),
        };
        Some(match answer {
            Ok(value) => ApiResponse::json(&value),
            Err(e) => ApiResponse::text(500, &e),
        })
    }
}

enum Door {
    Lock(bool),
    CountSilent,
    RemoveSilent,
}

//! The instructor's side of the API: the key check and the commands that need it (pacing,
//! kick, remove, acknowledge).

use super::{ApiRequest, ApiResponse, same};
use crate::domain::workshop::PaceKind;
use crate::services::host::HostState;

impl HostState {
    /// The instructor key, as a bearer token or as `key=` in the query (the projector page is
    /// opened in a browser, which cannot add a header).
    pub(super) fn instructor(&self, req: &ApiRequest<'_>) -> Result<(), ApiResponse> {
        let from_query = req.query.split('&').find_map(|p| p.strip_prefix("key="));
        match req.bearer.or(from_query) {
            Some(key) if same(key, &self.key) => Ok(()),
            Some(_) => Err(ApiResponse::text(403, "wrong instructor key")),
            None => Err(ApiResponse::text(
                401,
                "the instructor key is missing (Authorization: Bearer KEY)",
            )),
        }
    }

    /// `POST /api/pace`: the instructor sends a pacing command (JSON of a `PaceKind`).
    pub(super) fn send_pace(&self, body: &[u8], now_ms: i64) -> ApiResponse {
        let kind: PaceKind = match serde_json::from_slice(body) {
            Ok(k) => k,
            Err(e) => return ApiResponse::text(400, &format!("not a pacing command: {e}")),
        };
        match self.pace(kind, now_ms) {
            Ok(pace) => ApiResponse::json(&pace),
            Err(e) => ApiResponse::text(422, &e),
        }
    }

    /// `POST /api/kick` (`ban`) or `POST /api/remove` with `{"who": "NAME or ID"}`: the
    /// instructor removes a trainee and refuses their client, or only removes their row.
    pub(super) fn kick_request(&self, body: &[u8], now_ms: i64, ban: bool) -> ApiResponse {
        let request: KickRequest = match serde_json::from_slice(body) {
            Ok(r) => r,
            Err(e) => return ApiResponse::text(400, &format!("not a kick request: {e}")),
        };
        let removed = if ban {
            self.kick(&request.who, now_ms)
        } else {
            self.remove_row(&request.who, now_ms)
        };
        match removed {
            Ok(Some(kicked)) => ApiResponse::json(&kicked),
            Ok(None) => ApiResponse::text(
                404,
                &format!("no trainee called {:?} in this session", request.who),
            ),
            Err(e) => ApiResponse::text(500, &e),
        }
    }

    /// `POST /api/ack` with `{"who": "NAME or ID"}`: the instructor acknowledges a stuck
    /// signal. Answers the trainee's name.
    pub(super) fn ack_request(&self, body: &[u8]) -> ApiResponse {
        let request: KickRequest = match serde_json::from_slice(body) {
            Ok(r) => r,
            Err(e) => return ApiResponse::text(400, &format!("not an acknowledgement: {e}")),
        };
        match self.acknowledge(&request.who) {
            Ok(Some(name)) => ApiResponse::json(&serde_json::json!({ "name": name })),
            Ok(None) => ApiResponse::text(
                404,
                &format!("no trainee called {:?} in this session", request.who),
            ),
            Err(e) => ApiResponse::text(409, &e),
        }
    }
}

/// The body of `POST /api/kick`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct KickRequest {
    /// The trainee's name (any case) or id.
    who: String,
}

//! The instructor's side of the API: the key check and the commands that need it (pacing,
//! kick, remove, acknowledge).

use super::{ApiRequest, ApiResponse, same};
use crate::host::{AckError, HostState, PaceError, login, projector};
use domain::workshop::PaceKind;
use domain::workshop::wire::{Acknowledged, Who};

/// Why a request does not get the instructor's side of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyRefusal {
    /// Neither a bearer token nor the login cookie.
    Missing,
    /// A key that is not this session's.
    Wrong,
}

impl KeyRefusal {
    /// The HTTP status: 401 asks for a key, 403 refuses the one given.
    pub(super) fn status(self) -> u16 {
        match self {
            KeyRefusal::Missing => 401,
            KeyRefusal::Wrong => 403,
        }
    }

    /// The API's plain-text refusal (the CLI shows it).
    pub(super) fn response(self) -> ApiResponse {
        let text = match self {
            KeyRefusal::Missing => "the instructor key is missing (Authorization: Bearer KEY)",
            KeyRefusal::Wrong => "wrong instructor key",
        };
        ApiResponse::text(self.status(), text)
    }
}

impl HostState {
    /// The instructor key, as a bearer token (the CLI) or as the login cookie (the projector
    /// page in a browser). Never from the query: a URL is projected, logged and kept.
    pub(super) fn instructor(&self, req: &ApiRequest<'_>) -> Result<(), KeyRefusal> {
        match req.bearer.or(req.cookie) {
            Some(key) if same(key, &self.key) => Ok(()),
            Some(_) => Err(KeyRefusal::Wrong),
            None => Err(KeyRefusal::Missing),
        }
    }

    /// `GET /dashboard`: the projector page for a browser that logged in, else the login form
    /// (with the refusal when its cookie holds a key that is not this session's).
    pub(super) fn projector_page(&self, req: &ApiRequest<'_>) -> ApiResponse {
        match self.instructor(req) {
            Ok(()) => match self.summary() {
                Ok(view) => {
                    let mut answer = ApiResponse::html(
                        200,
                        projector::page(&view, self.texts(), self.projector_join()),
                    );
                    // Its own script and fetches: the one page of the host that runs script.
                    answer.headers = vec![("content-security-policy", projector::CSP.to_owned())];
                    answer
                }
                Err(e) => ApiResponse::text(500, &e.to_string()),
            },
            Err(refusal @ KeyRefusal::Missing) => {
                ApiResponse::html(refusal.status(), login::login_page(self.texts(), false))
            }
            Err(refusal @ KeyRefusal::Wrong) => {
                ApiResponse::html(refusal.status(), login::login_page(self.texts(), true))
            }
        }
    }

    /// `GET /dashboard/live`: the projector page's changing part as JSON `{"html": …}`, behind
    /// the same login as the page, so it shows nothing the page does not.
    pub(super) fn projector_live(&self, req: &ApiRequest<'_>) -> ApiResponse {
        if let Err(refusal) = self.instructor(req) {
            return refusal.response();
        }
        match self.summary() {
            Ok(view) => ApiResponse::json(&serde_json::json!({
                "html": projector::live(&view, self.texts())
            })),
            Err(e) => ApiResponse::text(500, &e.to_string()),
        }
    }

    /// `GET /projector.js`: the projector page's script (no secret in it, so no login).
    pub(super) fn projector_script() -> ApiResponse {
        ApiResponse {
            status: 200,
            content_type: "text/javascript; charset=utf-8",
            body: projector::SCRIPT.as_bytes().to_vec(),
            headers: Vec::new(),
        }
    }

    /// `POST /login` with the form's `key`: the right key sets the cookie and leads to the
    /// projector page (303, so a reload does not post again); a wrong one shows the form again.
    pub(super) fn login(&self, body: &[u8]) -> ApiResponse {
        match login::from_form(body) {
            Some(key) if same(&key, &self.key) => {
                let mut answer = ApiResponse::text(303, "logged in");
                answer.headers = vec![
                    ("location", login::PROJECTOR_PATH.to_owned()),
                    ("set-cookie", login::set_cookie(&self.key)),
                ];
                answer
            }
            Some(_) => ApiResponse::html(
                KeyRefusal::Wrong.status(),
                login::login_page(self.texts(), true),
            ),
            None => ApiResponse::html(400, login::login_page(self.texts(), false)),
        }
    }

    /// [`Route::Pace`](domain::workshop::wire::Route::Pace): the instructor sends a pacing command (JSON of a `PaceKind`).
    pub(super) fn send_pace(&self, body: &[u8], now_ms: i64) -> ApiResponse {
        let kind: PaceKind = match serde_json::from_slice(body) {
            Ok(k) => k,
            Err(e) => return ApiResponse::text(400, &format!("not a pacing command: {e}")),
        };
        match self.pace(kind, now_ms) {
            Ok(pace) => ApiResponse::json(&pace),
            Err(e @ PaceError::Refused(_)) => ApiResponse::text(422, &e.to_string()),
            Err(e @ PaceError::Database(_)) => ApiResponse::text(500, &e.to_string()),
        }
    }

    /// [`Route::Kick`](domain::workshop::wire::Route::Kick) (`ban`) or `Route::Remove` with a
    /// [`Who`]: the
    /// instructor removes a trainee and refuses their client, or only removes their row.
    pub(super) fn kick_request(&self, body: &[u8], now_ms: i64, ban: bool) -> ApiResponse {
        let request: Who = match serde_json::from_slice(body) {
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
            Err(e) => ApiResponse::text(500, &e.to_string()),
        }
    }

    /// [`Route::Ack`](domain::workshop::wire::Route::Ack) with a [`Who`]: the instructor acknowledges a stuck
    /// signal. Answers the trainee's name.
    pub(super) fn ack_request(&self, body: &[u8]) -> ApiResponse {
        let request: Who = match serde_json::from_slice(body) {
            Ok(r) => r,
            Err(e) => return ApiResponse::text(400, &format!("not an acknowledgement: {e}")),
        };
        match self.acknowledge(&request.who) {
            Ok(Some(name)) => ApiResponse::json(&Acknowledged { name }),
            Ok(None) => ApiResponse::text(
                404,
                &format!("no trainee called {:?} in this session", request.who),
            ),
            Err(e @ AckError::NotStuck { .. }) => ApiResponse::text(409, &e.to_string()),
            Err(e @ AckError::Database(_)) => ApiResponse::text(500, &e.to_string()),
        }
    }
}

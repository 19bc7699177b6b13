//! The one client of the host's API, for trainees (join, delivery, pacing, the mail relay) and
//! for the instructor's commands (summary, pacing, kick, the door). Each call names its
//! [`Route`] and its body types from `domain`'s wire module; the transport is
//! [`crate::trainee::client`] (the host pinned by its certificate fingerprint, every step
//! bounded by one deadline). Errors are [`HostError`]s.

mod error;

pub use error::HostError;

use crate::trainee::client::{self, MAIL_REQUEST_MS, deadline_in};
use domain::workshop::pace::PaceReply;
use domain::workshop::wire::{
    Acknowledged, BatchReply, CodeReply, CodeRequest, DoorState, EventBatch, Hello, Kicked,
    ReportSubmit, Route, SendReply, SilentCount, SilentRemoved, VERSION_STATUS, VersionRefusal,
    Who,
};
use domain::workshop::{JoinUrl, Pace, PaceKind, SummaryView};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::time::Instant;

/// How long one instructor command may take.
pub const INSTRUCTOR_MS: u64 = 5_000;

/// A client of the host of one join URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostClient {
    url: JoinUrl,
}

/// A call: its route, query, credential and body.
struct Call<'a> {
    route: Route,
    query: String,
    bearer: Option<&'a str>,
    body: Vec<u8>,
}

impl<'a> Call<'a> {
    fn new(route: Route, bearer: Option<&'a str>) -> Call<'a> {
        Call {
            route,
            query: String::new(),
            bearer,
            body: Vec::new(),
        }
    }

    fn with_body(mut self, body: &impl Serialize) -> Result<Call<'a>, HostError> {
        self.body = serde_json::to_vec(body).map_err(|e| HostError::Encode {
            route: self.route,
            detail: e.to_string(),
        })?;
        Ok(self)
    }
}

impl HostClient {
    /// A client of the host of `url`.
    pub fn new(url: JoinUrl) -> HostClient {
        HostClient { url }
    }

    /// The join URL this client talks to.
    pub fn url(&self) -> &JoinUrl {
        &self.url
    }

    /// Sends `call` and returns the body of a 200 answer; a refusal, a version mismatch or no
    /// answer as a [`HostError`].
    fn exchange(&self, call: &Call<'_>, deadline: Instant) -> Result<Vec<u8>, HostError> {
        let route = call.route;
        let path = if call.query.is_empty() {
            route.path().to_owned()
        } else {
            format!("{}?{}", route.path(), call.query)
        };
        let reply = client::send(
            &self.url,
            route.method(),
            &path,
            call.bearer,
            &call.body,
            deadline,
        )
        .map_err(|reason| HostError::NoAnswer { route, reason })?;
        if reply.status == 200 {
            return Ok(reply.body);
        }
        if reply.status == VERSION_STATUS
            && let Ok(refusal) = serde_json::from_slice::<VersionRefusal>(&reply.body)
        {
            return Err(HostError::Version(refusal));
        }
        Err(HostError::Refused {
            route,
            status: reply.status,
            message: reply.text(),
        })
    }

    /// [`HostClient::exchange`], the answer read as the route's reply type.
    fn call<T: DeserializeOwned>(
        &self,
        call: &Call<'_>,
        deadline: Instant,
    ) -> Result<T, HostError> {
        let body = self.exchange(call, deadline)?;
        decode(call.route, &body)
    }

    /// `GET /api/hello` with the join code: the session, or a refusal of a host that speaks
    /// another protocol.
    pub fn hello(&self, deadline: Instant) -> Result<Hello, HostError> {
        let hello: Hello = self.call(&Call::new(Route::Hello, Some(&self.url.code)), deadline)?;
        match hello.mismatch() {
            Some(refusal) => Err(HostError::Version(refusal)),
            None => Ok(hello),
        }
    }

    /// Delivers a batch of events.
    pub fn deliver(&self, batch: &EventBatch, deadline: Instant) -> Result<BatchReply, HostError> {
        self.call(&Call::new(Route::Events, None).with_body(batch)?, deadline)
    }

    /// The pacing commands after `after`, and what concerns the trainee `trainee` (its token
    /// after the join code proves the asker is that trainee's own client).
    pub fn poll_paces(
        &self,
        trainee: &str,
        token: &str,
        after: u64,
        deadline: Instant,
    ) -> Result<PaceReply, HostError> {
        let bearer = format!("{}:{token}", self.url.code);
        let mut call = Call::new(Route::PacePoll, Some(&bearer));
        call.query = format!("after={after}&trainee={trainee}");
        self.call(&call, deadline)
    }

    /// Asks the host's mail relay for a one-time code.
    pub fn request_code(&self, request: &CodeRequest) -> Result<CodeReply, HostError> {
        let call = Call::new(Route::ReportCode, None).with_body(request)?;
        self.call(&call, deadline_in(MAIL_REQUEST_MS))
    }

    /// Hands the typed code and the report to the host's mail relay.
    pub fn submit_report(&self, submit: &ReportSubmit) -> Result<SendReply, HostError> {
        let call = Call::new(Route::ReportSend, None).with_body(submit)?;
        self.call(&call, deadline_in(MAIL_REQUEST_MS))
    }

    /// The session's summary, read, and as the host sent it (JSON).
    pub fn summary(&self, key: &str) -> Result<(SummaryView, String), HostError> {
        let call = Call::new(Route::Summary, Some(key));
        let body = self.exchange(&call, deadline_in(INSTRUCTOR_MS))?;
        let view = decode(Route::Summary, &body)?;
        Ok((view, String::from_utf8_lossy(&body).into_owned()))
    }

    /// Sends a pacing command; the host's stored command.
    pub fn pace(&self, key: &str, kind: &PaceKind) -> Result<Pace, HostError> {
        let call = Call::new(Route::Pace, Some(key)).with_body(kind)?;
        self.call(&call, deadline_in(INSTRUCTOR_MS))
    }

    /// Removes the trainee `who` (name or id); `ban` also refuses their client ([`Route::Kick`]),
    /// else only their row goes ([`Route::Remove`]).
    pub fn kick(&self, key: &str, who: &str, ban: bool) -> Result<Kicked, HostError> {
        let route = if ban { Route::Kick } else { Route::Remove };
        let call = Call::new(route, Some(key)).with_body(&Who {
            who: who.to_owned(),
        })?;
        self.call(&call, deadline_in(INSTRUCTOR_MS))
    }

    /// Acknowledges the stuck signal of `who`.
    pub fn acknowledge(&self, key: &str, who: &str) -> Result<Acknowledged, HostError> {
        let call = Call::new(Route::Ack, Some(key)).with_body(&Who {
            who: who.to_owned(),
        })?;
        self.call(&call, deadline_in(INSTRUCTOR_MS))
    }

    /// Locks the room (no new trainees) or opens it again.
    pub fn set_locked(&self, key: &str, locked: bool) -> Result<DoorState, HostError> {
        let route = if locked { Route::Lock } else { Route::Unlock };
        self.call(&Call::new(route, Some(key)), deadline_in(INSTRUCTOR_MS))
    }

    /// How many trainees never sent an event.
    pub fn count_silent(&self, key: &str) -> Result<SilentCount, HostError> {
        let call = Call::new(Route::CountSilent, Some(key));
        self.call(&call, deadline_in(INSTRUCTOR_MS))
    }

    /// Removes every trainee who never sent an event.
    pub fn remove_silent(&self, key: &str) -> Result<SilentRemoved, HostError> {
        let call = Call::new(Route::RemoveSilent, Some(key));
        self.call(&call, deadline_in(INSTRUCTOR_MS))
    }
}

/// Reads `body` as the reply type of `route`; a body of another shape (an unknown variant, a
/// field missing, not JSON) is a [`HostError::Unreadable`] that says which route answered.
pub fn decode<T: DeserializeOwned>(route: Route, body: &[u8]) -> Result<T, HostError> {
    serde_json::from_slice(body).map_err(|e| HostError::Unreadable {
        route,
        detail: e.to_string(),
    })
}

#[cfg(test)]
mod live_tests;
#[cfg(test)]
mod tests;

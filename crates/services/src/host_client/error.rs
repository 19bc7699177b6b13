//! Why a call to the host gave no usable answer, as a type: the callers tell a refusal from an
//! outage and a version mismatch from both without reading a message.

use crate::trainee::client::RequestError;
use domain::workshop::wire::{Route, VersionRefusal};

/// Why a call to the host failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    /// Nothing usable came back: unreachable, another certificate, a broken connection.
    #[error("{}", no_answer(*.route, .reason))]
    NoAnswer {
        /// The route asked.
        route: Route,
        /// What went wrong.
        reason: RequestError,
    },
    /// The host answered with a refusal (its one-line reason).
    #[error("the {} answered {status}: {message}", speaker(*.route))]
    Refused {
        /// The route asked.
        route: Route,
        /// The HTTP status.
        status: u16,
        /// The host's reason.
        message: String,
    },
    /// The host speaks another protocol: this queuelab must be updated to its version.
    #[error("{0}")]
    Version(VersionRefusal),
    /// The host's answer is not the body the route defines (another version, a broken host).
    #[error("the {}'s answer to {} is not readable: {detail}", speaker(*.route), .route.spelled())]
    Unreadable {
        /// The route asked.
        route: Route,
        /// What did not fit.
        detail: String,
    },
    /// The request could not be written.
    #[error("cannot write the request to {}: {detail}", .route.spelled())]
    Encode {
        /// The route asked.
        route: Route,
        /// What failed.
        detail: String,
    },
}

impl HostError {
    /// The host's reason when it refused the request (4xx: asking again will not help).
    pub fn refusal(&self) -> Option<&str> {
        match self {
            HostError::Refused {
                status: 400..=499,
                message,
                ..
            } => Some(message),
            _ => None,
        }
    }
}

/// Who answers a route: the mail relay's answers come from "the workshop host".
fn speaker(route: Route) -> &'static str {
    if route.relay() {
        "workshop host"
    } else {
        "host"
    }
}

fn no_answer(route: Route, reason: &RequestError) -> String {
    if route.relay() {
        format!("the workshop host relays the report mail: {reason}")
    } else {
        reason.to_string()
    }
}

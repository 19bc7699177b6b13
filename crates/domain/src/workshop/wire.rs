//! The host protocol: every route ([`Route`]), the JSON bodies trainee, instructor and host
//! exchange, and the protocol version. These types are the only definition of the protocol:
//! the host answers with them and `services`' host client asks with them. Replies say what
//! happened as tagged enums ([`CodeReply`], [`SendReply`]); the client words them itself in
//! its user's language.
//!
//! The version, checked in both directions:
//! - the host's [`Hello`] names its [`PROTOCOL`] and its queuelab version; a client whose
//!   protocol differs refuses to join, telling its user which side to update: this queuelab to
//!   the host's version when the host is newer, the host to this version when it is older;
//! - every request of queuelab's own client carries its protocol in the [`PROTOCOL_HEADER`]
//!   header, and the host answers one that names another protocol with 426 and a
//!   [`VersionRefusal`] (a trainee who joined before the host was updated learns the same at
//!   the next delivery, an instructor at the next command). A request without the header (a
//!   browser, a script) is served: the version guards queuelab's client, not the API.

mod instructor;
mod relay;
mod route;

pub use instructor::{Acknowledged, DoorState, Kicked, SilentCount, SilentRemoved, Who};
pub use relay::{CodeReply, Issued, SendReply};
pub use route::{Miss, Route};

use super::Event;
use content::key;
use serde::{Deserialize, Serialize};

/// The protocol this build speaks. A change to a route or a body that an older build would
/// misread raises it.
pub const PROTOCOL: u32 = 2;
/// The protocol of a host that names none in its [`Hello`]: the first, whose replies carried
/// UI string keys.
const UNVERSIONED: u32 = 1;
/// The request header that carries the client's [`PROTOCOL`].
pub const PROTOCOL_HEADER: &str = "x-queuelab-protocol";
/// The HTTP status of a request refused for its protocol (426 Upgrade Required).
pub const VERSION_STATUS: u16 = 426;
/// The version of queuelab this build is, as a [`Hello`] names it.
pub const QUEUELAB_VERSION: &str = env!("CARGO_PKG_VERSION");

fn unversioned() -> u32 {
    UNVERSIONED
}

/// The host's answer to a request of another protocol: what to install.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionRefusal {
    /// The host's protocol.
    pub protocol: u32,
    /// The host's queuelab version.
    pub queuelab: String,
}

impl VersionRefusal {
    /// This build's own version, as a host states it.
    pub fn this_build() -> VersionRefusal {
        VersionRefusal {
            protocol: PROTOCOL,
            queuelab: QUEUELAB_VERSION.to_owned(),
        }
    }

    /// The values a version refusal's UI string fills in: the host's version and protocol,
    /// this build's.
    pub fn values(&self) -> Vec<(&'static str, String)> {
        let version = if self.queuelab.is_empty() {
            "?".to_owned()
        } else {
            self.queuelab.clone()
        };
        vec![
            ("version", version),
            ("host", self.protocol.to_string()),
            ("ours", PROTOCOL.to_string()),
            ("ours_version", QUEUELAB_VERSION.to_owned()),
        ]
    }

    /// Whether the host is the older side: then the host's queuelab needs the update, not
    /// this one.
    pub fn host_is_older(&self) -> bool {
        self.protocol < PROTOCOL
    }

    /// The UI string that words the refusal where it is told, by the side that must update.
    pub fn key(&self, at: RefusedAt) -> content::Key {
        match (at, self.host_is_older()) {
            (RefusedAt::Join, false) => key::join::REFUSED_VERSION,
            (RefusedAt::Join, true) => key::join::REFUSED_VERSION_OLDER_HOST,
            (RefusedAt::Host, false) => key::host::REFUSED_VERSION,
            (RefusedAt::Host, true) => key::host::REFUSED_VERSION_OLDER_HOST,
        }
    }

    /// The refusal in the language of `strings`, worded for where it is told.
    pub fn message(&self, strings: &content::Strings, at: RefusedAt) -> String {
        let values = self.values();
        let pairs: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        strings.fill(self.key(at), &pairs)
    }
}

/// Where a version refusal is told: joining a session, or another request to the host (an
/// instructor's command, a delivery, a report mailed through the host).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusedAt {
    /// `queuelab join` or the join dialog.
    Join,
    /// Any later request to the host.
    Host,
}

impl std::fmt::Display for VersionRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the host runs queuelab {} (protocol {}), this queuelab {QUEUELAB_VERSION} speaks protocol {PROTOCOL}: ",
            self.queuelab, self.protocol
        )?;
        if self.host_is_older() {
            write!(f, "update the host to queuelab {QUEUELAB_VERSION}")
        } else {
            write!(f, "update queuelab to {}", self.queuelab)
        }
    }
}

/// Largest number of events in one delivery.
pub const MAX_BATCH: usize = 200;

/// `POST /api/events`: a trainee's batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventBatch {
    /// The join code.
    pub code: String,
    /// The trainee's id.
    pub trainee: String,
    /// The trainee's secret (the host keeps only its hash; first use registers it).
    pub token: String,
    /// The display name.
    pub name: String,
    /// The events, oldest first.
    pub events: Vec<Event>,
}

/// `GET /api/hello` with the join code: the check a trainee makes before it records a
/// membership (a wrong code is a refusal at join time, not a silent outbox later).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// The session's name.
    pub session: String,
    /// The host's protocol ([`PROTOCOL`] of its build).
    #[serde(default = "unversioned")]
    pub protocol: u32,
    /// The host's queuelab version: the one a client of another protocol should install.
    #[serde(default)]
    pub queuelab: String,
}

impl Hello {
    /// The hello of this build's host for the session `session`.
    pub fn new(session: &str) -> Hello {
        Hello {
            session: session.to_owned(),
            protocol: PROTOCOL,
            queuelab: QUEUELAB_VERSION.to_owned(),
        }
    }

    /// The refusal to join a host of another protocol; None when the protocols match.
    pub fn mismatch(&self) -> Option<VersionRefusal> {
        (self.protocol != PROTOCOL).then(|| VersionRefusal {
            protocol: self.protocol,
            queuelab: self.queuelab.clone(),
        })
    }
}

/// An event the host refused, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    /// The event id.
    pub id: String,
    /// Why.
    pub reason: String,
}

/// The host's answer to a batch.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BatchReply {
    /// The session's name.
    pub session: String,
    /// Events stored now.
    pub stored: u32,
    /// Events the host already had (recognised by id, not counted again).
    pub duplicates: u32,
    /// Events refused (they are never retried).
    pub rejected: Vec<Rejected>,
    /// The name the room shows for this trainee: the one sent, or `Ada (2)` when another Ada
    /// was there first. An older host sends none.
    #[serde(default)]
    pub name: Option<String>,
}

/// Who is asking, for the mail relay: the join code and the trainee's own credentials.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Caller {
    /// The join code.
    pub code: String,
    /// The trainee's id.
    pub trainee: String,
    /// The trainee's secret.
    pub token: String,
}

/// `POST /api/report/code`: send a one-time code to this address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeRequest {
    /// Who asks.
    pub caller: Caller,
    /// The address (validated again on the host).
    pub address: String,
    /// The language of the code mail.
    pub lang: content::Lang,
}

/// `POST /api/report/send`: the typed code and the report to send when it is right.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSubmit {
    /// Who asks.
    pub caller: Caller,
    /// The address the code went to.
    pub address: String,
    /// The code as typed.
    pub typed: String,
    /// The report as the trainee's screen shows it. The host reads only its language: the mail it
    /// relays is composed from the host's own stored events.
    pub report: crate::report::Report,
    /// Whether the trainee agreed to a copy for the instructor. The host alone knows the
    /// instructor's address; without this agreement no copy goes.
    #[serde(default)]
    pub instructor_copy: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_older_side_is_told_to_update_in_both_languages_and_places() {
        let content = content::load(&content::ContentSource::Embedded).expect("content");
        let older_host = VersionRefusal {
            protocol: UNVERSIONED,
            queuelab: String::new(),
        };
        let newer_host = VersionRefusal {
            protocol: PROTOCOL + 1,
            queuelab: "9.0.0".into(),
        };
        assert!(older_host.host_is_older() && !newer_host.host_is_older());
        let ours = QUEUELAB_VERSION;
        for (lang, update_host, update_host_later, update_us) in [
            (
                content::Lang::En,
                format!("to queuelab {ours}"),
                format!("updated to version {ours}"),
                "to version 9.0.0",
            ),
            (
                content::Lang::De,
                format!("auf queuelab {ours}"),
                format!("auf Version {ours} aktualisiert"),
                "auf Version 9.0.0",
            ),
        ] {
            let strings = &content.course(lang).strings;
            let said = older_host.message(strings, RefusedAt::Join);
            assert!(said.contains(&update_host), "{said}");
            assert!(!said.contains("9.0.0"), "{said}");
            let said = older_host.message(strings, RefusedAt::Host);
            assert!(said.contains(&update_host_later), "{said}");
            for at in [RefusedAt::Join, RefusedAt::Host] {
                let said = newer_host.message(strings, at);
                assert!(said.contains(update_us), "{said}");
            }
        }
        assert!(
            older_host
                .to_string()
                .ends_with(&format!("update the host to queuelab {ours}")),
            "{older_host}"
        );
    }

    #[test]
    fn a_hello_without_a_protocol_is_the_first_protocol_and_a_mismatch() {
        let old: Hello = serde_json::from_str(r#"{"session":"Kurs"}"#).expect("reads");
        assert_eq!(old.protocol, UNVERSIONED);
        assert_eq!(
            old.mismatch().map(|r| r.protocol),
            Some(UNVERSIONED),
            "an unversioned host is refused"
        );
        assert_eq!(Hello::new("Kurs").mismatch(), None);
        let newer = Hello {
            protocol: PROTOCOL + 1,
            queuelab: "9.0.0".into(),
            ..Hello::new("Kurs")
        };
        let refusal = newer.mismatch().expect("refused");
        assert!(
            refusal.to_string().contains("update queuelab to 9.0.0"),
            "{refusal}"
        );
    }
}

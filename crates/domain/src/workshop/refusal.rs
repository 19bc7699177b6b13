//! Why joining a workshop session did not happen, as the learner reads it: each reason is a UI
//! string key (both languages) with the details filled in, so `queuelab join` and the join
//! dialog say the same thing in the learner's language.

use content::key;

/// Why a join was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JoinRefusal {
    /// Nothing answered at the address before the deadline.
    Unreachable {
        /// `HOST:PORT`.
        address: String,
        /// What the network said.
        detail: String,
    },
    /// Looking on the LAN for a session found none (or none that takes the code's host).
    NotFound,
    /// The learner declined the check digits of as many sessions as one join shows.
    TooManySessions {
        /// How many were shown.
        n: usize,
    },
    /// Something answered, with another certificate than the join URL's fingerprint.
    WrongCertificate {
        /// `HOST:PORT`.
        address: String,
    },
    /// The host does not know this join code.
    WrongCode,
    /// The learner did not confirm the check digits (or typed other ones).
    NotConfirmed {
        /// The digits computed from the certificate seen.
        digits: String,
    },
    /// The host answered with another refusal (session full, too many new trainees, ...).
    Host {
        /// The host's one-line reason.
        reason: String,
    },
    /// The host speaks another protocol: this queuelab must be updated to the host's version.
    Version(super::wire::VersionRefusal),
    /// The local progress store failed.
    Local {
        /// What failed.
        reason: String,
    },
}

impl JoinRefusal {
    /// The UI string key of the reason.
    pub fn key(&self) -> content::Key {
        match self {
            JoinRefusal::Unreachable { .. } => key::join::REFUSED_UNREACHABLE,
            JoinRefusal::WrongCertificate { .. } => key::join::REFUSED_CERTIFICATE,
            JoinRefusal::WrongCode => key::join::REFUSED_CODE,
            JoinRefusal::NotFound => key::join::REFUSED_NOT_FOUND,
            JoinRefusal::TooManySessions { .. } => key::join::REFUSED_TOO_MANY,
            JoinRefusal::NotConfirmed { .. } => key::join::REFUSED_UNCONFIRMED,
            JoinRefusal::Host { .. } => key::join::REFUSED_HOST,
            JoinRefusal::Local { .. } => key::join::REFUSED_LOCAL,
            JoinRefusal::Version(refusal) => refusal.key(super::wire::RefusedAt::Join),
        }
    }

    /// The values the string of [`JoinRefusal::key`] fills in.
    pub fn values(&self) -> Vec<(&'static str, String)> {
        match self {
            JoinRefusal::Unreachable { address, detail } => {
                vec![("address", address.clone()), ("detail", detail.clone())]
            }
            JoinRefusal::WrongCertificate { address } => vec![("address", address.clone())],
            JoinRefusal::WrongCode | JoinRefusal::NotFound => Vec::new(),
            JoinRefusal::TooManySessions { n } => vec![("n", n.to_string())],
            JoinRefusal::NotConfirmed { digits } => vec![("digits", digits.clone())],
            JoinRefusal::Host { reason } | JoinRefusal::Local { reason } => {
                vec![("reason", reason.clone())]
            }
            JoinRefusal::Version(refusal) => refusal.values(),
        }
    }

    /// The reason in the language of `strings`.
    pub fn message(&self, strings: &content::Strings) -> String {
        let values = self.values();
        let pairs: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        strings.fill(self.key(), &pairs)
    }
}

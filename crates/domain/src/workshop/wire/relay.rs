//! The mail relay's answers as tagged enums: each says what happened, and the trainee's client
//! turns it into its own words (the same the local flow shows) in the trainee's language.

use crate::otp::{IssueDenied, Verdict};
use serde::{Deserialize, Serialize};

/// The host's answer to `POST /api/report/code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case", deny_unknown_fields)]
pub enum CodeReply {
    /// The code is issued and its mail queued.
    Issued {
        /// Whether the mail already went out (else the host retries it).
        sent: bool,
        /// Whether the host offers a copy to its instructor (its config names one): the
        /// trainee is asked for consent. The address itself stays on the host.
        copy_offered: bool,
    },
    /// The last code is younger than the cooldown.
    Cooldown {
        /// Seconds to wait.
        wait_secs: i64,
    },
    /// This trainee's codes for the hour are used up.
    HourlyLimit {
        /// Seconds to wait.
        wait_secs: i64,
    },
    /// The machine's codes for the hour are used up.
    MachineLimit {
        /// Seconds to wait.
        wait_secs: i64,
    },
    /// The room's pool of repeated codes for the hour is used up.
    RoomLimit {
        /// Seconds to wait.
        wait_secs: i64,
    },
    /// Too many wrong tries: the flow is over for now.
    Locked {
        /// Seconds to wait.
        wait_secs: i64,
    },
    /// This trainee asked for another address within the hour.
    OtherAddress {
        /// Seconds to wait.
        wait_secs: i64,
    },
}

/// A code the host issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Issued {
    /// Whether the mail already went out (else the host retries it).
    pub sent: bool,
    /// Whether the host offers a copy to its instructor.
    pub copy_offered: bool,
}

impl CodeReply {
    /// The code issued, or why none was.
    pub fn outcome(self) -> Result<Issued, IssueDenied> {
        Err(match self {
            CodeReply::Issued { sent, copy_offered } => {
                return Ok(Issued { sent, copy_offered });
            }
            CodeReply::Cooldown { wait_secs } => IssueDenied::Cooldown { wait_secs },
            CodeReply::HourlyLimit { wait_secs } => IssueDenied::HourlyLimit { wait_secs },
            CodeReply::MachineLimit { wait_secs } => IssueDenied::MachineLimit { wait_secs },
            CodeReply::RoomLimit { wait_secs } => IssueDenied::RoomLimit { wait_secs },
            CodeReply::Locked { wait_secs } => IssueDenied::Locked { wait_secs },
            CodeReply::OtherAddress { wait_secs } => IssueDenied::OtherAddress { wait_secs },
        })
    }

    /// Why no code was issued; None when it was.
    pub fn denied(self) -> Option<IssueDenied> {
        self.outcome().err()
    }

    /// Whether the flow is over (locked): asking again will not help now.
    pub fn done(self) -> bool {
        matches!(self, CodeReply::Locked { .. })
    }
}

impl From<IssueDenied> for CodeReply {
    fn from(denied: IssueDenied) -> CodeReply {
        match denied {
            IssueDenied::Cooldown { wait_secs } => CodeReply::Cooldown { wait_secs },
            IssueDenied::HourlyLimit { wait_secs } => CodeReply::HourlyLimit { wait_secs },
            IssueDenied::MachineLimit { wait_secs } => CodeReply::MachineLimit { wait_secs },
            IssueDenied::RoomLimit { wait_secs } => CodeReply::RoomLimit { wait_secs },
            IssueDenied::Locked { wait_secs } => CodeReply::Locked { wait_secs },
            IssueDenied::OtherAddress { wait_secs } => CodeReply::OtherAddress { wait_secs },
        }
    }
}

/// The host's answer to `POST /api/report/send`: the verdict on the typed code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "kebab-case", deny_unknown_fields)]
pub enum SendReply {
    /// Right: the report is queued.
    Accepted {
        /// Whether it already went out (else the host retries it).
        sent: bool,
    },
    /// Wrong: `remaining` tries are left.
    Wrong {
        /// Tries left.
        remaining: usize,
    },
    /// Not six digits: no try is used up.
    Malformed,
    /// Older than ten minutes.
    Expired,
    /// Already accepted once.
    AlreadyUsed,
    /// Too many wrong tries.
    Locked {
        /// Seconds to wait.
        wait_secs: i64,
    },
    /// No code was requested yet.
    NoCode,
}

impl SendReply {
    /// The host's verdict; `sent` tells whether an accepted report already went out.
    pub fn new(verdict: Verdict, sent: bool) -> SendReply {
        match verdict {
            Verdict::Accepted { .. } => SendReply::Accepted { sent },
            Verdict::Wrong { remaining } => SendReply::Wrong { remaining },
            Verdict::Malformed => SendReply::Malformed,
            Verdict::Expired => SendReply::Expired,
            Verdict::AlreadyUsed => SendReply::AlreadyUsed,
            Verdict::Locked { wait_secs } => SendReply::Locked { wait_secs },
            Verdict::NoCode => SendReply::NoCode,
        }
    }

    /// The verdict as the local flow has it (the host keeps the code's id; a screen only
    /// needs "accepted").
    pub fn verdict(self) -> Verdict {
        match self {
            SendReply::Accepted { .. } => Verdict::Accepted { code_id: 0 },
            SendReply::Wrong { remaining } => Verdict::Wrong { remaining },
            SendReply::Malformed => Verdict::Malformed,
            SendReply::Expired => Verdict::Expired,
            SendReply::AlreadyUsed => Verdict::AlreadyUsed,
            SendReply::Locked { wait_secs } => Verdict::Locked { wait_secs },
            SendReply::NoCode => Verdict::NoCode,
        }
    }

    /// Whether the flow is over (accepted, or locked).
    pub fn done(self) -> bool {
        matches!(self, SendReply::Accepted { .. } | SendReply::Locked { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_travel_tagged_and_come_back_as_sent() {
        let replies = [
            CodeReply::Issued {
                sent: true,
                copy_offered: false,
            },
            CodeReply::OtherAddress { wait_secs: 30 },
        ];
        for reply in replies {
            let json = serde_json::to_string(&reply).expect("encodes");
            assert!(json.contains("\"outcome\":"), "{json}");
            assert_eq!(serde_json::from_str::<CodeReply>(&json).ok(), Some(reply));
        }
        let json = serde_json::to_string(&SendReply::Wrong { remaining: 2 }).expect("encodes");
        assert_eq!(json, r#"{"verdict":"wrong","remaining":2}"#);
    }

    #[test]
    fn an_unknown_variant_or_a_ui_key_is_refused_when_read() {
        for body in [
            r#"{"outcome":"teleported"}"#,
            r#"{"key":"report.code_sent","sent":true}"#,
            r#"{"outcome":"cooldown"}"#,
        ] {
            assert!(serde_json::from_str::<CodeReply>(body).is_err(), "{body}");
        }
        assert!(serde_json::from_str::<SendReply>(r#"{"verdict":"maybe"}"#).is_err());
    }

    #[test]
    fn every_denial_and_verdict_survives_the_wire() {
        for denied in [
            IssueDenied::Cooldown { wait_secs: 1 },
            IssueDenied::HourlyLimit { wait_secs: 2 },
            IssueDenied::MachineLimit { wait_secs: 3 },
            IssueDenied::RoomLimit { wait_secs: 4 },
            IssueDenied::Locked { wait_secs: 5 },
            IssueDenied::OtherAddress { wait_secs: 6 },
        ] {
            assert_eq!(CodeReply::from(denied).denied(), Some(denied));
        }
        for verdict in [
            Verdict::Accepted { code_id: 0 },
            Verdict::Wrong { remaining: 3 },
            Verdict::Malformed,
            Verdict::Expired,
            Verdict::AlreadyUsed,
            Verdict::Locked { wait_secs: 9 },
            Verdict::NoCode,
        ] {
            assert_eq!(SendReply::new(verdict, true).verdict(), verdict);
        }
    }
}

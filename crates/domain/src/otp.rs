//! The one-time code that confirms the report address: six digits from a CSPRNG, stored only as an
//! HMAC-SHA256 tag, valid ten minutes, single use, five wrong tries per hour lock it, a new code
//! after 60 s at the earliest and at most five per hour per address.
//!
//! Pure: time comes in as Unix seconds, randomness as a CSPRNG, the key as bytes; the store
//! keeps the history and the key file lives in the services layer.

use content::key;
use hmac::{Hmac, KeyInit, Mac};
use rand::{CryptoRng, RngExt};
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// Number of digits of a code.
pub const CODE_DIGITS: usize = 6;
/// How long a code is valid.
pub const VALIDITY_SECS: i64 = 10 * 60;
/// Wrong tries (within [`WINDOW_SECS`]) that lock the code for the address.
pub const MAX_FAILURES: usize = 5;
/// Wait between two codes to one address.
pub const COOLDOWN_SECS: i64 = 60;
/// Codes per address within [`WINDOW_SECS`].
pub const MAX_CODES_PER_WINDOW: usize = 5;
/// Codes for all addresses together within [`WINDOW_SECS`]: one learner needs one or two, and
/// this stops a script from mailing codes to a list of strangers through the workshop.
pub const MAX_CODES_PER_WINDOW_ALL: usize = 10;
/// The rate-limit window.
pub const WINDOW_SECS: i64 = 60 * 60;
/// Length of the random per-code nonce mixed into the tag.
pub const NONCE_LEN: usize = 16;
/// Length of the HMAC key kept in the key file.
pub const KEY_LEN: usize = 32;
/// Domain separation for the tag, so the key can never be reused for another purpose by accident.
const TAG_CONTEXT: &[u8] = b"queuelab-otp-v1";

/// A code in clear. It lives only in memory between generation and the mail body; `Debug`
/// hides it so it cannot end up in a log line by accident, and there is no `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct OneTimeCode(String);

impl std::fmt::Debug for OneTimeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OneTimeCode(******)")
    }
}

impl OneTimeCode {
    /// A fresh uniformly random code (`random_range` rejects biased draws).
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> OneTimeCode {
        OneTimeCode(format!("{:06}", rng.random_range(0..1_000_000u32)))
    }

    /// A code as the learner typed it (hidden in `Debug` just like a generated one).
    pub fn typed(text: &str) -> OneTimeCode {
        OneTimeCode(text.trim().to_owned())
    }

    /// The digits, for the mail body and the check only.
    pub fn reveal(&self) -> &str {
        &self.0
    }
}

/// A code as stored: never the digits, only the tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeRecord {
    /// Store id.
    pub id: i64,
    /// Random per-code nonce.
    pub nonce: Vec<u8>,
    /// HMAC-SHA256 over context, nonce, address and digits.
    pub tag: Vec<u8>,
    /// When it was issued (Unix seconds).
    pub issued_at: i64,
    /// When it was accepted, if it was.
    pub used_at: Option<i64>,
}

/// Everything the store knows about codes for one address.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OtpHistory {
    /// Codes issued to the address, oldest first.
    pub codes: Vec<CodeRecord>,
    /// Times of wrong tries for the address, oldest first.
    pub failures: Vec<i64>,
}

/// Why no new code may be sent now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueDenied {
    /// The last code is younger than the cooldown.
    Cooldown { wait_secs: i64 },
    /// Five codes within the hour.
    HourlyLimit { wait_secs: i64 },
    /// [`MAX_CODES_PER_WINDOW_ALL`] codes within the hour, all addresses together.
    MachineLimit { wait_secs: i64 },
    /// The workshop host's limit for the whole room within the hour (its `[mail]` config).
    RoomLimit { wait_secs: i64 },
    /// Five wrong tries within the hour.
    Locked { wait_secs: i64 },
    /// A workshop host sends one trainee's codes to one address within the hour; this trainee
    /// asked for another address already.
    OtherAddress { wait_secs: i64 },
}

/// The limit across all addresses: `issued` are the issue times of every code (any order).
pub fn may_issue_any(issued: &[i64], now: i64) -> Result<(), IssueDenied> {
    let mut recent: Vec<i64> = issued
        .iter()
        .copied()
        .filter(|t| *t > now - WINDOW_SECS)
        .collect();
    if recent.len() < MAX_CODES_PER_WINDOW_ALL {
        return Ok(());
    }
    recent.sort_unstable();
    let oldest_counting = recent[recent.len() - MAX_CODES_PER_WINDOW_ALL];
    Err(IssueDenied::MachineLimit {
        wait_secs: oldest_counting + WINDOW_SECS - now,
    })
}

/// The outcome of typing a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Right: the code with this id is now used up.
    Accepted { code_id: i64 },
    /// Wrong: counts as a failure; `remaining` tries are left.
    Wrong { remaining: usize },
    /// Not six digits: no try is used up.
    Malformed,
    /// Older than ten minutes.
    Expired,
    /// Already accepted once.
    AlreadyUsed,
    /// Too many wrong tries; a new try is possible after `wait_secs`.
    Locked { wait_secs: i64 },
    /// No code was requested yet.
    NoCode,
}

impl IssueDenied {
    /// The UI string key (placeholder `{secs}`).
    pub fn key(self) -> content::Key {
        match self {
            IssueDenied::Cooldown { .. } => key::otp::COOLDOWN,
            IssueDenied::HourlyLimit { .. } => key::otp::HOURLY_LIMIT,
            IssueDenied::MachineLimit { .. } => key::otp::MACHINE_LIMIT,
            IssueDenied::RoomLimit { .. } => key::otp::ROOM_LIMIT,
            IssueDenied::Locked { .. } => key::otp::LOCKED,
            IssueDenied::OtherAddress { .. } => key::otp::OTHER_ADDRESS,
        }
    }

    /// Seconds until a new code may be requested.
    pub fn wait_secs(self) -> i64 {
        match self {
            IssueDenied::Cooldown { wait_secs }
            | IssueDenied::HourlyLimit { wait_secs }
            | IssueDenied::MachineLimit { wait_secs }
            | IssueDenied::RoomLimit { wait_secs }
            | IssueDenied::Locked { wait_secs }
            | IssueDenied::OtherAddress { wait_secs } => wait_secs,
        }
    }
}

impl Verdict {
    /// The UI string key (placeholders `{remaining}`, `{secs}`).
    pub fn key(self) -> content::Key {
        match self {
            Verdict::Accepted { .. } => key::otp::ACCEPTED,
            Verdict::Wrong { .. } => key::otp::WRONG,
            Verdict::Malformed => key::otp::MALFORMED,
            Verdict::Expired => key::otp::EXPIRED,
            Verdict::AlreadyUsed => key::otp::USED,
            Verdict::Locked { .. } => key::otp::LOCKED,
            Verdict::NoCode => key::otp::NO_CODE,
        }
    }
}

/// The tag stored for `code` (address compared case-insensitively).
pub fn tag(key: &[u8], nonce: &[u8], address: &str, code: &str) -> Vec<u8> {
    // HMAC accepts keys of any length, so this cannot fail; an empty tag would only ever fail
    // the comparison, never pass it.
    let Ok(mut mac) = <Hmac<Sha256> as KeyInit>::new_from_slice(key) else {
        return Vec::new();
    };
    for part in [
        TAG_CONTEXT,
        nonce,
        address.to_lowercase().as_bytes(),
        code.as_bytes(),
    ] {
        mac.update(&(part.len() as u64).to_be_bytes());
        mac.update(part);
    }
    mac.finalize().into_bytes().to_vec()
}

impl OtpHistory {
    /// The newest code, the only one that can be accepted.
    pub fn current(&self) -> Option<&CodeRecord> {
        self.codes.last()
    }

    fn failures_since(&self, since: i64) -> Vec<i64> {
        self.failures
            .iter()
            .copied()
            .filter(|t| *t > since)
            .collect()
    }

    /// Wrong tries left before the lock.
    pub fn remaining_tries(&self, now: i64) -> usize {
        MAX_FAILURES.saturating_sub(self.failures_since(now - WINDOW_SECS).len())
    }

    /// Seconds until the lock lifts (None when not locked). A new code does not lift it.
    pub fn locked_for(&self, now: i64) -> Option<i64> {
        let recent = self.failures_since(now - WINDOW_SECS);
        (recent.len() >= MAX_FAILURES).then(|| {
            // The lock lifts when the oldest failure that still counts leaves the window.
            let oldest_counting = recent[recent.len() - MAX_FAILURES];
            oldest_counting + WINDOW_SECS - now
        })
    }

    /// Whether a new code may be sent now.
    pub fn may_issue(&self, now: i64) -> Result<(), IssueDenied> {
        if let Some(wait_secs) = self.locked_for(now) {
            return Err(IssueDenied::Locked { wait_secs });
        }
        if let Some(last) = self.current()
            && now - last.issued_at < COOLDOWN_SECS
        {
            return Err(IssueDenied::Cooldown {
                wait_secs: last.issued_at + COOLDOWN_SECS - now,
            });
        }
        let recent: Vec<i64> = self
            .codes
            .iter()
            .map(|c| c.issued_at)
            .filter(|t| *t > now - WINDOW_SECS)
            .collect();
        if recent.len() >= MAX_CODES_PER_WINDOW {
            let oldest_counting = recent[recent.len() - MAX_CODES_PER_WINDOW];
            return Err(IssueDenied::HourlyLimit {
                wait_secs: oldest_counting + WINDOW_SECS - now,
            });
        }
        Ok(())
    }

    /// Seconds until a new code may be requested (0 when it may be now).
    pub fn resend_wait(&self, now: i64) -> i64 {
        self.may_issue(now).err().map_or(0, IssueDenied::wait_secs)
    }

    /// Checks a typed code against the current one in constant time.
    pub fn check(&self, key: &[u8], address: &str, typed: &str, now: i64) -> Verdict {
        let typed: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
        if typed.len() != CODE_DIGITS || !typed.bytes().all(|b| b.is_ascii_digit()) {
            return Verdict::Malformed;
        }
        let Some(code) = self.current() else {
            return Verdict::NoCode;
        };
        if code.used_at.is_some() {
            return Verdict::AlreadyUsed;
        }
        if let Some(wait_secs) = self.locked_for(now) {
            return Verdict::Locked { wait_secs };
        }
        if now - code.issued_at >= VALIDITY_SECS {
            return Verdict::Expired;
        }
        let candidate = tag(key, &code.nonce, address, &typed);
        if bool::from(candidate.ct_eq(&code.tag)) && !code.tag.is_empty() {
            Verdict::Accepted { code_id: code.id }
        } else {
            Verdict::Wrong {
                remaining: self.remaining_tries(now).saturating_sub(1),
            }
        }
    }
}

#[cfg(test)]
mod tests;

//! The app's own mail outbox as data: what kind of mail, its status, and the retry policy
//! (exponential backoff with equal jitter and a ceiling), all pure.

use content::key;

/// What a queued mail is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    /// The one-time code.
    Code,
    /// The report.
    Report,
}

impl MailKind {
    /// Name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::Code => "code",
            MailKind::Report => "report",
        }
    }

    /// Parses a stored name.
    pub fn parse(value: &str) -> Option<MailKind> {
        match value {
            "code" => Some(MailKind::Code),
            "report" => Some(MailKind::Report),
            _ => None,
        }
    }
}

/// Where a mail stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailStatus {
    /// Waiting for its next attempt.
    Queued,
    /// Accepted by the server (or written to a file).
    Sent,
    /// Given up after the ceiling, with the reason.
    Failed(String),
}

impl MailStatus {
    /// The UI string key (placeholder `{reason}` for failed).
    pub fn key(&self) -> content::Key {
        match self {
            MailStatus::Queued => key::mail::STATUS_QUEUED,
            MailStatus::Sent => key::mail::STATUS_SENT,
            MailStatus::Failed(_) => key::mail::STATUS_FAILED,
        }
    }
}

/// When to try again after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Delay after the first failure.
    pub base_secs: i64,
    /// Longest delay.
    pub max_delay_secs: i64,
    /// Attempts after which the mail is marked failed.
    pub max_attempts: u32,
}

/// The policy the app uses: 15 s, 30 s, 60 s ... up to 30 min, eight attempts (about an hour
/// and a half of trying before a mail is reported as failed).
pub const DEFAULT_RETRY: RetryPolicy = RetryPolicy {
    base_secs: 15,
    max_delay_secs: 30 * 60,
    max_attempts: 8,
};

impl RetryPolicy {
    /// Delay after `attempts` failed attempts (1-based) with equal jitter: half the backoff is
    /// fixed, the other half scaled by `jitter` in `[0, 1)`, so many clients that failed
    /// together do not retry together, yet none retries immediately.
    pub fn delay_secs(&self, attempts: u32, jitter: f64) -> i64 {
        let exp = attempts.saturating_sub(1).min(30);
        let backoff = self
            .base_secs
            .saturating_mul(1_i64 << exp)
            .min(self.max_delay_secs);
        let half = backoff / 2;
        half + ((backoff - half) as f64 * jitter.clamp(0.0, 1.0)) as i64
    }

    /// Whether a mail with `attempts` failed attempts is given up.
    pub fn exhausted(&self, attempts: u32) -> bool {
        attempts >= self.max_attempts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_and_a_ceiling() {
        let p = DEFAULT_RETRY;
        assert_eq!(p.delay_secs(1, 0.0), 7);
        assert_eq!(p.delay_secs(1, 1.0), 15);
        assert_eq!(p.delay_secs(2, 0.0), 15);
        assert_eq!(p.delay_secs(3, 0.5), 45);
        assert_eq!(p.delay_secs(20, 1.0), 30 * 60);
        assert_eq!(p.delay_secs(u32::MAX, 0.0), 15 * 60);
        assert!(!p.exhausted(7));
        assert!(p.exhausted(8));
    }

    #[test]
    fn kinds_round_trip() {
        for k in [MailKind::Code, MailKind::Report] {
            assert_eq!(MailKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(MailKind::parse("spam"), None);
    }
}

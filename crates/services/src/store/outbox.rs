//! The mail outbox table: every mail is a row written in the same transaction as the state that
//! asks for it; the dispatcher moves rows from queued to sent or failed.

use super::{Store, StoreError};
use domain::outbox::{MailKind, MailStatus};
use rusqlite::{Row, Transaction, TransactionBehavior, params};

/// A mail to put into the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMail {
    /// Code or report.
    pub kind: MailKind,
    /// Stable Message-ID (with angle brackets), reused by every attempt.
    pub message_id: String,
    /// The learner's address.
    pub recipient: String,
    /// Instructor copy (only with consent).
    pub cc: Option<String>,
    /// Subject line.
    pub subject: String,
    /// Plain-text body. For the code mail it holds the `{code}` placeholder, never the code.
    pub text: String,
    /// HTML body, if any.
    pub html: Option<String>,
}

/// A row of the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxMail {
    /// Row id.
    pub id: i64,
    /// The mail itself.
    pub mail: NewMail,
    /// The one-time code this mail carries (code mails only).
    pub otp_code_id: Option<i64>,
    /// When it was queued (Unix seconds; also the Date header).
    pub created_at: i64,
    /// Queued, sent or failed.
    pub status: MailStatus,
    /// Attempts started so far.
    pub attempts: u32,
    /// When the next attempt is due.
    pub next_attempt_at: i64,
    /// The reason of the last failed attempt.
    pub last_error: Option<String>,
    /// Where it went: the SMTP server or the .eml file.
    pub delivered_to: Option<String>,
}

/// How long one dispatcher holds a mail it is sending: longer than a whole SMTP conversation may
/// take (the transport's overall send deadline is shorter, checked at compile time there), short
/// enough that a crashed process does not block the mail.
pub const MAIL_LEASE_SECS: i64 = 120;

const COLUMNS: &str =
    "id, kind, message_id, recipient, cc, subject, body_text, body_html, otp_code_id,
    created_at, status, attempts, next_attempt_at, last_error, delivered_to";

fn row_to_mail(r: &Row<'_>) -> rusqlite::Result<OutboxMail> {
    let kind: String = r.get(1)?;
    let status: String = r.get(10)?;
    let last_error: Option<String> = r.get(13)?;
    Ok(OutboxMail {
        id: r.get(0)?,
        mail: NewMail {
            // The CHECK constraint allows only the two kinds.
            kind: MailKind::parse(&kind).unwrap_or(MailKind::Report),
            message_id: r.get(2)?,
            recipient: r.get(3)?,
            cc: r.get(4)?,
            subject: r.get(5)?,
            text: r.get(6)?,
            html: r.get(7)?,
        },
        otp_code_id: r.get(8)?,
        created_at: r.get(9)?,
        status: match status.as_str() {
            "sent" => MailStatus::Sent,
            "failed" => MailStatus::Failed(last_error.clone().unwrap_or_default()),
            _ => MailStatus::Queued,
        },
        attempts: r.get(11)?,
        next_attempt_at: r.get(12)?,
        last_error,
        delivered_to: r.get(14)?,
    })
}

/// Inserts a mail inside the caller's transaction (the state change that asks for it).
pub(super) fn insert(
    tx: &Transaction<'_>,
    mail: &NewMail,
    otp_code_id: Option<i64>,
    now: i64,
) -> rusqlite::Result<i64> {
    tx.execute(
        "INSERT INTO mail_outbox (message_id, kind, recipient, cc, subject, body_text, body_html,
             otp_code_id, created_at, next_attempt_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
        params![
            mail.message_id,
            mail.kind.as_str(),
            mail.recipient,
            mail.cc,
            mail.subject,
            mail.text,
            mail.html,
            otp_code_id,
            now
        ],
    )?;
    Ok(tx.last_insert_rowid())
}

impl Store {
    /// Queued mails whose next attempt is due at `now` and that no dispatcher holds, oldest
    /// first.
    pub fn due_mails(&self, now: i64) -> Result<Vec<OutboxMail>, StoreError> {
        self.query_mails(
            &format!(
                "SELECT {COLUMNS} FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= ?1
                 AND (lease_until IS NULL OR lease_until <= ?1) ORDER BY id"
            ),
            now,
        )
    }

    /// When the next queued mail is due (None when nothing waits).
    pub fn next_mail_due(&self) -> Result<Option<i64>, StoreError> {
        self.conn
            .query_row(
                "SELECT min(next_attempt_at) FROM mail_outbox WHERE status = 'queued'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    /// Every mail, newest first.
    pub fn mails(&self) -> Result<Vec<OutboxMail>, StoreError> {
        self.query_mails(
            &format!("SELECT {COLUMNS} FROM mail_outbox WHERE ?1 = ?1 ORDER BY id DESC"),
            0,
        )
    }

    fn query_mails(&self, sql: &str, arg: i64) -> Result<Vec<OutboxMail>, StoreError> {
        let run = || -> rusqlite::Result<Vec<OutboxMail>> {
            let mut stmt = self.conn.prepare(sql)?;
            stmt.query_map([arg], row_to_mail)?.collect()
        };
        run().map_err(|e| self.err(e))
    }

    /// The status of the newest report mail (Home shows it).
    pub fn report_mail_status(&self) -> Result<Option<MailStatus>, StoreError> {
        let rows = self.query_mails(
            &format!("SELECT {COLUMNS} FROM mail_outbox WHERE kind = 'report' AND ?1 = ?1 ORDER BY id DESC LIMIT 1"),
            0,
        )?;
        Ok(rows.into_iter().next().map(|m| m.status))
    }

    fn update(&mut self, sql: &str, params: impl rusqlite::Params) -> Result<usize, StoreError> {
        let run = |conn: &mut rusqlite::Connection| -> rusqlite::Result<usize> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let n = tx.execute(sql, params)?;
            tx.commit()?;
            Ok(n)
        };
        run(&mut self.conn).map_err(|e| self.err(e))
    }

    /// Claims a mail for one attempt: counts the attempt and takes a lease, durably and before
    /// anything goes on the wire. SQLite has no `SKIP LOCKED`, so the lease is what keeps two
    /// dispatchers (the TUI and `mail retry`) from sending the same row; a crash mid-send
    /// leaves the lease to expire and the attempt counted. False when another dispatcher holds
    /// the mail or it is no longer queued.
    pub fn begin_mail_attempt(&mut self, id: i64, now: i64) -> Result<bool, StoreError> {
        self.update(
            "UPDATE mail_outbox SET attempts = attempts + 1, lease_until = ?2 + ?3
             WHERE id = ?1 AND status = 'queued' AND (lease_until IS NULL OR lease_until <= ?2)",
            params![id, now, MAIL_LEASE_SECS],
        )
        .map(|n| n == 1)
    }

    /// Marks a mail sent.
    pub fn mark_mail_sent(
        &mut self,
        id: i64,
        now: i64,
        delivered_to: &str,
    ) -> Result<(), StoreError> {
        self.update(
            "UPDATE mail_outbox SET status = 'sent', sent_at = ?2, delivered_to = ?3, last_error = NULL,
                 lease_until = NULL
             WHERE id = ?1 AND status = 'queued'",
            params![id, now, delivered_to],
        )
        .map(drop)
    }

    /// Leaves a mail queued with the reason and the time of its next attempt.
    pub fn mark_mail_retry(&mut self, id: i64, next: i64, reason: &str) -> Result<(), StoreError> {
        self.update(
            "UPDATE mail_outbox SET next_attempt_at = ?2, last_error = ?3, lease_until = NULL
             WHERE id = ?1 AND status = 'queued'",
            params![id, next, reason],
        )
        .map(drop)
    }

    /// Gives a mail up with the reason.
    pub fn mark_mail_failed(&mut self, id: i64, reason: &str) -> Result<(), StoreError> {
        self.update(
            "UPDATE mail_outbox SET status = 'failed', last_error = ?2, lease_until = NULL
             WHERE id = ?1 AND status = 'queued'",
            params![id, reason],
        )
        .map(drop)
    }

    /// `mail retry`: failed report mails go back to the queue with a fresh attempt budget and
    /// every queued mail becomes due now. Code mails are not revived: their code only ever
    /// lived in the memory of the process that made it. Returns how many rows changed.
    pub fn requeue_mails(&mut self, now: i64) -> Result<usize, StoreError> {
        let revived = self.update(
            "UPDATE mail_outbox SET status = 'queued', attempts = 0, next_attempt_at = ?1
             WHERE status = 'failed' AND kind = 'report'",
            params![now],
        )?;
        let due = self.update(
            "UPDATE mail_outbox SET next_attempt_at = ?1 WHERE status = 'queued' AND next_attempt_at > ?1",
            params![now],
        )?;
        Ok(revived + due)
    }
}

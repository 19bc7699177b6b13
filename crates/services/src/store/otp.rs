//! One-time-code state and the report request in the store. Only tags are stored, never the
//! digits; issuing a code and queueing its mail, and checking a typed code together with
//! recording its outcome (failure, or acceptance and the queued report), each happen in one
//! transaction.

use super::outbox::{self, NewMail};
use super::{Store, StoreError};
use domain::otp::{CodeRecord, IssueDenied, OtpHistory, Verdict, WINDOW_SECS, may_issue_any};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

/// What the learner asked the report for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRequest {
    /// The address (deleted by "clear results").
    pub address: String,
    /// The quiz attempt the report is about.
    pub attempt_id: Option<i64>,
    /// Whether the code was confirmed.
    pub confirmed: bool,
}

/// A new code as the caller made it after looking at the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCode {
    /// Random nonce.
    pub nonce: Vec<u8>,
    /// HMAC tag.
    pub tag: Vec<u8>,
    /// The code mail (body with the `{code}` placeholder).
    pub mail: NewMail,
}

/// The normal form under which codes and failures are kept for an address.
pub fn address_key(address: &str) -> String {
    address.trim().to_lowercase()
}

fn history(conn: &Connection, key: &str) -> rusqlite::Result<OtpHistory> {
    let mut stmt = conn.prepare(
        "SELECT id, nonce, tag, issued_at, used_at FROM otp_code WHERE address = ?1 ORDER BY issued_at, id",
    )?;
    let codes = stmt
        .query_map([key], |r| {
            Ok(CodeRecord {
                id: r.get(0)?,
                nonce: r.get(1)?,
                tag: r.get(2)?,
                issued_at: r.get(3)?,
                used_at: r.get(4)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    let mut stmt = conn.prepare("SELECT at FROM otp_failure WHERE address = ?1 ORDER BY at, id")?;
    let failures = stmt
        .query_map([key], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(OtpHistory { codes, failures })
}

impl Store {
    /// Codes and failures for `address`.
    pub fn otp_history(&self, address: &str) -> Result<OtpHistory, StoreError> {
        history(&self.conn, &address_key(address)).map_err(|e| self.err(e))
    }

    /// Issues a code: the limit across all addresses is checked, then `make` sees the history
    /// inside the write transaction (so two processes cannot both pass a rate limit) and returns
    /// the code to store or why none may be sent.
    /// Returns the code's id and its mail's id.
    pub fn issue_code(
        &mut self,
        address: &str,
        attempt_id: i64,
        now: i64,
        make: impl FnOnce(&OtpHistory) -> Result<NewCode, IssueDenied>,
    ) -> Result<Result<(i64, i64), IssueDenied>, StoreError> {
        let all = |recent: &[(String, i64)]| {
            let issued: Vec<i64> = recent.iter().map(|(_, at)| *at).collect();
            may_issue_any(&issued, now)
        };
        self.issue_code_limited(address, attempt_id, now, all, make)
    }

    /// [`Store::issue_code`] with the caller's limit across codes: `limit` sees every code of
    /// the last hour as (key, issue time), inside the same write transaction. The workshop
    /// host keys codes by trainee and address and limits per trainee, per address and per room.
    pub fn issue_code_limited(
        &mut self,
        address: &str,
        attempt_id: i64,
        now: i64,
        limit: impl FnOnce(&[(String, i64)]) -> Result<(), IssueDenied>,
        make: impl FnOnce(&OtpHistory) -> Result<NewCode, IssueDenied>,
    ) -> Result<Result<(i64, i64), IssueDenied>, StoreError> {
        let key = address_key(address);
        let run = |conn: &mut Connection| -> rusqlite::Result<Result<(i64, i64), IssueDenied>> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut stmt =
                tx.prepare("SELECT address, issued_at FROM otp_code WHERE issued_at > ?1")?;
            let recent: Vec<(String, i64)> = stmt
                .query_map([now - WINDOW_SECS], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            drop(stmt);
            if let Err(denied) = limit(&recent) {
                return Ok(Err(denied));
            }
            let code = match make(&history(&tx, &key)?) {
                Ok(code) => code,
                Err(denied) => return Ok(Err(denied)),
            };
            tx.execute(
                "INSERT INTO otp_code (address, nonce, tag, issued_at) VALUES (?1, ?2, ?3, ?4)",
                params![key, code.nonce, code.tag, now],
            )?;
            let code_id = tx.last_insert_rowid();
            let mail_id = outbox::insert(&tx, &code.mail, Some(code_id), now)?;
            tx.execute(
                "INSERT INTO report_request (id, address, attempt_id) VALUES (1, ?1, ?2)
                 ON CONFLICT (id) DO UPDATE SET address = excluded.address,
                     attempt_id = excluded.attempt_id, confirmed_at = NULL, cc_consent = 0",
                params![address.trim(), attempt_id],
            )?;
            tx.commit()?;
            Ok(Ok((code_id, mail_id)))
        };
        run(&mut self.conn).map_err(|e| self.err(e))
    }

    /// Checks a typed code in one `BEGIN IMMEDIATE` transaction: reads the history, lets `judge`
    /// decide, and records the failure, or uses up the code and queues `report`, before any other
    /// process can read the history. So concurrent processes together get at most the five tries.
    pub fn decide_code(
        &mut self,
        address: &str,
        now: i64,
        cc_consent: bool,
        report: &NewMail,
        judge: impl FnOnce(&OtpHistory) -> Verdict,
    ) -> Result<Verdict, StoreError> {
        let key = address_key(address);
        let run = |conn: &mut Connection| -> rusqlite::Result<Verdict> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let verdict = judge(&history(&tx, &key)?);
            match verdict {
                Verdict::Accepted { code_id } => {
                    let used = tx.execute(
                        "UPDATE otp_code SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL",
                        params![code_id, now],
                    )?;
                    if used != 1 {
                        return Ok(Verdict::AlreadyUsed);
                    }
                    tx.execute(
                        "UPDATE report_request SET confirmed_at = ?1, cc_consent = ?2",
                        params![now, cc_consent],
                    )?;
                    outbox::insert(&tx, report, None, now)?;
                }
                Verdict::Wrong { .. } => {
                    tx.execute(
                        "INSERT INTO otp_failure (address, at) VALUES (?1, ?2)",
                        params![key, now],
                    )?;
                }
                _ => return Ok(verdict),
            }
            tx.commit()?;
            Ok(verdict)
        };
        run(&mut self.conn).map_err(|e| self.err(e))
    }

    /// The current report request, if any.
    pub fn report_request(&self) -> Result<Option<ReportRequest>, StoreError> {
        self.conn
            .query_row(
                "SELECT address, attempt_id, confirmed_at FROM report_request WHERE id = 1",
                [],
                |r| {
                    Ok(ReportRequest {
                        address: r.get(0)?,
                        attempt_id: r.get(1)?,
                        confirmed: r.get::<_, Option<i64>>(2)?.is_some(),
                    })
                },
            )
            .optional()
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests;

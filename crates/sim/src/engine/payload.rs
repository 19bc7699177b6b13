//! Reading a delivered message body: its schema version (poison messages), the claim-check
//! reference and the SHA-256 check of the blob.

use super::Simulation;
use crate::blobs::BlobError;
use crate::model::Mode;

/// Parsed message body: `version|order|amount|created_ms|reference`.
struct Body<'a> {
    version: &'a str,
    amount: i64,
    created: u64,
    reference: &'a str,
}

fn parse_body(body: &str) -> Option<Body<'_>> {
    let mut it = body.splitn(5, '|');
    let version = it.next()?;
    let _order = it.next()?;
    Some(Body {
        version,
        amount: it.next()?.parse().ok()?,
        created: it.next()?.parse().ok()?,
        reference: it.next()?,
    })
}

/// Why processing a delivery failed, and whether another attempt could ever succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// The error as the consumer logs it.
    pub text: String,
    /// The dead-letter reason when no retry can fix it (an unknown schema version, a missing
    /// or altered claim-check blob): the careful consumer dead-letters the message at once with
    /// this reason instead of spending the delivery limit on it. `None`: transient.
    pub permanent: Option<&'static str>,
}

impl Failure {
    /// The dead-letter reason for a message in a schema version the consumer does not know.
    pub(crate) const UNSUPPORTED_SCHEMA: &'static str = "UnsupportedSchemaVersion";
    /// The dead-letter reason after the last attempt of a transient error retried through
    /// scheduled copies (chapter 10's `TransientRetriesExhausted`).
    pub(crate) const RETRIES_EXHAUSTED: &'static str = "TransientRetriesExhausted";
    /// The dead-letter reason for a claim-check reference whose blob is gone.
    pub(crate) const BLOB_MISSING: &'static str = "BlobMissing";
    /// The dead-letter reason for a blob whose SHA-256 differs from the one in the message.
    pub(crate) const BLOB_HASH_MISMATCH: &'static str = "BlobHashMismatch";

    /// A blob fault: missing or altered blobs stay that way, so no retry can help; a file
    /// system error may pass.
    fn of_blob(e: &BlobError) -> Failure {
        let permanent = match e {
            BlobError::Missing(_) => Some(Failure::BLOB_MISSING),
            BlobError::HashMismatch { .. } => Some(Failure::BLOB_HASH_MISMATCH),
            BlobError::Io { .. } => None,
        };
        let text = match e {
            BlobError::Missing(key) => {
                crate::engine_words::english(crate::engine_words::BLOB_MISSING, &[key])
            }
            BlobError::HashMismatch {
                key,
                expected,
                actual,
            } => crate::engine_words::english(
                crate::engine_words::BLOB_MISMATCH,
                &[key, expected, actual],
            ),
            BlobError::Io { .. } => e.to_string(),
        };
        Failure { text, permanent }
    }
}

/// A transient failure: a later attempt may succeed.
impl From<String> for Failure {
    fn from(text: String) -> Failure {
        Failure {
            text,
            permanent: None,
        }
    }
}

impl Simulation {
    /// Reads and (unless naive) verifies the payload; `Ok(payload_ok)` or the processing error.
    pub(crate) fn read_payload(&self, body: &str) -> Result<(bool, i64, u64), Failure> {
        let b = parse_body(body).ok_or_else(|| {
            crate::engine_words::english(crate::engine_words::BODY_UNREADABLE, &[])
        })?;
        if b.version != super::api::BODY_V1
            && !(b.version == super::api::BODY_V2 && self.script.cause_fixed)
        {
            return Err(Failure {
                text: crate::engine_words::english(
                    crate::engine_words::UNSUPPORTED_SCHEMA,
                    &[b.version],
                ),
                permanent: Some(Failure::UNSUPPORTED_SCHEMA),
            });
        }
        let mut ok = true;
        if let Some(rest) = b.reference.strip_prefix("blob:") {
            let (key, sha) = rest.split_once(':').ok_or_else(|| {
                Failure::from(crate::engine_words::english(
                    crate::engine_words::BAD_REFERENCE,
                    &[],
                ))
            })?;
            let verify = self.spec.mode != Mode::Naive;
            ok = self
                .blobs
                .get(key, sha, verify)
                .map_err(|e| Failure::of_blob(&e))?
                .1;
        }
        Ok((ok, b.amount, b.created))
    }
}

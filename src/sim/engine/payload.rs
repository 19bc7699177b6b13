//! Reading a delivered message body: its schema version (poison messages), the claim-check
//! reference and the SHA-256 check of the blob.

use super::Simulation;
use crate::sim::model::Mode;

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
    /// No retry can fix it (an unknown schema version): the careful consumer dead-letters the
    /// message at once instead of spending the delivery limit on it.
    pub permanent: bool,
}

impl Failure {
    /// The dead-letter reason the application gives a permanent error of its own.
    pub(crate) const PERMANENT_REASON: &'static str = "UnsupportedSchemaVersion";
}

/// A transient failure: a later attempt may succeed.
impl From<String> for Failure {
    fn from(text: String) -> Failure {
        Failure {
            text,
            permanent: false,
        }
    }
}

impl Simulation {
    /// Reads and (unless naive) verifies the payload; `Ok(payload_ok)` or the processing error.
    pub(crate) fn read_payload(&self, body: &str) -> Result<(bool, i64, u64), Failure> {
        let b = parse_body(body).ok_or_else(|| "body does not parse".to_string())?;
        if b.version != super::api::BODY_V1
            && !(b.version == super::api::BODY_V2 && self.script.cause_fixed)
        {
            return Err(Failure {
                text: format!("unsupported schema version {} (poison message)", b.version),
                permanent: true,
            });
        }
        let mut ok = true;
        if let Some(rest) = b.reference.strip_prefix("blob:") {
            let (key, sha) = rest
                .split_once(':')
                .ok_or_else(|| Failure::from("bad claim-check reference".to_string()))?;
            let verify = self.spec.mode != Mode::Naive;
            ok = self
                .blobs
                .get(key, sha, verify)
                .map_err(|e| Failure::from(e.to_string()))?
                .1;
        }
        Ok((ok, b.amount, b.created))
    }
}

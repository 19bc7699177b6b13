//! Joining a workshop session, refused at join time when it cannot work: the host is asked
//! (its hello with the join code, over the pinned connection) before the membership is
//! recorded, so a wrong code, another host's certificate or an unreachable address is a refusal
//! the learner reads at once, never "joined" with an outbox that nobody will ever take.

use super::client::{self, RequestError};
use super::{Delivery, deliver};
use crate::host_client::{HostClient, HostError};
use crate::{Store, discovery};
use domain::workshop::wire::Hello;
use domain::workshop::{JoinRefusal, JoinUrl, check_digits};
use std::time::{Duration, Instant};

/// How long joining may wait for the host: a host restarting or a Wi-Fi hiccup is ridden out,
/// a wrong address is refused after this.
pub const JOIN_MS: u64 = 10_000;
/// Pause between tries while nothing answers.
const RETRY_PAUSE: Duration = Duration::from_millis(300);

/// A host met through `HOST:PORT CODE` or found on the LAN: the URL with the fingerprint its connection showed,
/// and the check digits the learner compares with the projector before joining.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    /// The join URL, pinned to the certificate seen.
    pub url: JoinUrl,
    /// The check digits of that certificate.
    pub digits: String,
}

/// What a join did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Joined {
    /// The session's name, as the host says it.
    pub session: String,
    /// The first delivery (registration and what waited).
    pub delivery: Delivery,
}

/// Whether a request may be tried again: nothing answered, or the connection broke (a
/// host restarting); never another certificate.
fn unanswered(e: &RequestError) -> bool {
    matches!(e, RequestError::Unreachable(_) | RequestError::Other(_))
}

/// Retries `try_once` while `retry` says its error is worth another try, until `deadline`.
fn with_retries<T, E>(
    deadline: Instant,
    retry: impl Fn(&E) -> bool,
    mut try_once: impl FnMut() -> Result<T, E>,
) -> Result<T, E> {
    loop {
        match try_once() {
            Err(e) if retry(&e) && Instant::now() + RETRY_PAUSE < deadline => {
                std::thread::sleep(RETRY_PAUSE);
            }
            other => return other,
        }
    }
}

/// Learns the certificate of `host:port` and its check digits, after asking the host whether
/// it takes `code`: a mistyped code is said at once, before the learner compares digits that
/// could never match. The code is on the projector for the whole room, so telling it to a host
/// not yet confirmed gives nothing away; the digits still decide whether to join.
pub fn observe(
    host: &str,
    port: u16,
    code: &str,
    deadline: Instant,
) -> Result<Observed, JoinRefusal> {
    let url = certificate_url(host, port, code, deadline)?;
    hello(&url, deadline)?;
    with_digits(url)
}

/// The join URL of `host:port` pinned to the certificate it shows (nothing is sent to it).
fn certificate_url(
    host: &str,
    port: u16,
    code: &str,
    deadline: Instant,
) -> Result<JoinUrl, JoinRefusal> {
    let fingerprint = with_retries(deadline, unanswered, || {
        client::observe_certificate(host, port, deadline)
    })
    .map_err(|e| JoinRefusal::Unreachable {
        address: domain::workshop::join_url::authority(host, port),
        detail: e.to_string(),
    })?;
    Ok(JoinUrl {
        host: host.to_owned(),
        port,
        code: code.to_owned(),
        fingerprint,
    })
}

/// `url` with the check digits of its certificate: one key derivation (about 0.1 s by design).
fn with_digits(url: JoinUrl) -> Result<Observed, JoinRefusal> {
    let digits = check_digits(&url.fingerprint, &url.code).map_err(|e| JoinRefusal::Local {
        reason: e.to_string(),
    })?;
    Ok(Observed { url, digits })
}

/// How long `queuelab join CODE` browses the LAN for sessions.
pub const FIND_MS: u64 = 3_000;
/// How long one advertised address may take to show its certificate.
const ADDRESS_MS: u64 = 1_500;
/// Most sessions one join shows check digits for: each costs a key derivation, and a device
/// advertising fake sessions must not make a join take minutes. Past these, the learner types
/// `HOST:PORT CODE` from the projector.
pub const MAX_SESSIONS_SHOWN: usize = 5;

/// Finds a session on the LAN whose host takes `code` (`queuelab join CODE`), other than the
/// certificates in `declined` (sessions whose digits the learner already said are not the
/// projector's): browses DNS-SD and asks each session found, at the first of its addresses that
/// answers, whether it takes the code; a network may hold several sessions, and a fake one may
/// answer first. The learner still confirms the check digits: an advertisement proves nothing
/// (the code is no secret from the room, so anyone in it can advertise a session that takes it).
pub fn find(code: &str, declined: &[String], deadline: Instant) -> Result<Observed, JoinRefusal> {
    if declined.len() >= MAX_SESSIONS_SHOWN {
        return Err(JoinRefusal::TooManySessions {
            n: MAX_SESSIONS_SHOWN,
        });
    }
    let search = (Instant::now() + Duration::from_millis(FIND_MS)).min(deadline);
    let mut refusal = JoinRefusal::NotFound;
    let mut chosen = None;
    let mut asked: Vec<discovery::Found> = Vec::new();
    let mut seen: Vec<String> = declined.to_vec();
    let browsed = discovery::browse(search, |session| {
        // A session is resolved again as more addresses arrive: each is asked once.
        if asked.contains(session) {
            return false;
        }
        asked.push(session.clone());
        match ask(session, code, &mut seen, deadline) {
            Ok(Some(found)) => {
                chosen = Some(found);
                true
            }
            Ok(None) => false,
            Err(e) => {
                refusal = e;
                false
            }
        }
    });
    if let Err(reason) = browsed {
        // No multicast socket: the same as a network that hides the host.
        crate::log::warn(&format!("looking for a workshop session: {reason}"));
    }
    let found = match chosen {
        Some(found) => found,
        // Sessions took the code, but the learner declined each one's digits.
        None if !declined.is_empty() && matches!(refusal, JoinRefusal::NotFound) => {
            return Err(JoinRefusal::TooManySessions { n: declined.len() });
        }
        None => return Err(refusal),
    };
    with_digits(found)
}

/// Learns the certificate of `session` at the first address that answers and asks it whether
/// it takes `code`. `None` for a certificate in `seen` (declined, or met at another address):
/// no digits are derived twice. The certificate asked about joins `seen`.
fn ask(
    session: &discovery::Found,
    code: &str,
    seen: &mut Vec<String>,
    deadline: Instant,
) -> Result<Option<JoinUrl>, JoinRefusal> {
    let mut refusal = JoinRefusal::NotFound;
    for address in &session.addresses {
        let each = (Instant::now() + Duration::from_millis(ADDRESS_MS)).min(deadline);
        match certificate_url(&address.to_string(), session.port, code, each) {
            Ok(url) if seen.contains(&url.fingerprint) => return Ok(None),
            Ok(url) => {
                seen.push(url.fingerprint.clone());
                return hello(&url, deadline).map(|_| Some(url));
            }
            Err(e) => refusal = e,
        }
    }
    Err(refusal)
}

/// Asks the host of `url` whether it takes this join code, over the pinned connection, and
/// whether it speaks this build's protocol.
pub fn hello(url: &JoinUrl, deadline: Instant) -> Result<Hello, JoinRefusal> {
    let host = HostClient::new(url.clone());
    let retry =
        |e: &HostError| matches!(e, HostError::NoAnswer { reason, .. } if unanswered(reason));
    with_retries(deadline, retry, || host.hello(deadline)).map_err(|e| refusal(e, url))
}

/// The learner's reason for a hello that failed.
fn refusal(e: HostError, url: &JoinUrl) -> JoinRefusal {
    let address = url.authority();
    match e {
        HostError::NoAnswer {
            reason: RequestError::Certificate(_),
            ..
        } => JoinRefusal::WrongCertificate { address },
        HostError::NoAnswer {
            reason: RequestError::Unreachable(detail) | RequestError::Other(detail),
            ..
        } => JoinRefusal::Unreachable { address, detail },
        HostError::Refused {
            status: 401 | 403, ..
        } => JoinRefusal::WrongCode,
        HostError::Refused { message, .. } => JoinRefusal::Host { reason: message },
        HostError::Version(refusal) => JoinRefusal::Version(refusal),
        e @ (HostError::Unreadable { .. } | HostError::Encode { .. }) => JoinRefusal::Host {
            reason: e.to_string(),
        },
    }
}

/// Joins the session of `url` as `name`: checks with the host first, then records the
/// membership and registers with the first delivery. A registration the host refuses (session
/// full, too many new trainees) undoes a new membership, so nothing waits for a host that said no.
pub fn join(
    store: &mut Store,
    url: &JoinUrl,
    name: &str,
    deadline: Instant,
) -> Result<Joined, JoinRefusal> {
    let local = |e: crate::store::StoreError| JoinRefusal::Local {
        reason: e.to_string(),
    };
    let hello = hello(url, deadline)?;
    let rejoin = store
        .membership()
        .map_err(local)?
        .is_some_and(|old| old.url.code == url.code && old.url.fingerprint == url.fingerprint);
    store.join(url, name).map_err(local)?;
    // The room counts the trainee from this event on, a rejoin after a leave included.
    store
        .queue_event(&domain::workshop::EventKind::Joined)
        .map_err(local)?;
    store.set_session_name(&hello.session).map_err(local)?;
    // The registration gets its own few seconds even when the hello used most of the deadline.
    let delivery = deliver(store, client::deadline_in(DELIVERY_MS), true).map_err(local)?;
    let refused = match &delivery.error {
        Some(HostError::Version(refusal)) => Some(JoinRefusal::Version(refusal.clone())),
        Some(error) => error.refusal().map(|reason| JoinRefusal::Host {
            reason: reason.to_owned(),
        }),
        None => None,
    };
    if let Some(refused) = refused {
        if !rejoin {
            store.leave().map_err(local)?;
        }
        return Err(refused);
    }
    Ok(Joined {
        session: delivery.session.clone().unwrap_or(hello.session),
        delivery,
    })
}

/// How long the registration after a successful hello may take.
const DELIVERY_MS: u64 = 5_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_derives_digits_for_at_most_five_sessions() {
        let declined: Vec<String> = (0..MAX_SESSIONS_SHOWN)
            .map(|i| format!("{i:064x}"))
            .collect();
        assert_eq!(
            find("K7Q2M9X", &declined, client::deadline_in(JOIN_MS)),
            Err(JoinRefusal::TooManySessions {
                n: MAX_SESSIONS_SHOWN
            }),
            "fake advertisements cannot make a join derive without end"
        );
    }
}

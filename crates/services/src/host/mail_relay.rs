//! Mail through the host: the host holds the mail configuration, issues and checks the one-time
//! codes (tries, expiry, cooldown and hourly limits live in the host's own store, where no
//! trainee can reset them) and sends the report. It reuses the local flow: the same
//! `ReportFlow` and outbox on a store in the host's data folder, with codes kept per trainee
//! and address, and its own dispatcher thread ([`RelayWorker`]) that sends and retries.

use super::lock;
use super::relay_worker::RelayWorker;
use super::report::{TraineeRecord, compose};
use crate::config::{DEFAULT_RELAY_CODES_PER_HOUR, Transport};
use crate::mail::{self, CodeVault, Dispatcher, ReportFlow, validate_address};
use crate::store::{address_key, now_secs};
use crate::{Config, Store};
use content::key;
use content::{Content, Lang};
use domain::otp::{IssueDenied, MAX_CODES_PER_WINDOW, Verdict, WINDOW_SECS};
use domain::outbox::{DEFAULT_RETRY, MailKind, MailStatus};
use domain::workshop::Event;
use domain::workshop::summary::RelayCounts;
use domain::workshop::wire::{CodeReply, CodeRequest, ReportSubmit, SendReply};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

/// Codes one trainee may have sent per hour, to all addresses together.
pub const CODES_PER_TRAINEE: usize = 5;
/// How long a request waits for the dispatcher's first attempt before it answers "queued"
/// (the answer never waits for a slow mail server).
const FIRST_ATTEMPT_PATIENCE: Duration = Duration::from_millis(1500);
/// The relay's store in the host's data folder.
pub const RELAY_DB: &str = "host-mail.db";

/// The host's mail relay.
pub struct MailRelay {
    store: Mutex<Store>,
    flow: ReportFlow,
    worker: RelayWorker,
    content: Content,
    room_limit: usize,
}

/// Why the host relays no mail: it has no mail settings (the `file` transport would only
/// write the trainees' codes into the host's own folder). None when it can relay.
pub fn missing_settings(config: &Config) -> Option<&'static str> {
    (config.mail.transport == Transport::File).then_some(
        "no [mail] settings with transport = \"smtp\" in the config: trainees cannot mail their reports through this host",
    )
}

/// Why the relay did not answer a request with a reply (each answers with its own status).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RelayError {
    /// The address is not one a mail can go to (the reason in the trainee's language).
    #[error("address refused: {0}")]
    Address(String),
    /// The trainee has no report to send yet (the reason in the trainee's language).
    #[error("{0}")]
    NoReport(String),
    /// The relay's or the host's store failed.
    #[error("{0}")]
    Store(String),
    /// The host database failed.
    #[error("host database: {0}")]
    Database(String),
}

impl RelayError {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self {
            RelayError::Address(_) => 422,
            RelayError::NoReport(_) => 409,
            RelayError::Store(_) | RelayError::Database(_) => 500,
        }
    }
}

/// The key a code is kept under: the trainee who asked and the address.
fn code_key(trainee: &str, address: &str) -> String {
    format!(
        "{}/{}",
        super::names::normal_id(trainee),
        address_key(address)
    )
}

/// The limits across codes, fair to every trainee: `recent` holds (trainee/address key, issue
/// time) of every code the relay issued in the window.
/// - A trainee's first code in the hour is never refused for what others asked; only repeat
///   requests share the room's pool (`room_limit` repeats an hour), so fake trainees asking
///   again and again cannot spend the codes of the ones who have not asked yet.
/// - A trainee sends codes to one address an hour: a fake trainee can mail a stranger at most
///   once or five times, not one address after another.
/// - The per-address limit counts this trainee's codes to this address only, so fake trainees
///   asking for Alice's address cannot lock Alice out.
/// - And at most [`CODES_PER_TRAINEE`] codes per trainee an hour.
fn room_limits(
    recent: &[(String, i64)],
    trainee: &str,
    address: &str,
    room_limit: usize,
    now: i64,
) -> Result<(), IssueDenied> {
    let wait = |matching: Vec<i64>, limit: usize| -> Option<i64> {
        (matching.len() >= limit).then(|| {
            let mut times = matching;
            times.sort_unstable();
            // No code at all (a limit of 0) waits the whole window.
            times
                .len()
                .checked_sub(limit)
                .and_then(|i| times.get(i))
                .map_or(WINDOW_SECS, |oldest| oldest + WINDOW_SECS - now)
        })
    };
    let prefix = format!("{trainee}/");
    let this_key = code_key(trainee, address);
    let mine: Vec<&(String, i64)> = recent
        .iter()
        .filter(|(key, _)| key.starts_with(&prefix))
        .collect();
    if let Some(other) = mine
        .iter()
        .filter(|(key, _)| *key != this_key)
        .map(|(_, at)| *at)
        .max()
    {
        return Err(IssueDenied::OtherAddress {
            wait_secs: other + WINDOW_SECS - now,
        });
    }
    let to_address: Vec<i64> = mine.iter().map(|(_, at)| *at).collect();
    if let Some(wait_secs) = wait(
        to_address.clone(),
        MAX_CODES_PER_WINDOW.min(CODES_PER_TRAINEE),
    ) {
        return Err(IssueDenied::HourlyLimit { wait_secs });
    }
    if !to_address.is_empty()
        && let Some(wait_secs) = wait(repeats(recent), room_limit)
    {
        return Err(IssueDenied::RoomLimit { wait_secs });
    }
    Ok(())
}

/// The issue times of the codes that were not their trainee's first in the window.
fn repeats(recent: &[(String, i64)]) -> Vec<i64> {
    let mut by_trainee = std::collections::BTreeMap::<&str, Vec<i64>>::new();
    for (key, at) in recent {
        let trainee = key.split_once('/').map_or(key.as_str(), |(t, _)| t);
        by_trainee.entry(trainee).or_default().push(*at);
    }
    by_trainee
        .into_values()
        .flat_map(|mut times| {
            times.sort_unstable();
            times.into_iter().skip(1)
        })
        .collect()
}

impl MailRelay {
    /// Opens the relay's store and transport in `data_dir` with the host's mail config and
    /// starts its dispatcher (which first sends what a previous run left queued).
    pub fn open(data_dir: &Path, config: &Config, content: &Content) -> Result<MailRelay, String> {
        let path = data_dir.join(RELAY_DB);
        super::files::create_private(&path).map_err(|e| e.to_string())?;
        let (store, _) = Store::open(&path).map_err(|e| e.to_string())?;
        let from = mail::from_mailbox(config.mail.from.as_deref()).map_err(|e| e.to_string())?;
        let vault = CodeVault::shared();
        let flow = ReportFlow {
            key: mail::load_or_create_key(&data_dir.join("host-otp.key"))
                .map_err(|e| e.to_string())?,
            vault: vault.clone(),
            from: from.clone(),
            // The address comes from this config alone; a report carries it as a copy only
            // when the trainee agreed (`ReportSubmit::instructor_copy`).
            instructor_cc: config.workshop.instructor_cc.clone(),
        };
        let transport =
            mail::from_config(&config.mail, &data_dir.join("mail")).map_err(|e| e.to_string())?;
        let dispatcher = Dispatcher::new(transport, from, vault, DEFAULT_RETRY);
        let room_limit = config
            .mail
            .relay_codes_per_hour
            .unwrap_or(DEFAULT_RELAY_CODES_PER_HOUR) as usize;
        Ok(MailRelay {
            store: Mutex::new(store),
            flow,
            worker: RelayWorker::start(&path, dispatcher)?,
            content: content.clone(),
            room_limit,
        })
    }

    /// Whether the host's config names an instructor to copy reports to.
    pub fn offers_copy(&self) -> bool {
        self.flow.instructor_cc.is_some()
    }

    /// The relay's mails by status (for the dashboard and `host status`; no addresses).
    pub fn counts(&self) -> Result<RelayCounts, String> {
        let mails = lock(&self.store).mails().map_err(|e| e.to_string())?;
        let mut counts = RelayCounts::default();
        for mail in mails {
            match mail.status {
                MailStatus::Queued if mail.attempts == 0 => counts.queued += 1,
                MailStatus::Queued => counts.retrying += 1,
                MailStatus::Sent => counts.sent += 1,
                MailStatus::Failed(_) => counts.failed += 1,
            }
        }
        Ok(counts)
    }

    /// Queues the mail for the dispatcher and waits briefly for its first attempt (never
    /// holding the store): true when it went out.
    fn hand_over(&self, mail_id: i64) -> bool {
        self.worker.wake();
        self.worker.sent_within(mail_id, FIRST_ATTEMPT_PATIENCE)
    }

    /// Issues a code for the address and queues its mail.
    pub fn request_code(&self, req: &CodeRequest) -> Result<CodeReply, RelayError> {
        let address = validate_address(&req.address)
            .map_err(|e| RelayError::Address(self.strings(req.lang).get(e.key()).to_owned()))?;
        let trainee = &super::names::normal_id(&req.caller.trainee);
        let now = now_secs();
        let issued = self
            .flow
            .request_code_keyed(
                &mut lock(&self.store),
                self.strings(req.lang),
                &address,
                &code_key(trainee, &address),
                now,
                |recent| room_limits(recent, trainee, &address, self.room_limit, now),
            )
            .map_err(|e| RelayError::Store(e.to_string()))?;
        Ok(match issued {
            Ok(mail_id) => CodeReply::Issued {
                sent: self.hand_over(mail_id),
                copy_offered: self.offers_copy(),
            },
            Err(denied) => CodeReply::from(denied),
        })
    }

    /// Checks the typed code; when right, queues the report the host composes from the
    /// trainee's stored events (`record`: name and events) in the language of the request.
    /// The report text in the request is not read.
    pub fn submit(
        &self,
        req: &ReportSubmit,
        workshop: &str,
        record: (String, Vec<Event>),
    ) -> Result<SendReply, RelayError> {
        let lang = req.report.lang;
        let address = validate_address(&req.address)
            .map_err(|e| RelayError::Address(self.strings(lang).get(e.key()).to_owned()))?;
        let (name, events) = record;
        let trainee = TraineeRecord {
            name: &name,
            events,
        };
        let Some(report) = compose(&self.content, lang, workshop, trainee, now_secs()) else {
            return Err(RelayError::NoReport(
                self.strings(lang).get(key::report::NEED_QUIZ).to_owned(),
            ));
        };
        let key = code_key(&req.caller.trainee, &address);
        // One lock around check and record: concurrent guesses are counted one after another,
        // so twenty at once still stop at the try limit.
        let mut store = lock(&self.store);
        let verdict = self
            .flow
            .confirm_code_keyed(
                &mut store,
                &address,
                &key,
                &req.typed,
                now_secs(),
                req.instructor_copy,
                &report,
            )
            .map_err(|e| RelayError::Store(e.to_string()))?;
        // The report just queued is the newest report mail: nobody else wrote while we held
        // the store.
        let queued = matches!(verdict, Verdict::Accepted { .. })
            .then(|| store.mails().ok())
            .flatten()
            .and_then(|mails| mails.into_iter().find(|m| m.mail.kind == MailKind::Report))
            .map(|m| m.id);
        drop(store);
        let sent = queued.is_some_and(|id| self.hand_over(id));
        Ok(SendReply::new(verdict, sent))
    }

    fn strings(&self, lang: Lang) -> &content::Strings {
        &self.content.course(lang).strings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trainees_mail_deadline_fits_the_relays_answer_and_no_more() {
        let deadline = Duration::from_millis(crate::trainee::client::MAIL_REQUEST_MS);
        // Room for the first attempt's patience several times over, but never the half
        // minute a trainee once waited while the host sent the mail inside the request.
        assert!(deadline >= FIRST_ATTEMPT_PATIENCE * 4, "{deadline:?}");
        assert!(deadline <= Duration::from_secs(10), "{deadline:?}");
    }

    #[test]
    fn limits_per_room_trainee_and_address() {
        let now = 10_000;
        let codes = |key: &str, n: usize| -> Vec<(String, i64)> {
            (0..n)
                .map(|i| (key.to_owned(), now - 100 + i as i64))
                .collect()
        };
        // One trainee's five codes stop that trainee (for that address and any other), not a
        // neighbour.
        let recent = codes("aa/x@example.org", 5);
        assert!(matches!(
            room_limits(&recent, "aa", "x@example.org", 120, now),
            Err(IssueDenied::HourlyLimit { .. })
        ));
        assert!(matches!(
            room_limits(&recent, "aa", "y@example.org", 120, now),
            Err(IssueDenied::OtherAddress { .. })
        ));
        assert_eq!(
            room_limits(&recent, "bb", "y@example.org", 120, now),
            Ok(())
        );
        // Five codes to one address from several trainees do not stop a sixth trainee for it.
        let mut recent = codes("aa/x@example.org", 2);
        recent.extend(codes("bb/x@example.org", 3));
        assert_eq!(
            room_limits(&recent, "cc", "X@Example.org", 120, now),
            Ok(())
        );
        // The room's limit counts repeats; the wait ends when the oldest counting one ages out.
        let recent: Vec<(String, i64)> = (0..4)
            .flat_map(|t| codes(&format!("t{t}/a{t}@example.org"), 2))
            .collect();
        assert_eq!(
            room_limits(&recent, "t9", "n@example.org", 4, now),
            Ok(()),
            "a first code"
        );
        assert_eq!(
            room_limits(&recent, "t0", "a0@example.org", 4, now),
            Err(IssueDenied::RoomLimit {
                wait_secs: WINDOW_SECS - 99
            })
        );
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    const NOW: i64 = 1_000_000;

    fn key(trainee: usize, address: &str) -> String {
        code_key(&format!("{trainee:032x}"), address)
    }

    fn ask(recent: &[(String, i64)], trainee: usize, address: &str) -> Result<(), IssueDenied> {
        room_limits(recent, &format!("{trainee:032x}"), address, 2, NOW)
    }

    #[test]
    fn a_first_code_is_never_refused_for_others_and_repeats_share_the_pool() {
        // Forty trainees asked once each, and two of them again: the pool of 2 repeats is used.
        let mut recent: Vec<(String, i64)> = (0..40)
            .map(|t| (key(t, &format!("t{t}@example.org")), NOW - 100))
            .collect();
        recent.push((key(0, "t0@example.org"), NOW - 50));
        recent.push((key(1, "t1@example.org"), NOW - 40));
        assert_eq!(ask(&recent, 99, "new@example.org"), Ok(()), "a first code");
        assert!(matches!(
            ask(&recent, 2, "t2@example.org"),
            Err(IssueDenied::RoomLimit { .. })
        ));
    }

    #[test]
    fn one_address_per_trainee_and_the_address_limit_counts_per_trainee() {
        // Five fake trainees asked for Alice's address; Alice's own first code goes out.
        let recent: Vec<(String, i64)> = (0..5)
            .map(|t| (key(t, "alice@example.org"), NOW - 10))
            .collect();
        assert_eq!(ask(&recent, 7, "alice@example.org"), Ok(()));
        // A fake trainee cannot go on to another address.
        assert!(matches!(
            ask(&recent, 0, "bob@example.org"),
            Err(IssueDenied::OtherAddress { wait_secs }) if wait_secs == WINDOW_SECS - 10
        ));
        // Five codes of one trainee to one address: the hourly limit.
        let mine: Vec<(String, i64)> = (0..5)
            .map(|i| (key(3, "c@example.org"), NOW - 100 + i))
            .collect();
        assert!(matches!(
            room_limits(&mine, &format!("{:032x}", 3), "c@example.org", 100, NOW),
            Err(IssueDenied::HourlyLimit { .. })
        ));
    }
}

//! The workshop host: the session's state (database, summary, secrets) and its JSON API,
//! independent of the transport that carries requests. This file opens the session and holds
//! its settings and summary; the instructor's commands on the room live in `moderation` and
//! `pacing`.

use content::key;

pub mod api;
pub mod db;
mod door;
pub mod export;
pub mod files;
pub mod limits;
pub mod login;
pub mod mail_relay;
mod moderation;
pub mod names;
mod pacing;
pub mod projector;
pub mod relay_worker;
pub mod report;
pub mod server;

use content::{Content, Lang};
use db::HostDb;
use domain::workshop::summary::OptionLabel;
use domain::workshop::{Catalog, Pace, RoomTexts, Summary, SummaryView};
pub use door::SilentRemoved;
use limits::RateLimits;
pub use moderation::{AckError, Kicked};
pub use pacing::PaceError;
use pacing::{revealed, second_votes};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use domain::workshop::join_url::{CODE_ALPHABET, CODE_LEN};
/// Length of the instructor key.
const KEY_LEN: usize = 24;

/// The host database failed while the host changed or read the session (SQLite's words).
#[derive(Debug, thiserror::Error)]
#[error("host database: {0}")]
pub struct HostDbError(#[from] pub rusqlite::Error);
/// Default session name.
pub const DEFAULT_SESSION_NAME: &str = "queuelab workshop";
/// Most trainees one session accepts (bounds memory).
pub const MAX_TRAINEES: u32 = 500;
/// Most events the host stores for one trainee: a whole course with every quiz retaken and
/// every scenario run many times stays far below; a client replaying without end does not.
pub const MAX_EVENTS_PER_TRAINEE: u32 = 5_000;

/// The meta key of the session's language.
const LANG_META: &str = "session_lang";
/// The meta key of the feedback setting (`held` or `immediate`).
const FEEDBACK_META: &str = "feedback";

/// The wall clock in Unix ms (0 before 1970, which no host sees).
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The refusals a trainee reads in their language (the host answers in both when the request
/// does not say which).
const REFUSALS: [content::Key; 3] = [
    key::workshop::RELAY_NO_MAIL,
    key::workshop::NAME_HIDDEN_CHARS,
    key::workshop::ROOM_LOCKED,
];

/// The pages a phone sees at the join URL.
#[derive(Debug, Clone)]
pub struct JoinPages {
    /// How to join and the quick-reference map.
    pub full: String,
    /// How to join, while the room votes on held decisions (the map answers them).
    pub before_reveal: String,
}

/// A running session's state, shared by every request.
pub struct HostState {
    db: Mutex<HostDb>,
    summary: Mutex<Summary>,
    paces: Mutex<Vec<Pace>>,
    limits: Mutex<RateLimits>,
    registrations: Mutex<RateLimits>,
    catalog: Catalog,
    relay: Option<mail_relay::MailRelay>,
    /// Refusals the host words for the trainee, by string key: German and English.
    refusals: Vec<(content::Key, [String; 2])>,
    /// The join code.
    pub code: String,
    /// The instructor key.
    pub key: String,
    /// The session name.
    pub name: String,
    /// The phone page served at the join URL (set once the address is known).
    join_page: std::sync::OnceLock<JoinPages>,
    /// What the projector page says about joining (set once the address is known).
    projector_join: std::sync::OnceLock<projector::JoinLines>,
    /// Decision options as numbered on every screen, German and English.
    labels: [BTreeMap<String, Vec<OptionLabel>>; 2],
    /// The session's language (summary labels, titles, pages).
    lang: Lang,
    /// The course's titles and the UI strings, German and English.
    texts: [RoomTexts; 2],
    /// The language the session was last served in (None before the first serve).
    stored_lang: Option<Lang>,
    /// When the session was first opened (Unix ms).
    started_ms: i64,
    /// Trainees see right/wrong only after the reveal (the session setting).
    hold_feedback: bool,
    /// No new trainees may join (see `door`).
    door_locked: std::sync::atomic::AtomicBool,
}

fn random_text(len: usize) -> String {
    (0..len)
        .map(|_| {
            let i = rand::random_range(0..CODE_ALPHABET.len());
            char::from(CODE_ALPHABET[i])
        })
        .collect()
}

/// A mutex whose holder panicked still holds consistent data here (every change is one
/// statement or one SQLite transaction), so a poisoned lock is taken over, not propagated.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl HostState {
    /// The session's database file in the data folder.
    pub const DB_FILE: &'static str = "host.db";

    /// Opens the session in `data_dir` (a restart keeps code, key, trainees and events) and
    /// rebuilds the summary from the stored events.
    pub fn open(
        data_dir: &Path,
        name: Option<&str>,
        content: &Content,
    ) -> Result<HostState, String> {
        let path = data_dir.join(Self::DB_FILE);
        let fail = |e: rusqlite::Error| format!("host database {}: {e}", path.display());
        files::create_private(&path).map_err(|e| e.to_string())?;
        let db = HostDb::open(&path).map_err(fail)?;
        let get_or_make = |key: &str, make: &dyn Fn() -> String| -> Result<String, String> {
            if let Some(v) = db.meta(key).map_err(fail)? {
                return Ok(v);
            }
            let v = make();
            db.set_meta(key, &v).map_err(fail)?;
            Ok(v)
        };
        let code = get_or_make("join_code", &|| random_text(CODE_LEN))?;
        let key = get_or_make("instructor_key", &|| random_text(KEY_LEN))?;
        if let Some(name) = name {
            db.set_meta("session_name", name).map_err(fail)?;
        }
        let name = get_or_make("session_name", &|| DEFAULT_SESSION_NAME.to_owned())?;
        let started_ms = get_or_make("started_ms", &|| now_ms().to_string())?
            .parse()
            .unwrap_or(0);
        let stored_lang = db
            .meta(LANG_META)
            .map_err(fail)?
            .as_deref()
            .and_then(Lang::from_code);
        // Held unless the session was started with immediate feedback.
        let hold_feedback = db.meta(FEEDBACK_META).map_err(fail)?.as_deref() != Some("immediate");
        let catalog = Catalog::new(content);
        let summary = db.summary(&catalog).map_err(fail)?;
        let door_locked = std::sync::atomic::AtomicBool::new(db.locked().map_err(fail)?);
        let paces = db.paces().map_err(fail)?;
        Ok(HostState {
            db: Mutex::new(db),
            summary: Mutex::new(summary),
            paces: Mutex::new(paces),
            limits: Mutex::new(RateLimits::default()),
            registrations: Mutex::new(RateLimits::registrations()),
            catalog,
            relay: None,
            refusals: REFUSALS
                .iter()
                .map(|key| {
                    let text = |lang: Lang| content.course(lang).strings.get(*key).to_owned();
                    (*key, [text(Lang::De), text(Lang::En)])
                })
                .collect(),
            code,
            key,
            name,
            join_page: std::sync::OnceLock::new(),
            projector_join: std::sync::OnceLock::new(),
            labels: [
                OptionLabel::of_course(content.course(Lang::De)),
                OptionLabel::of_course(content.course(Lang::En)),
            ],
            lang: stored_lang.unwrap_or_default(),
            texts: [
                RoomTexts::of(content, Lang::De),
                RoomTexts::of(content, Lang::En),
            ],
            stored_lang,
            started_ms,
            hold_feedback,
            door_locked,
        })
    }

    /// Shows the summary in `lang` for this run only (`host export --lang`): the option texts,
    /// the titles, the projector page and the export.
    #[must_use]
    pub fn with_lang(mut self, lang: Lang) -> HostState {
        self.lang = lang;
        self
    }

    /// Makes `lang` the session's language, remembered across restarts: `host export` and a
    /// restarted host without `--lang` keep it.
    pub fn set_session_lang(mut self, lang: Lang) -> Result<HostState, HostDbError> {
        lock(&self.db).set_meta(LANG_META, lang.code())?;
        self.lang = lang;
        self.stored_lang = Some(lang);
        Ok(self)
    }

    /// The language the session was last served in, if it was served before.
    pub fn stored_lang(&self) -> Option<Lang> {
        self.stored_lang
    }

    /// The session's language in use.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The titles and strings of the session's language.
    pub fn texts(&self) -> &RoomTexts {
        let [de, en] = &self.texts;
        match self.lang {
            Lang::De => de,
            Lang::En => en,
        }
    }

    /// Whether trainees see right/wrong only after the reveal (default: held).
    #[must_use]
    pub fn with_hold_feedback(mut self, hold: bool) -> HostState {
        self.hold_feedback = hold;
        self
    }

    /// Sets the session's feedback setting and keeps it across restarts (`--feedback`).
    pub fn set_hold_feedback(mut self, hold: bool) -> Result<HostState, HostDbError> {
        let value = if hold { "held" } else { "immediate" };
        lock(&self.db).set_meta(FEEDBACK_META, value)?;
        self.hold_feedback = hold;
        Ok(self)
    }

    /// Whether trainees see right/wrong only after the reveal.
    pub fn hold_feedback(&self) -> bool {
        self.hold_feedback
    }

    /// Sets the pages a phone sees at the join URL (the QR code on the projector); the first
    /// call wins.
    pub fn set_join_pages(&self, pages: JoinPages) {
        let _ = self.join_page.set(pages);
    }

    /// Sets what the projector page says about joining (once).
    pub fn set_projector_join(&self, lines: projector::JoinLines) {
        let _ = self.projector_join.set(lines);
    }

    /// What the projector page says about joining, once set.
    pub(crate) fn projector_join(&self) -> Option<&projector::JoinLines> {
        self.projector_join.get()
    }

    /// The page a phone sees at the join URL, once set: without the map while the room still
    /// votes on a decision whose feedback is held, since the map's checklist answers it.
    pub(crate) fn join_page(&self) -> Option<&str> {
        let pages = self.join_page.get()?;
        let revealed = revealed(&lock(&self.paces)).len();
        let held = self.hold_feedback && revealed < self.texts().decision_count();
        Some(if held {
            &pages.before_reveal
        } else {
            &pages.full
        })
    }

    /// Relays report mail with this relay (the host's mail configuration).
    #[must_use]
    pub fn with_relay(mut self, relay: mail_relay::MailRelay) -> HostState {
        self.relay = Some(relay);
        self
    }

    /// The refusal `key` in `lang`, or in English and German when the language is not known.
    pub(crate) fn refusal(&self, key: content::Key, lang: Option<Lang>) -> String {
        let Some((_, [de, en])) = self.refusals.iter().find(|(k, _)| *k == key) else {
            return key.name().to_owned();
        };
        match lang {
            Some(Lang::De) => de.clone(),
            Some(Lang::En) => en.clone(),
            None => format!("{en} / {de}"),
        }
    }

    /// The summary as JSON-ready data.
    pub fn summary(&self) -> Result<SummaryView, HostDbError> {
        let (events, duplicates) = lock(&self.db).counts()?;
        let mut view =
            lock(&self.summary).view(&self.name, events, duplicates, &self.catalog, self.texts());
        view.date = domain::report::iso_date(self.started_ms / 1000);
        view.now_ms = now_ms();
        let paces = lock(&self.paces);
        view.revealed = revealed(&paces);
        let opened = second_votes(&paces);
        view.last_pace = paces.last().cloned();
        drop(paces);
        // Taken after the pacing lock is let go: no two locks are ever held at once here.
        view.second_votes = lock(&self.summary).second_distributions(&self.catalog, &opened);
        // The relay's store answers on its own lock; a failure there leaves the counts out.
        view.relay = self.relay.as_ref().and_then(|relay| relay.counts().ok());
        view.door = self.door(now_ms());
        let names: Vec<&str> = view.trainees.iter().map(|t| t.name.as_str()).collect();
        view.lookalikes = names::lookalikes(&names);
        let [de, en] = &self.labels;
        view.options = match self.lang {
            Lang::De => de.clone(),
            Lang::En => en.clone(),
        };
        Ok(view)
    }
}

#[cfg(test)]
mod tests;

//! What every screen shares: content, language, progress, status and the other session facts,
//! plus the one navigation request a handler may leave for `App::update`.

use super::{Effect, MapSetup, QuizRecord, Screen, StoreRequest};
use content::key;
use content::{Content, Course, Lang, Strings};
use domain::outbox::MailStatus;
use domain::{Fact, Progress};
use std::path::PathBuf;
use std::sync::Arc;

/// Display options from the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(clippy::struct_excessive_bools)] // four independent command-line switches
pub struct Options {
    /// Plain ASCII instead of box-drawing and block characters.
    pub ascii: bool,
    /// Mouse capture is on.
    pub mouse: bool,
    /// No animation.
    pub reduced_motion: bool,
    /// Colours are off (`NO_COLOR`): the theme uses modifiers only.
    pub no_color: bool,
}

/// Paths and names shown in Settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info {
    /// The data directory.
    pub data_dir: String,
    /// The config file in use, or where one would be read from.
    pub config: String,
    /// The log file.
    pub log: String,
    /// The workshop name from the config.
    pub workshop: Option<String>,
}

/// A short message under the screen (saved, failed, hints).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The text, already translated.
    pub text: String,
    /// Whether it reports a failure.
    pub error: bool,
}

/// Everything the screens share: content, language, progress and the rest of the session.
pub struct Session {
    /// All content, both languages.
    pub content: Arc<Content>,
    /// The language shown.
    pub lang: Lang,
    /// What the learner has done (mirrors the store).
    pub progress: Progress,
    /// Terminal size.
    pub size: (u16, u16),
    /// Whether the help overlay is open.
    pub help: bool,
    /// The last status line.
    pub status: Option<Status>,
    /// Display options.
    pub options: Options,
    /// Paths for Settings.
    pub info: Info,
    /// Set once the learner quits; the runtime stops after this update.
    pub quitting: bool,
    /// The map URL and the LAN share (they outlive the map screen).
    pub map: MapSetup,
    /// The quiz as saved.
    pub quiz: QuizRecord,
    /// Status of the newest report mail.
    pub report_status: Option<MailStatus>,
    /// The display name the learner gave the report, offered again on the next request
    /// (in memory only; clearing the results forgets it).
    pub report_name: Option<String>,
    /// The instructor address from the config (the report asks before copying it).
    pub instructor_cc: Option<String>,
    /// The calculator's starting currency from the config (None: the language's).
    pub calc_currency: Option<String>,
    /// The workshop session, once the dispatcher reported it (None: not joined).
    pub workshop: Option<super::WorkshopLine>,
    /// Copies of damaged stores, as the store thread last listed them.
    pub damaged: Vec<super::DamagedCopy>,
    /// The instructor's newest pacing command, until followed or dismissed.
    pub pace: Option<super::pace::PaceNotice>,
    /// The newest pacing id seen (older or repeated ones are not shown again).
    pub pace_seen: u64,
    /// Whether the session holds right/wrong until the reveal, and what was revealed.
    pub votes: super::pace::RoomVotes,
    /// The trainee's stuck signal: None not stuck, Some(whether the instructor acknowledged).
    pub stuck: Option<bool>,
    /// Whether `--lang` chose the language (then the saved choice does not override it).
    pub lang_from_flag: bool,
    /// Facts recorded before the store's contents arrived; they are applied again on top.
    early_facts: Option<Vec<Fact>>,
    /// The screen change the running handler asked for; `App::update` applies it.
    nav: Option<Nav>,
}

/// What the progress store held when it opened; the runtime opens it after the first frame
/// and sends this with [`super::Msg::StoreOpened`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoredSession {
    /// The saved progress.
    pub progress: Progress,
    /// The saved quiz.
    pub quiz: QuizRecord,
    /// Status of the newest report mail.
    pub report_status: Option<MailStatus>,
    /// Where a damaged store was kept, when it had to be started afresh.
    pub recovered_backup: Option<PathBuf>,
    /// Whether others can read the data folder (the learner is told).
    pub shared_folder: bool,
    /// Whether the store waited for another queuelab to let go of it.
    pub waited: bool,
}

/// A screen change a handler asks for. Handlers only see their own screen's state and the
/// session, so they cannot swap the screen they are running on; `App::update` applies the
/// request right after the handler returns.
#[derive(Debug, Clone, PartialEq)]
pub enum Nav {
    /// Open a screen on top of the current one (boxed: screens differ much in size).
    Push(Box<Screen>),
    /// Go back one screen (from Home: quit).
    Back,
    /// Open a screen directly above Home, in place of every screen between (following the
    /// instructor: `q` then leads back to Home, not through each screen followed before).
    OverHome(Box<Screen>),
}

impl Session {
    /// A session on an `80x24` terminal with nothing shown yet.
    pub fn new(
        content: Arc<Content>,
        lang: Lang,
        progress: Progress,
        options: Options,
        info: Info,
    ) -> Self {
        Session {
            content,
            lang,
            progress,
            size: (80, 24),
            help: false,
            status: None,
            options,
            info,
            quitting: false,
            map: MapSetup::default(),
            quiz: QuizRecord::default(),
            report_status: None,
            report_name: None,
            instructor_cc: None,
            calc_currency: None,
            workshop: None,
            damaged: Vec::new(),
            pace: None,
            pace_seen: 0,
            votes: super::pace::RoomVotes::default(),
            stuck: None,
            lang_from_flag: false,
            early_facts: None,
            nav: None,
        }
    }

    /// The course in the current language.
    pub fn course(&self) -> &Course {
        self.content.course(self.lang)
    }

    /// UI strings in the current language.
    pub fn strings(&self) -> &Strings {
        self.content.strings(self.lang)
    }

    /// Shows a status line.
    pub fn notify(&mut self, text: impl Into<String>, error: bool) {
        self.status = Some(Status {
            text: text.into(),
            error,
        });
    }

    /// Asks to open `screen` on top; the status line goes at once (the new screen may set one).
    pub fn push(&mut self, screen: Screen) {
        self.status = None;
        self.nav = Some(Nav::Push(Box::new(screen)));
    }

    /// Turns a pending "open on top" into "open directly above Home".
    pub fn open_over_home(&mut self) {
        if let Some(Nav::Push(screen)) = self.nav.take() {
            self.nav = Some(Nav::OverHome(screen));
        }
    }

    /// Asks to go back one screen.
    pub fn back(&mut self) {
        self.nav = Some(Nav::Back);
    }

    /// Takes the pending screen change, if a handler asked for one.
    pub(super) fn take_nav(&mut self) -> Option<Nav> {
        self.nav.take()
    }

    /// Marks the progress as not loaded yet: it arrives with [`Session::store_opened`].
    pub fn await_store(&mut self) {
        self.early_facts = Some(Vec::new());
    }

    /// Whether the store has not opened yet (Home leaves its progress rows out until then).
    pub fn store_pending(&self) -> bool {
        self.early_facts.is_some()
    }

    /// Takes in what the store held. Facts recorded meanwhile were queued behind the loading
    /// on the store thread, so they are saved after it: apply them again on top. The saved
    /// language applies unless `--lang` chose one or the learner switched already. The notes
    /// for the start follow in the order they always had; the last one stays on the line.
    pub fn store_opened(&mut self, stored: StoredSession) {
        let early = self.early_facts.take().unwrap_or_default();
        self.progress = stored.progress;
        for fact in &early {
            self.progress.apply(fact);
        }
        if let Some(saved) = self.progress.language
            && !self.lang_from_flag
        {
            self.lang = saved;
        }
        self.quiz = stored.quiz;
        self.report_status = stored.report_status;
        if stored.waited {
            let text = self.strings().get(key::store::WAITED).to_owned();
            self.notify(text, false);
        }
        if let Some(backup) = stored.recovered_backup {
            let text = self.strings().fill(
                key::store::RECOVERED,
                &[("path", &backup.display().to_string())],
            );
            self.notify(text, true);
        }
        if stored.shared_folder {
            let text = self.strings().get(key::store::SHARED_FOLDER).to_owned();
            self.notify(text, true);
        }
    }

    /// Takes in what the store holds now (read again when Home came back into view). Every
    /// save this session asked for was queued before the request, so the store has them.
    pub fn store_reread(&mut self, stored: StoredSession) {
        self.progress = stored.progress;
        self.quiz = stored.quiz;
        self.report_status = stored.report_status;
    }

    /// Another queuelab holds the store: the store thread waits, saves wait with it.
    pub fn store_busy(&mut self) {
        let text = self.strings().get(key::store::BUSY).to_owned();
        self.notify(text, true);
    }

    /// Says on the status line that something could not be saved, and why.
    pub fn save_failed(&mut self, reason: &str) {
        let text = self
            .strings()
            .fill(key::common::SAVE_FAILED, &[("reason", reason)]);
        self.notify(text, true);
    }

    /// Records a fact in memory and asks the runtime to save it.
    pub fn record(&mut self, fact: Fact) -> Effect {
        if let Some(early) = &mut self.early_facts {
            early.push(fact.clone());
        }
        self.progress.apply(&fact);
        Effect::Store(StoreRequest::Save(fact))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_app::content;
    use domain::Fact;

    fn waiting(lang: Lang) -> Session {
        let mut session = Session::new(
            content(),
            lang,
            Progress::default(),
            Options::default(),
            Info::default(),
        );
        session.await_store();
        session
    }

    fn saved(language: Lang) -> StoredSession {
        let mut progress = Progress::default();
        progress.apply(&Fact::LanguageChosen(language));
        progress.apply(&Fact::Position {
            chapter: "intro".into(),
            scroll: 3,
        });
        StoredSession {
            progress,
            ..StoredSession::default()
        }
    }

    #[test]
    fn facts_recorded_before_the_store_opened_stay_on_top_of_what_it_held() {
        let mut session = waiting(Lang::En);
        let _ = session.record(Fact::OrderingSolved);
        session.store_opened(saved(Lang::De));
        assert!(session.progress.ordering.solved, "the early fact was kept");
        assert_eq!(session.progress.last_chapter.as_deref(), Some("intro"));
        assert_eq!(session.lang, Lang::De, "the saved language applies");
    }

    #[test]
    fn the_lang_flag_wins_over_the_saved_language() {
        let mut session = waiting(Lang::En);
        session.lang_from_flag = true;
        session.store_opened(saved(Lang::De));
        assert_eq!(session.lang, Lang::En);
    }

    #[test]
    fn a_recovered_store_is_reported_in_the_status_line() {
        let mut session = waiting(Lang::En);
        session.store_opened(StoredSession {
            recovered_backup: Some(PathBuf::from("/data/progress.db.damaged")),
            ..StoredSession::default()
        });
        let status = session.status.expect("a status line");
        assert!(status.error && status.text.contains("/data/progress.db.damaged"));
    }
}

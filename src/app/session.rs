//! What every screen shares: content, language, progress, status and the other session facts,
//! plus the one navigation request a handler may leave for `App::update`.

use super::{Effect, MapSetup, QuizRecord, Screen, StoreRequest};
use crate::content::{Content, Course, Lang, Strings};
use crate::domain::outbox::MailStatus;
use crate::domain::{Fact, Progress};
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
    /// The screen change the running handler asked for; `App::update` applies it.
    nav: Option<Nav>,
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
            instructor_cc: None,
            calc_currency: None,
            workshop: None,
            damaged: Vec::new(),
            pace: None,
            pace_seen: 0,
            nav: None,
        }
    }

    /// The course in the current language.
    pub fn course(&self) -> &Course {
        self.content.course(self.lang)
    }

    /// UI strings in the current language.
    pub fn strings(&self) -> &Strings {
        &self.course().strings
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

    /// Asks to go back one screen.
    pub fn back(&mut self) {
        self.nav = Some(Nav::Back);
    }

    /// Takes the pending screen change, if a handler asked for one.
    pub(super) fn take_nav(&mut self) -> Option<Nav> {
        self.nav.take()
    }

    /// Records a fact in memory and asks the runtime to save it.
    pub fn record(&mut self, fact: Fact) -> Effect {
        self.progress.apply(&fact);
        Effect::Store(StoreRequest::Save(fact))
    }
}

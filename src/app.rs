//! The pure core: `App::update(msg) -> Vec<Effect>`. No IO, no clock, no terminal; the runtime
//! feeds messages in and carries the effects out.

mod chapters;
pub mod doc_layout;
mod home;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod map;
mod msg;
mod ordering;
pub mod quiz;
mod reader;
pub mod report;
mod screen;
mod settings;
pub mod simulator;

pub use chapters::ChaptersState;
pub use home::{HomeState, MenuItem};
pub use map::{MapSetup, MapState, Sharing};
pub use msg::{CodeRequestOutcome, Delivery, Effect, Msg};
pub use ordering::{Feedback, OrderingState};
pub use quiz::{QuizPhase, QuizRecord, QuizState};
pub use reader::{ReaderState, SearchState};
pub use report::{ReportPhase, ReportState};
pub use screen::Screen;
pub use settings::SettingsState;
pub use simulator::SimState;

use crate::content::{Content, Course, Lang, Strings};
use crate::domain::outbox::MailStatus;
use crate::domain::{Fact, Progress};
use input::Key;
use keymap::{Action, ScreenKind};
use std::sync::Arc;

/// The reader's laid-out lines for the current state (the view draws exactly these).
pub fn reader_lines(app: &App, state: &ReaderState) -> Vec<doc_layout::DocLine> {
    reader::lines(
        &app.session.content,
        app.session.lang,
        &app.session.progress,
        app.session.options,
        app.session.size,
        state,
    )
}

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
}

impl Session {
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

    /// Records a fact in memory and asks the runtime to save it.
    pub fn record(&mut self, fact: Fact) -> Effect {
        self.progress.apply(&fact);
        Effect::Save(fact)
    }
}

/// The whole state of the workshop UI.
pub struct App {
    /// The screen on top.
    pub screen: Screen,
    /// Screens below it (Back returns to them).
    pub history: Vec<Screen>,
    /// What every screen shares.
    pub session: Session,
}

impl App {
    /// A new app on the Home screen.
    pub fn new(
        content: Arc<Content>,
        lang: Lang,
        progress: Progress,
        options: Options,
        info: Info,
    ) -> Self {
        App {
            screen: Screen::Home(HomeState::default()),
            history: Vec::new(),
            session: Session {
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
            },
        }
    }

    /// Handles one message and returns what the runtime must do.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Key(key) => self.on_key(key),
            Msg::Mouse(mouse) => {
                if self.session.help || layout::too_small(self.session.size.0, self.session.size.1)
                {
                    return Vec::new();
                }
                self.on_mouse(mouse)
            }
            Msg::Resized { width, height } => {
                self.session.size = (width, height);
                if let Screen::Reader(state) = &mut self.screen {
                    let clamped = reader::clamp_scroll(
                        state,
                        &self.session.content,
                        self.session.lang,
                        &self.session.progress,
                        self.session.options,
                        self.session.size,
                    );
                    state.scroll = clamped;
                }
                Vec::new()
            }
            Msg::FactSaved(Ok(())) => Vec::new(),
            Msg::FactSaved(Err(reason)) | Msg::ResultsCleared(Err(reason)) => {
                let text = self
                    .session
                    .strings()
                    .fill("common.save_failed", &[("reason", &reason)]);
                self.session.notify(text, true);
                Vec::new()
            }
            Msg::ShareStarted(result) => map::on_share_started(self, result),
            Msg::ResultsCleared(Ok(())) => {
                self.session.quiz = QuizRecord::default();
                self.session.report_status = None;
                let text = self.session.strings().get("settings.cleared").to_owned();
                self.session.notify(text, false);
                Vec::new()
            }
            Msg::Tick { elapsed_ms } => simulator::on_tick(self, elapsed_ms),
            Msg::Sim(reply) => simulator::on_reply(self, reply),
            other => self.on_mail_or_quiz(other),
        }
    }

    fn on_mail_or_quiz(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::AttemptStarted(Ok(attempt)) => quiz::attempt_started(self, attempt),
            Msg::AttemptStarted(Err(reason)) => {
                let text = self
                    .session
                    .strings()
                    .fill("common.save_failed", &[("reason", &reason)]);
                self.session.notify(text, true);
            }
            Msg::ReportSaved(result) => report::report_saved(self, result),
            Msg::CodeRequested(outcome) => report::code_requested(self, outcome),
            Msg::CodeChecked(verdict) => report::code_checked(self, verdict),
            Msg::MailUpdated { report, delivery } => {
                let sent = report == Some(MailStatus::Sent);
                self.session.report_status = report;
                if matches!(self.screen, Screen::Report(_)) {
                    if let Some(delivery) = &delivery {
                        report::delivered(self, delivery);
                    }
                    if sent && delivery.is_some() {
                        report::say_sent(self);
                    }
                }
            }
            _ => {}
        }
        Vec::new()
    }

    fn on_key(&mut self, key: Key) -> Vec<Effect> {
        if key.is_ctrl_c() {
            return self.quit();
        }
        if self.session.help {
            self.session.help = false;
            return Vec::new();
        }
        if layout::too_small(self.session.size.0, self.session.size.1) {
            // Only leaving works while nothing can be drawn.
            return match keymap::action_for(self.screen.kind(), key) {
                Some(Action::Back) => self.back(),
                _ => Vec::new(),
            };
        }
        // Text entry (search prompt, calculator field, confirm dialogs) sees keys first.
        if let Some(effects) = self.captured_key(key) {
            return effects;
        }
        match keymap::action_for(self.screen.kind(), key) {
            Some(Action::Help) => {
                self.session.help = true;
                Vec::new()
            }
            Some(Action::Back) if !self.screen_handles_back() => self.back(),
            Some(action) => self.on_action(action),
            None => Vec::new(),
        }
    }

    fn captured_key(&mut self, key: Key) -> Option<Vec<Effect>> {
        match &self.screen {
            Screen::Reader(state) if state.captures_keys() => {
                Some(reader::on_captured_key(self, key))
            }
            Screen::Settings(state) if state.confirm_clear => {
                Some(settings::on_confirm_key(self, key))
            }
            Screen::Simulator(state) if simulator::captures_keys(state) => {
                Some(simulator::on_captured_key(self, key))
            }
            Screen::Report(state) if report::captures_keys(state) => {
                Some(report::on_captured_key(self, key))
            }
            _ => None,
        }
    }

    fn screen_handles_back(&self) -> bool {
        matches!(&self.screen, Screen::Reader(state) if state.focus.is_some())
    }

    fn on_action(&mut self, action: Action) -> Vec<Effect> {
        match self.screen.kind() {
            ScreenKind::Home => home::on_action(self, action),
            ScreenKind::Chapters => chapters::on_action(self, action),
            ScreenKind::Reader => reader::on_action(self, action),
            ScreenKind::Settings => settings::on_action(self, action),
            ScreenKind::Ordering => ordering::on_action(self, action),
            ScreenKind::Simulator => simulator::on_action(self, action),
            ScreenKind::Map => map::on_action(self, action),
            ScreenKind::Quiz => quiz::on_action(self, action),
            ScreenKind::Report => Vec::new(),
        }
    }

    fn on_mouse(&mut self, mouse: input::Mouse) -> Vec<Effect> {
        match self.screen.kind() {
            ScreenKind::Home => home::on_mouse(self, mouse),
            ScreenKind::Chapters => chapters::on_mouse(self, mouse),
            ScreenKind::Reader => reader::on_mouse(self, mouse),
            ScreenKind::Settings => settings::on_mouse(self, mouse),
            ScreenKind::Ordering => ordering::on_mouse(self, mouse),
            ScreenKind::Simulator => simulator::on_mouse(self, mouse),
            ScreenKind::Map => map::on_mouse(self, mouse),
            ScreenKind::Quiz | ScreenKind::Report => Vec::new(),
        }
    }

    /// Opens a screen on top of the current one.
    pub fn push(&mut self, screen: Screen) {
        let below = std::mem::replace(&mut self.screen, screen);
        self.history.push(below);
        self.session.status = None;
    }

    /// Goes back one screen; from Home, quits.
    pub fn back(&mut self) -> Vec<Effect> {
        let mut effects = self.leave_screen();
        match self.history.pop() {
            Some(previous) => {
                self.screen = previous;
                self.session.status = None;
            }
            None => effects.extend(self.quit()),
        }
        effects
    }

    /// Saves what the current screen must keep (the reading position) before it goes.
    fn leave_screen(&mut self) -> Vec<Effect> {
        match &self.screen {
            Screen::Reader(state) => reader::position_effect(self, state).into_iter().collect(),
            Screen::Simulator(state) => simulator::leave(state),
            _ => Vec::new(),
        }
    }

    /// Quits from anywhere, saving the reading position first.
    pub fn quit(&mut self) -> Vec<Effect> {
        let mut effects = self.leave_screen();
        self.session.quitting = true;
        effects.push(Effect::Quit);
        effects
    }

    /// How often the runtime must send [`Msg::Tick`]: `None` while nothing moves, so an idle
    /// or paused workshop never wakes up.
    pub fn tick_interval_ms(&self) -> Option<u32> {
        simulator::tick_interval(self)
    }
}

#[cfg(test)]
mod tests;

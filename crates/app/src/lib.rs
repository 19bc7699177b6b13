//! The pure core: `App::update(msg) -> Vec<Effect>`. No IO, no clock, no terminal; the runtime
//! feeds messages in and carries the effects out.
//!
//! `App` is the top [`Screen`] (an enum owning each screen's own state), the screens below it,
//! and the [`Session`] every screen shares. `update` matches `&mut self.screen` once and hands a
//! handler exactly its own state and the session: `quiz::on_action(&mut QuizState, &mut
//! Session, Action) -> Vec<Effect>`. A handler cannot replace the screen it runs on, so it asks
//! for a change with [`Session::push`] or [`Session::back`] (a [`Nav`] request); `update` applies
//! it right after the handler returns, saving what the left screen must keep.

use content::key;

pub mod chapters;
pub mod dashboard;
mod dispatch;
pub mod doc_layout;
mod home;
pub mod input;
pub mod keymap;
pub mod labs;
pub mod layout;
pub mod map;
mod msg;
mod ordering;
pub mod pace;
pub mod quiz;
mod reader;
pub mod report;
mod screen;
mod session;
mod settings;
pub mod simulator;
#[cfg(test)]
mod test_app;

pub use chapters::ChaptersState;
pub use home::join::{JoinForm, JoinStep};
pub use home::{HomeState, MenuItem, home_layout};
pub use labs::{LabListState, LabRequest, LabState};
pub use map::{MapSetup, MapState, Sharing};
pub use msg::{
    CodeRequestOutcome, DamagedCopy, Delivery, EditError, Effect, LabFileError, MailFlowError,
    MailRequest, Msg, SaveError, ShareFailure, ShareRequest, StoreFault, StoreRequest,
    WorkshopLine, WorkshopRequest,
};
pub use ordering::{
    Feedback, OrderingState, summary_area as ordering_summary_area,
    summary_lines as ordering_summary_lines,
};
pub use quiz::{QuizPhase, QuizRecord, QuizState};
pub use reader::{ReaderState, SearchState};
pub use report::{CopyOffer, ReportPhase, ReportState};
pub use screen::Screen;
pub use session::{Info, Nav, Options, Session, Status, StoredSession};
pub use settings::SettingsState;
pub use simulator::SimState;

use content::{Content, Lang};
use domain::Progress;
use domain::outbox::MailStatus;
use input::Key;
use keymap::Action;
use std::sync::Arc;

/// The reader's laid-out lines for the current state (the view draws exactly these).
pub fn reader_lines(app: &App, state: &ReaderState) -> Vec<doc_layout::DocLine> {
    reader::lines(&app.session, state)
}

/// Where the open chapter stands on the way to "read": both conditions, for the reader's
/// quiet indicator (the rule itself is [`reader::min_reading_ms`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadingProgress {
    /// The chapter counts as read already.
    pub read: bool,
    /// The learner's own scrolling brought its last line on screen.
    pub end_seen: bool,
    /// Time spent on it in this visit, ms.
    pub spent_ms: u64,
    /// Time it needs, ms.
    pub needed_ms: u64,
}

/// The reading progress of the reader's chapter.
pub fn reading_progress(app: &App, state: &ReaderState) -> ReadingProgress {
    let session = &app.session;
    let read = session
        .course()
        .chapters
        .get(state.chapter)
        .is_some_and(|c| session.progress.chapters_read.contains(&c.id));
    ReadingProgress {
        read,
        end_seen: state.end_seen,
        spent_ms: state.reading_ms,
        needed_ms: reader::needed_reading_ms(session, state),
    }
}

/// How often the reader's clock ticks while an unread chapter is open.
pub(crate) const READING_TICK_MS: u32 = 1_000;

/// The key that tells the workshop's instructor the trainee is stuck.
pub const STUCK_KEY: char = '!';

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
            session: Session::new(content, lang, progress, options, info),
        }
    }

    /// Handles one message and returns what the runtime must do.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let mut effects = self.dispatch(msg);
        effects.extend(self.apply_nav());
        effects
    }

    /// Applies the screen change the last handler asked for, if any.
    fn apply_nav(&mut self) -> Vec<Effect> {
        match self.session.take_nav() {
            Some(nav) => self.navigate(nav),
            None => Vec::new(),
        }
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
        // The stuck key works on every screen, but only while joined to a workshop.
        let workshop_action = keymap::workshop_action(key);
        if workshop_action == Some(Action::Stuck) && self.session.workshop.is_some() {
            // The same key says "solved" once the signal is open.
            if self.session.stuck.take().is_some() {
                let text = self
                    .session
                    .strings()
                    .get(key::workshop::SOLVED_SENT)
                    .to_owned();
                self.session.notify(text, false);
                return vec![Effect::Store(StoreRequest::Solved)];
            }
            self.session.stuck = Some(false);
            let screen = format!("{:?}", self.screen.kind()).to_lowercase();
            let text = self
                .session
                .strings()
                .get(key::workshop::STUCK_SENT)
                .to_owned();
            self.session.notify(text, false);
            return vec![Effect::Store(StoreRequest::Stuck(screen))];
        }
        // The instructor's banner: one key follows, one puts it away; nothing else is taken.
        if self.session.pace.is_some() {
            match workshop_action {
                Some(Action::FollowPace) => return pace::follow(&mut self.session),
                Some(Action::DismissPace) => {
                    pace::dismiss(&mut self.session);
                    return Vec::new();
                }
                _ => {}
            }
        }
        let action = keymap::action_for(self.screen.kind(), key);
        // The compare view says "v or Esc closes": Back closes it and stays in the simulator.
        if action == Some(Action::Back)
            && let Screen::Simulator(state) = &mut self.screen
            && simulator::close_compare(state)
        {
            return Vec::new();
        }
        match action {
            Some(Action::Back) if self.history.is_empty() => {
                if let Screen::Home(home_state) = &mut self.screen
                    && home::must_ask_before_quit(&self.session)
                {
                    home::ask_quit(home_state, &mut self.session);
                    return Vec::new();
                }
                self.back()
            }
            Some(Action::Help) => {
                self.session.help = true;
                Vec::new()
            }
            // One q/Esc leaves, also with an interactive part focused.
            Some(Action::Back) => self.back(),
            Some(action) => self.on_action(action),
            None => Vec::new(),
        }
    }

    fn captured_key(&mut self, key: Key) -> Option<Vec<Effect>> {
        let session = &mut self.session;
        match &mut self.screen {
            Screen::Reader(state) if state.captures_keys() => {
                Some(reader::on_captured_key(state, session, key))
            }
            Screen::Home(state) if state.join.is_some() => {
                let form = state.join.take()?;
                let (form, effects) = home::join::on_key(form, session, key);
                state.join = form;
                Some(effects)
            }
            Screen::Home(state) if state.confirm_quit => {
                if home::on_confirm_key(state, session, key) {
                    Some(self.quit())
                } else {
                    Some(Vec::new())
                }
            }
            Screen::Settings(state) if state.confirm_clear || state.confirm_delete => {
                Some(settings::on_confirm_key(state, session, key))
            }
            Screen::Simulator(state) if simulator::captures_keys(state) => {
                Some(simulator::on_captured_key(state, session, key))
            }
            Screen::Report(state) if report::captures_keys(state) => {
                Some(report::on_captured_key(state, session, key))
            }
            Screen::Lab(state) if labs::captures_keys(state) => {
                Some(labs::on_confirm_key(state, session, key))
            }
            _ => None,
        }
    }

    fn on_action(&mut self, action: Action) -> Vec<Effect> {
        let session = &mut self.session;
        match &mut self.screen {
            Screen::Home(state) => home::on_action(state, session, action),
            Screen::Chapters(state) => chapters::on_action(state, session, action),
            Screen::Reader(state) => reader::on_action(state, session, action),
            Screen::Settings(state) => settings::on_action(state, session, action),
            Screen::Ordering(state) => ordering::on_action(state, session, action),
            Screen::Simulator(state) => simulator::on_action(state, session, action),
            Screen::Map(state) => map::on_action(state, session, action),
            Screen::Quiz(state) => quiz::on_action(state, session, action),
            // Typing takes every key until the report is queued; then only Back and Help act.
            Screen::Report(_) => Vec::new(),
            Screen::LabList(state) => labs::on_list_action(state, session, action),
            Screen::Lab(state) => labs::on_lab_action(state, session, action),
        }
    }

    fn on_mouse(&mut self, mouse: input::Mouse) -> Vec<Effect> {
        let session = &mut self.session;
        match &mut self.screen {
            Screen::Home(state) => home::on_mouse(state, session, mouse),
            Screen::Chapters(state) => chapters::on_mouse(state, session, mouse),
            Screen::Reader(state) => reader::on_mouse(state, session, mouse),
            Screen::Settings(state) => settings::on_mouse(state, session, mouse),
            Screen::Ordering(state) => ordering::on_mouse(state, session, mouse),
            Screen::Simulator(state) => simulator::on_mouse(state, session, mouse),
            Screen::Map(state) => map::on_mouse(state, session, mouse),
            Screen::Quiz(_) | Screen::Report(_) | Screen::LabList(_) | Screen::Lab(_) => Vec::new(),
        }
    }

    /// Applies a handler's screen change.
    fn navigate(&mut self, nav: Nav) -> Vec<Effect> {
        match nav {
            Nav::Push(screen) => {
                let below = std::mem::replace(&mut self.screen, *screen);
                self.history.push(below);
                Vec::new()
            }
            Nav::Back => self.back(),
            Nav::OverHome(screen) => {
                let effects = self.leave_screen();
                let below = std::mem::replace(&mut self.screen, *screen);
                // The bottom of the history is Home; what stood between goes.
                let home = if self.history.is_empty() {
                    below
                } else {
                    self.history.swap_remove(0)
                };
                self.history = vec![home];
                effects
            }
        }
    }

    /// Goes back one screen; from Home, quits.
    pub fn back(&mut self) -> Vec<Effect> {
        let mut effects = self.leave_screen();
        match self.history.pop() {
            Some(previous) => {
                self.screen = previous;
                self.session.status = None;
                // Home in view again: another process (`queuelab quiz --plain`) may have
                // changed the progress meanwhile, so it is read again.
                if matches!(self.screen, Screen::Home(_)) {
                    effects.push(Effect::Store(StoreRequest::Reread));
                }
            }
            None => effects.extend(self.quit()),
        }
        effects
    }

    /// Saves what the current screen must keep (the reading position) before it goes.
    fn leave_screen(&mut self) -> Vec<Effect> {
        match &self.screen {
            Screen::Reader(state) => reader::position_effect(&mut self.session, state)
                .into_iter()
                .collect(),
            Screen::Simulator(state) => simulator::leave(state),
            _ => Vec::new(),
        }
    }

    /// Quits from anywhere, saving the reading position first; the runtime's loop ends once
    /// `session.quitting` is set, after carrying out these effects.
    pub fn quit(&mut self) -> Vec<Effect> {
        self.session.quitting = true;
        self.leave_screen()
    }

    /// How often the runtime must send [`Msg::Tick`]: `None` while nothing moves, so an idle
    /// or paused workshop never wakes up.
    pub fn tick_interval_ms(&self) -> Option<u32> {
        match &self.screen {
            Screen::Simulator(state) => simulator::tick_interval(state, &self.session),
            // The reading clock: a slow tick while an unread chapter is open.
            Screen::Reader(state) if reader::needs_ticks(state, &self.session) => {
                Some(READING_TICK_MS)
            }
            // The wait for a new code counts down on the report screen.
            Screen::Report(state) if state.wait.is_some() => Some(report::WAIT_TICK_MS),
            // A first digit in the chapter list waits for a second one only so long.
            Screen::Chapters(state) if chapters::needs_ticks(state) => {
                Some(chapters::PENDING_TICK_MS)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod reread_tests;
#[cfg(test)]
mod tests;

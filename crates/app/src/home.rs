//! Home: progress at a glance and the menu.

use content::key;

pub mod join;
use super::input::{Mouse, MouseKind};
use super::keymap::Action;
use super::{
    ChaptersState, Effect, Screen, Session, SettingsState, StoreRequest, layout, ordering, reader,
    simulator,
};

/// The entries of the Home menu, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuItem {
    /// Resume the last chapter (or start with chapter 1).
    Continue,
    /// The chapter list.
    Chapters,
    /// The quick-reference map.
    Map,
    /// The seven-step ordering game.
    Ordering,
    /// The incident simulator.
    Simulator,
    /// The production checklist (chapter 15's toggles).
    Checklist,
    /// The final quiz and the report.
    Quiz,
    /// Settings.
    Settings,
}

impl MenuItem {
    /// All entries in menu order.
    pub const ALL: [MenuItem; 8] = [
        MenuItem::Continue,
        MenuItem::Chapters,
        MenuItem::Map,
        MenuItem::Ordering,
        MenuItem::Simulator,
        MenuItem::Checklist,
        MenuItem::Quiz,
        MenuItem::Settings,
    ];

    /// String key of the label.
    pub fn label_key(self, has_resume_point: bool) -> content::Key {
        match self {
            MenuItem::Continue if has_resume_point => key::menu::CONTINUE,
            MenuItem::Continue => key::menu::START,
            MenuItem::Chapters => key::menu::CHAPTERS,
            MenuItem::Map => key::menu::MAP,
            MenuItem::Ordering => key::menu::ORDERING,
            MenuItem::Simulator => key::menu::SIMULATOR,
            MenuItem::Checklist => key::menu::CHECKLIST,
            MenuItem::Quiz => key::menu::QUIZ,
            MenuItem::Settings => key::menu::SETTINGS,
        }
    }
}

/// Home's own state: the menu cursor.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HomeState {
    /// The "join a workshop" dialog, while open.
    pub join: Option<join::JoinForm>,
    /// Index into [`MenuItem::ALL`].
    pub cursor: usize,
    /// "A report is still waiting to be sent: quit anyway?" is asked.
    pub confirm_quit: bool,
}

/// Whether leaving Home must ask first: only while a report waits in the mail outbox.
pub fn must_ask_before_quit(session: &Session) -> bool {
    session.report_status == Some(domain::outbox::MailStatus::Queued) || session.workshop.is_some()
}

/// Asks before quitting: a queued report would be sent on the next start only; a joined
/// trainee may have pressed one `q` too many on the way back from a chapter.
pub fn ask_quit(home: &mut HomeState, session: &mut Session) {
    home.confirm_quit = true;
    let key = if session.report_status == Some(domain::outbox::MailStatus::Queued) {
        key::home::QUIT_CONFIRM
    } else {
        key::home::QUIT_JOINED
    };
    let text = session.strings().get(key).to_owned();
    session.notify(text, true);
}

/// The answer to the quit question: y (or j) quits, anything else stays.
pub fn on_confirm_key(home: &mut HomeState, session: &mut Session, key: super::input::Key) -> bool {
    home.confirm_quit = false;
    session.status = None;
    matches!(key.code, super::input::KeyCode::Char('y' | 'Y' | 'j' | 'J'))
}

/// Handles a key action on Home.
pub fn on_action(home: &mut HomeState, session: &mut Session, action: Action) -> Vec<Effect> {
    let last = MenuItem::ALL.len() - 1;
    match action {
        Action::Up => home.cursor = home.cursor.checked_sub(1).unwrap_or(last),
        Action::Down => {
            home.cursor = if home.cursor >= last {
                0
            } else {
                home.cursor + 1
            }
        }
        Action::Number(n) if (1..=MenuItem::ALL.len()).contains(&usize::from(n)) => {
            home.cursor = usize::from(n) - 1;
            return open(home, session);
        }
        Action::Open => return open(home, session),
        Action::Workshop => home.join = Some(join::open(session)),
        Action::Labs => return super::labs::open_list(session),
        _ => {}
    }
    Vec::new()
}

/// Handles the mouse on Home: click opens an entry, the wheel moves the cursor.
pub fn on_mouse(home: &mut HomeState, session: &mut Session, mouse: Mouse) -> Vec<Effect> {
    let menu = home_layout(session).menu;
    match mouse.kind {
        MouseKind::ScrollUp => on_action(home, session, Action::Up),
        MouseKind::ScrollDown => on_action(home, session, Action::Down),
        MouseKind::Click if menu.contains(mouse.column, mouse.row) => {
            let index = usize::from(mouse.row - menu.y);
            if index < MenuItem::ALL.len() {
                home.cursor = index;
                open(home, session)
            } else {
                Vec::new()
            }
        }
        MouseKind::Click => Vec::new(),
    }
}

/// Home's layout for the session's size and language.
pub fn home_layout(session: &Session) -> layout::HomeLayout {
    let s = session.strings();
    let title =
        s.get(key::app::TITLE).chars().count() + 3 + s.get(key::app::SUBTITLE).chars().count();
    layout::home(session.size.0, session.size.1, title)
}

fn open(home: &HomeState, session: &mut Session) -> Vec<Effect> {
    let item = MenuItem::ALL[home.cursor.min(MenuItem::ALL.len() - 1)];
    match item {
        MenuItem::Continue => {
            let chapter = session
                .progress
                .last_chapter
                .as_ref()
                .and_then(|id| session.course().chapters.iter().position(|c| &c.id == id))
                .unwrap_or(0);
            reader::open_chapter(session, chapter)
        }
        MenuItem::Chapters => {
            session.push(Screen::Chapters(ChaptersState::default()));
            Vec::new()
        }
        MenuItem::Checklist => reader::open_checklist(session),
        MenuItem::Ordering => ordering::open(session),
        MenuItem::Simulator => simulator::open(session, None),
        MenuItem::Map => super::map::open(session),
        MenuItem::Quiz => super::quiz::open(session),
        MenuItem::Settings => {
            session.push(Screen::Settings(SettingsState::default()));
            // The list of damaged copies comes back as a message.
            vec![Effect::Store(StoreRequest::ListDamaged)]
        }
    }
}

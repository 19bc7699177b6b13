//! The screens: one variant each, owning only its own UI state.

use super::QuizPhase;
use super::keymap::{Action, ScreenKind};
use super::labs::{LabListState, LabState};
use super::{
    ChaptersState, HomeState, MapState, OrderingState, QuizState, ReaderState, ReportState,
    SettingsState, SimState,
};
use content::key;

/// The screen on top.
#[derive(Debug, Clone, PartialEq)]
pub enum Screen {
    /// The menu and progress at a glance.
    Home(HomeState),
    /// The chapter list.
    Chapters(ChaptersState),
    /// The lesson reader.
    Reader(ReaderState),
    /// Language, clear results, paths.
    Settings(SettingsState),
    /// The seven-step ordering game.
    Ordering(OrderingState),
    /// The incident simulator.
    Simulator(Box<SimState>),
    /// The quick-reference map with its QR code.
    Map(MapState),
    /// The final quiz and its result.
    Quiz(QuizState),
    /// Address, code and sending of the report.
    Report(ReportState),
    /// The lab list.
    LabList(LabListState),
    /// One lab: brief, file, check, hints.
    Lab(Box<LabState>),
}

impl Screen {
    /// Which key table applies.
    pub fn kind(&self) -> ScreenKind {
        match self {
            Screen::Home(_) => ScreenKind::Home,
            Screen::Chapters(_) => ScreenKind::Chapters,
            Screen::Reader(_) => ScreenKind::Reader,
            Screen::Settings(_) => ScreenKind::Settings,
            Screen::Ordering(_) => ScreenKind::Ordering,
            Screen::Simulator(_) => ScreenKind::Simulator,
            Screen::Map(_) => ScreenKind::Map,
            Screen::Quiz(_) => ScreenKind::Quiz,
            Screen::Report(_) => ScreenKind::Report,
            Screen::LabList(_) => ScreenKind::LabList,
            Screen::Lab(_) => ScreenKind::Lab,
        }
    }

    /// Whether the one-line legend offers `action` right now: the quiz shows retake and
    /// report only on its result, and selecting and submitting only on a question.
    pub fn legend_offers(&self, action: Action) -> bool {
        match self {
            Screen::Quiz(state) => match state.phase {
                QuizPhase::Question | QuizPhase::Starting => {
                    !matches!(action, Action::Retake | Action::SendReport)
                }
                QuizPhase::Feedback { .. } => !matches!(
                    action,
                    Action::Retake | Action::SendReport | Action::Select | Action::Number(_)
                ),
                QuizPhase::Result => {
                    !matches!(action, Action::Select | Action::Number(_) | Action::Open)
                }
            },
            _ => true,
        }
    }

    /// The legend's label for a binding right now: on the quiz's feedback, Enter goes on
    /// instead of submitting.
    pub fn legend_label(&self, action: Action, label: content::Key) -> content::Key {
        match (self, action) {
            (Screen::Quiz(state), Action::Open)
                if matches!(state.phase, QuizPhase::Feedback { .. }) =>
            {
                key::quiz::CONTINUE
            }
            _ => label,
        }
    }

    /// String key of the screen's name in the `?` help title.
    pub fn help_title_key(&self) -> content::Key {
        match self {
            Screen::Reader(_) => key::reader::HELP_TITLE,
            Screen::Home(_) => key::home::HELP_TITLE,
            other => other.title_key(),
        }
    }

    /// String key of the screen's title.
    pub fn title_key(&self) -> content::Key {
        match self {
            Screen::Home(_) => key::app::TITLE,
            Screen::Chapters(_) => key::chapters::TITLE,
            Screen::Reader(_) => key::menu::CHAPTERS,
            Screen::Settings(_) => key::settings::TITLE,
            Screen::Ordering(_) => key::menu::ORDERING,
            Screen::Simulator(_) => key::menu::SIMULATOR,
            Screen::Map(_) => key::menu::MAP,
            Screen::Quiz(_) => key::quiz::TITLE,
            Screen::Report(_) => key::report::TITLE,
            Screen::LabList(_) | Screen::Lab(_) => key::labs::TITLE,
        }
    }
}

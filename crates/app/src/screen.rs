//! The screens: one variant each, owning only its own UI state.

use super::QuizPhase;
use super::keymap::{Action, ScreenKind};
use super::labs::{LabListState, LabState};
use super::{
    ChaptersState, HomeState, MapState, OrderingState, QuizState, ReaderState, ReportState,
    SettingsState, SimState,
};

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
    pub fn legend_label(&self, action: Action, label: &'static str) -> &'static str {
        match (self, action) {
            (Screen::Quiz(state), Action::Open)
                if matches!(state.phase, QuizPhase::Feedback { .. }) =>
            {
                "quiz.continue"
            }
            _ => label,
        }
    }

    /// String key of the screen's name in the `?` help title.
    pub fn help_title_key(&self) -> &'static str {
        match self {
            Screen::Reader(_) => "reader.help_title",
            Screen::Home(_) => "home.help_title",
            other => other.title_key(),
        }
    }

    /// String key of the screen's title.
    pub fn title_key(&self) -> &'static str {
        match self {
            Screen::Home(_) => "app.title",
            Screen::Chapters(_) => "chapters.title",
            Screen::Reader(_) => "menu.chapters",
            Screen::Settings(_) => "settings.title",
            Screen::Ordering(_) => "menu.ordering",
            Screen::Simulator(_) => "menu.simulator",
            Screen::Map(_) => "menu.map",
            Screen::Quiz(_) => "quiz.title",
            Screen::Report(_) => "report.title",
            Screen::LabList(_) | Screen::Lab(_) => "labs.title",
        }
    }
}

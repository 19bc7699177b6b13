//! The screens: one variant each, owning only its own UI state.

use super::keymap::ScreenKind;
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
        }
    }

    /// String key of the screen's name (help title).
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
        }
    }
}

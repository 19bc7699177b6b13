//! The screens: one variant each, owning only its own UI state.

use super::keymap::ScreenKind;
use super::{
    ChaptersState, HomeState, MapState, OrderingState, QuizState, ReaderState, ReportState,
    SettingsState, SimState,
};

/// A part of the workshop that arrives in a later version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlaceholderState {
    /// String key of the menu entry it stands for.
    pub title_key: &'static str,
}

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
    /// Coming in a later version.
    Placeholder(PlaceholderState),
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
            Screen::Placeholder(_) => ScreenKind::Placeholder,
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
            Screen::Placeholder(p) => p.title_key,
            Screen::Quiz(_) => "quiz.title",
            Screen::Report(_) => "report.title",
        }
    }
}

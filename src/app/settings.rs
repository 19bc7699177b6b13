//! Settings: language, clear results (asks y/n first), where the files are.

use super::input::{Key, KeyCode, Mouse, MouseKind};
use super::keymap::Action;
use super::{App, Effect, Screen, layout};
use crate::domain::{Fact, Progress};

/// The entries of the Settings list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsItem {
    /// Switch between German and English.
    Language,
    /// Delete every result.
    Clear,
}

impl SettingsItem {
    /// All entries in order.
    pub const ALL: [SettingsItem; 2] = [SettingsItem::Language, SettingsItem::Clear];
}

/// The Settings screen's own state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SettingsState {
    /// Index into [`SettingsItem::ALL`].
    pub cursor: usize,
    /// The "really delete?" question is open.
    pub confirm_clear: bool,
}

fn state(app: &mut App) -> Option<&mut SettingsState> {
    match &mut app.screen {
        Screen::Settings(s) => Some(s),
        _ => None,
    }
}

/// Handles a key action in Settings.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(s) = state(app) else {
        return Vec::new();
    };
    match action {
        Action::Up => s.cursor = s.cursor.saturating_sub(1),
        Action::Down => s.cursor = (s.cursor + 1).min(SettingsItem::ALL.len() - 1),
        Action::ToggleLang => return toggle_language(app),
        Action::Clear => s.confirm_clear = true,
        Action::Open => match SettingsItem::ALL[s.cursor.min(SettingsItem::ALL.len() - 1)] {
            SettingsItem::Language => return toggle_language(app),
            SettingsItem::Clear => s.confirm_clear = true,
        },
        _ => {}
    }
    Vec::new()
}

fn toggle_language(app: &mut App) -> Vec<Effect> {
    app.session.lang = app.session.lang.other();
    vec![app.session.record(Fact::LanguageChosen(app.session.lang))]
}

/// Keys while "delete everything?" is asked: y (or j) deletes, anything else keeps.
pub fn on_confirm_key(app: &mut App, key: Key) -> Vec<Effect> {
    let Some(s) = state(app) else {
        return Vec::new();
    };
    s.confirm_clear = false;
    if matches!(key.code, KeyCode::Char('y' | 'Y' | 'j' | 'J')) {
        app.session.progress = Progress::default();
        return vec![Effect::ClearResults];
    }
    Vec::new()
}

/// Handles the mouse: a click on an entry activates it.
pub fn on_mouse(app: &mut App, mouse: Mouse) -> Vec<Effect> {
    let area = layout::list(app.session.size.0, app.session.size.1);
    if mouse.kind != MouseKind::Click || !area.contains(mouse.column, mouse.row) {
        return Vec::new();
    }
    let index = usize::from(mouse.row - area.y);
    match state(app) {
        Some(s) if index < SettingsItem::ALL.len() => {
            s.cursor = index;
            on_action(app, Action::Open)
        }
        _ => Vec::new(),
    }
}

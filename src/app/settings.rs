//! Settings: language, clear results (asks y/n first), where the files are.

use super::input::{Key, KeyCode, Mouse, MouseKind};
use super::keymap::Action;
use super::{Effect, MailRequest, Session, StoreRequest, layout};
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

/// Handles a key action in Settings.
pub fn on_action(s: &mut SettingsState, session: &mut Session, action: Action) -> Vec<Effect> {
    match action {
        Action::Up => s.cursor = s.cursor.saturating_sub(1),
        Action::Down => s.cursor = (s.cursor + 1).min(SettingsItem::ALL.len() - 1),
        Action::ToggleLang => return toggle_language(session),
        Action::Clear => s.confirm_clear = true,
        Action::Open => match SettingsItem::ALL[s.cursor.min(SettingsItem::ALL.len() - 1)] {
            SettingsItem::Language => return toggle_language(session),
            SettingsItem::Clear => s.confirm_clear = true,
        },
        _ => {}
    }
    Vec::new()
}

fn toggle_language(session: &mut Session) -> Vec<Effect> {
    session.lang = session.lang.other();
    vec![session.record(Fact::LanguageChosen(session.lang))]
}

/// Keys while "delete everything?" is asked: y (or j) deletes, anything else keeps.
pub fn on_confirm_key(s: &mut SettingsState, session: &mut Session, key: Key) -> Vec<Effect> {
    s.confirm_clear = false;
    if matches!(key.code, KeyCode::Char('y' | 'Y' | 'j' | 'J')) {
        session.progress = Progress::default();
        return vec![
            Effect::Store(StoreRequest::ClearResults),
            Effect::Mail(MailRequest::ClearFiles),
        ];
    }
    Vec::new()
}

/// Handles the mouse: a click on an entry activates it.
pub fn on_mouse(s: &mut SettingsState, session: &mut Session, mouse: Mouse) -> Vec<Effect> {
    let area = layout::list(session.size.0, session.size.1);
    if mouse.kind != MouseKind::Click || !area.contains(mouse.column, mouse.row) {
        return Vec::new();
    }
    let index = usize::from(mouse.row - area.y);
    if index < SettingsItem::ALL.len() {
        s.cursor = index;
        on_action(s, session, Action::Open)
    } else {
        Vec::new()
    }
}

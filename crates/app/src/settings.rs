//! Settings: language, clear results (asks y/n first), the copies of damaged stores (listed by
//! the runtime, deleted after y/n), where the files are.

use super::input::{Key, KeyCode, Mouse, MouseKind};
use super::keymap::Action;
use super::{Effect, MailRequest, Session, StoreFault, StoreRequest, layout};
use content::key;
use domain::{Fact, Progress};

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
    /// The "delete the damaged copies?" question is open.
    pub confirm_delete: bool,
}

/// Handles a key action in Settings.
pub fn on_action(s: &mut SettingsState, session: &mut Session, action: Action) -> Vec<Effect> {
    match action {
        Action::Up => s.cursor = s.cursor.saturating_sub(1),
        Action::Down => s.cursor = (s.cursor + 1).min(SettingsItem::ALL.len() - 1),
        Action::ToggleLang => return toggle_language(session),
        Action::Clear => s.confirm_clear = true,
        Action::DeleteDamaged if session.damaged.is_empty() => {
            let text = session
                .strings()
                .get(key::settings::DAMAGED_NONE)
                .to_owned();
            session.notify(text, false);
        }
        Action::DeleteDamaged => s.confirm_delete = true,
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

/// Keys while "delete everything?" or "delete the damaged copies?" is asked: y (or j)
/// deletes, anything else keeps.
pub fn on_confirm_key(s: &mut SettingsState, session: &mut Session, key: Key) -> Vec<Effect> {
    let yes = matches!(key.code, KeyCode::Char('y' | 'Y' | 'j' | 'J'));
    if std::mem::take(&mut s.confirm_delete) {
        return if yes {
            vec![Effect::Store(StoreRequest::DeleteDamaged)]
        } else {
            Vec::new()
        };
    }
    s.confirm_clear = false;
    if yes {
        session.progress = Progress::default();
        return vec![
            Effect::Store(StoreRequest::ClearResults),
            Effect::Mail(MailRequest::ClearFiles),
        ];
    }
    Vec::new()
}

/// The store deleted the damaged copies (how many), or could not: say so and list again.
pub fn damaged_deleted(session: &mut Session, result: Result<usize, StoreFault>) -> Vec<Effect> {
    let (text, error) = match result {
        Ok(count) => (
            session.strings().fill(
                key::settings::DAMAGED_DELETED,
                &[("count", &count.to_string())],
            ),
            false,
        ),
        Err(fault) => (
            session.strings().fill(
                key::common::SAVE_FAILED,
                &[("reason", &fault.describe(session.strings()))],
            ),
            true,
        ),
    };
    session.notify(text, error);
    // Some may be left after a failure; the store lists what is really there.
    vec![Effect::Store(StoreRequest::ListDamaged)]
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

#[cfg(test)]
mod tests;

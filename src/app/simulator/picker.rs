//! The two menus of the simulator: choose a scenario, inject a named fault.

use super::playback;
use super::{SimState, scenario_text};
use crate::app::input::{Key, KeyCode};
use crate::app::{Effect, Session};
use crate::sim::Fault;
use crate::sim::scenario::IDS;

/// Which menu is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickerKind {
    /// The twelve scenarios.
    Scenario,
    /// The named crash points.
    Fault,
}

/// An open menu and its cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Picker {
    /// Which menu.
    pub kind: PickerKind,
    /// Selected row.
    pub cursor: usize,
}

impl Picker {
    /// A menu with the cursor on `cursor`.
    pub fn new(kind: PickerKind, cursor: usize) -> Picker {
        Picker { kind, cursor }
    }

    /// Number of rows.
    pub fn len(self) -> usize {
        match self.kind {
            PickerKind::Scenario => IDS.len(),
            PickerKind::Fault => Fault::MENU.len(),
        }
    }

    /// True for a menu without rows (never, with the built-in lists).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// The rows of a menu: `(id, description)`.
pub fn rows(kind: PickerKind, session: &Session) -> Vec<(String, String)> {
    match kind {
        PickerKind::Scenario => IDS
            .iter()
            .map(|id| {
                let text = scenario_text(session, id)
                    .map(|t| format!("{} - {}", t.title, t.summary))
                    .unwrap_or_default();
                ((*id).to_owned(), text)
            })
            .collect(),
        PickerKind::Fault => Fault::MENU
            .iter()
            .map(|f| (f.as_str().to_owned(), String::new()))
            .collect(),
    }
}

/// Keys while a menu is open: arrows move, Enter chooses, Esc or q closes.
pub fn on_key(s: &mut SimState, key: Key) -> Vec<Effect> {
    let Some(mut picker) = s.picker else {
        return Vec::new();
    };
    let last = picker.len().saturating_sub(1);
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => picker.cursor = picker.cursor.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => picker.cursor = (picker.cursor + 1).min(last),
        KeyCode::Esc | KeyCode::Char('q' | 'i' | 'c') => {
            s.picker = None;
            return Vec::new();
        }
        KeyCode::Enter => return choose(s, picker),
        _ => {}
    }
    s.picker = Some(picker);
    Vec::new()
}

fn choose(s: &mut SimState, picker: Picker) -> Vec<Effect> {
    match picker.kind {
        PickerKind::Scenario => {
            s.picker = None;
            let chosen = picker.cursor.min(IDS.len() - 1);
            if chosen != s.settings.scenario {
                // A scenario's first run pauses at its moments.
                s.settings.pause_at_moments = true;
            }
            s.settings.scenario = chosen;
            playback::restart(s)
        }
        PickerKind::Fault => {
            let Some(fault) = Fault::MENU.get(picker.cursor).copied() else {
                s.picker = None;
                return Vec::new();
            };
            s.picker = None;
            s.timeline.last_fault = Some(fault);
            playback::inject(s, fault)
        }
    }
}

//! The two menus of the simulator: choose a scenario, inject a named fault.

mod rows;

pub use rows::{FaultRow, ScenarioRow, blocked, fault_keys, fault_rows, scenario_rows};

use super::SimState;
use super::playback;
use crate::input::{Key, KeyCode};
use crate::{Effect, Session};
use model::Fault;

/// Which menu is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickerKind {
    /// The scenarios of the loaded content.
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
    /// Number of rows (fixed while the menu is open).
    pub len: usize,
}

impl Picker {
    /// The scenario menu with the cursor on the scenario on screen.
    pub fn scenarios(session: &Session, current: &str) -> Picker {
        let ids = &session.content.scenarios;
        Picker {
            kind: PickerKind::Scenario,
            cursor: ids.iter().position(|sc| sc.id == current).unwrap_or(0),
            len: ids.len(),
        }
    }

    /// The fault menu with the cursor on the first fault.
    pub fn faults() -> Picker {
        Picker {
            kind: PickerKind::Fault,
            cursor: 0,
            len: Fault::MENU.len(),
        }
    }

    /// Number of rows.
    pub fn len(self) -> usize {
        self.len
    }

    /// True for a menu without rows (a content folder without scenarios).
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// Keys while a menu is open: arrows move, Enter chooses, Esc or q closes.
pub fn on_key(s: &mut SimState, session: &Session, key: Key) -> Vec<Effect> {
    let Some(mut picker) = s.picker else {
        return Vec::new();
    };
    let last = picker.len().saturating_sub(1);
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => picker.cursor = picker.cursor.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => picker.cursor = (picker.cursor + 1).min(last),
        KeyCode::Home | KeyCode::Char('g') => picker.cursor = 0,
        KeyCode::End | KeyCode::Char('G') => picker.cursor = last,
        KeyCode::Esc | KeyCode::Char('q' | 'i' | 'c') => {
            s.picker = None;
            return Vec::new();
        }
        KeyCode::Enter => return choose(s, session, picker),
        _ => {}
    }
    s.picker = Some(picker);
    Vec::new()
}

fn choose(s: &mut SimState, session: &Session, picker: Picker) -> Vec<Effect> {
    s.picker = None;
    match picker.kind {
        PickerKind::Scenario => {
            let Some(chosen) = session.content.scenarios.get(picker.cursor) else {
                return Vec::new();
            };
            if chosen.id != s.settings.scenario {
                // A scenario's first run pauses at its moments.
                s.settings.pause_at_moments = true;
            }
            s.settings.scenario.clone_from(&chosen.id);
            playback::restart(s)
        }
        PickerKind::Fault => {
            let Some(fault) = Fault::MENU.get(picker.cursor).copied() else {
                return Vec::new();
            };
            s.timeline.last_fault = Some(fault);
            playback::inject(s, fault)
        }
    }
}

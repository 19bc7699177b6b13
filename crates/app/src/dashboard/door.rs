//! The room's door on the dashboard, for a flood of registrations: `L` locks or unlocks the room
//! for new trainees, `S` removes every trainee who never sent an event after the Room section
//! has shown how many (Enter confirms, Esc keeps them).

use super::prompt::PromptKind;
use super::{DashEffect, Dashboard};
use content::key;

/// What the dashboard asks of the room's door.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoorAction {
    /// Lock (true) or unlock (false) the room for new trainees.
    Lock(bool),
    /// Remove every trainee who never sent an event.
    RemoveSilent,
}

impl Dashboard {
    /// `L` or `S`.
    pub(super) fn door_key(&mut self, key: char) -> Vec<DashEffect> {
        let door = self.summary.door;
        match key {
            'L' => vec![DashEffect::Door(DoorAction::Lock(!door.locked))],
            _ if door.silent == 0 => {
                self.note = Some((self.strings().get(key::dash::SILENT_NONE).to_owned(), false));
                Vec::new()
            }
            _ => {
                self.ask(PromptKind::RemoveSilent);
                Vec::new()
            }
        }
    }

    /// The effect of a submitted door prompt; None for any other prompt.
    pub(super) fn door_submitted(&mut self, kind: PromptKind) -> Option<Vec<DashEffect>> {
        (kind == PromptKind::RemoveSilent).then(|| {
            self.note = None;
            vec![DashEffect::Door(DoorAction::RemoveSilent)]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dashboard::{Access, DashMsg};
    use crate::input::{Key, KeyCode};
    use content::Lang;
    use domain::workshop::summary::door::Door;

    fn dash(door: Door) -> Dashboard {
        let access = Access {
            join_url: String::new(),
            projector_url: String::new(),
            key: String::new(),
            discovery: None,
            check_digits: String::new(),
        };
        let mut d = Dashboard::new(crate::test_app::content(), Lang::En, access, false);
        d.summary.door = door;
        d
    }

    #[test]
    fn l_toggles_the_lock_and_s_removes_the_silent_after_enter() {
        let mut d = dash(Door::new(false, 120, 300));
        assert_eq!(
            d.update(DashMsg::Key(Key::char('L'))),
            [DashEffect::Door(DoorAction::Lock(true))]
        );
        d.summary.door = Door::new(true, 120, 300);
        assert_eq!(
            d.update(DashMsg::Key(Key::char('L'))),
            [DashEffect::Door(DoorAction::Lock(false))]
        );
        assert!(
            d.update(DashMsg::Key(Key::char('S'))).is_empty(),
            "asks first"
        );
        assert!(d.prompt.is_some());
        assert_eq!(
            d.update(DashMsg::Key(Key::plain(KeyCode::Enter))),
            [DashEffect::Door(DoorAction::RemoveSilent)]
        );
        // Esc keeps them.
        d.update(DashMsg::Key(Key::char('S')));
        assert!(d.update(DashMsg::Key(Key::plain(KeyCode::Esc))).is_empty());
        // Nobody silent: nothing to ask.
        let mut quiet = dash(Door::new(false, 0, 0));
        assert!(quiet.update(DashMsg::Key(Key::char('S'))).is_empty());
        assert!(quiet.prompt.is_none());
        assert!(quiet.note.is_some());
    }
}

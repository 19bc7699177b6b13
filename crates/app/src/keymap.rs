//! One table per screen maps keys to actions. The key handler, the one-line legend and the `?`
//! help are all built from these tables, so they cannot disagree.

mod tables;

use super::input::{Key, KeyCode};
use tables::{
    CHAPTERS, HOME, LAB, LAB_LIST, MAP, ORDERING, QUIZ, READER, REPORT, SETTINGS, SIMULATOR,
};
pub use tables::{WORKSHOP, WORKSHOP_HELP};

/// The key that follows the instructor's banner (`pace`). The keys live here, not with the
/// banner, so the tables below import nothing from the screens that use them.
pub const FOLLOW_KEY: char = 'F';
/// The key that puts the banner away without following it.
pub const DISMISS_KEY: char = 'X';

/// What a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Move the cursor / scroll up one.
    Up,
    /// Move the cursor / scroll down one.
    Down,
    /// One page up.
    PageUp,
    /// One page down.
    PageDown,
    /// To the top.
    Top,
    /// To the bottom.
    Bottom,
    /// Open / activate the selection.
    Open,
    /// Back to the previous screen (quit from Home).
    Back,
    /// Show the help for this screen.
    Help,
    /// Next chapter.
    NextChapter,
    /// Previous chapter.
    PrevChapter,
    /// Switch the language.
    ToggleLang,
    /// Clear results (asks first).
    Clear,
    /// Delete the copies of damaged stores (asks first).
    DeleteDamaged,
    /// A digit (option number, chapter number).
    Number(u8),
    /// Focus the next interactive part.
    FocusNext,
    /// Focus the previous interactive part.
    FocusPrev,
    /// Search the course.
    Search,
    /// Next search hit.
    SearchNext,
    /// Open the simulator scenario of a decision.
    SeeItHappen,
    /// Start over (new deal, new run).
    Restart,
    /// Play or pause the simulation.
    PlayPause,
    /// One event forward.
    StepForward,
    /// One event back.
    StepBack,
    /// Play faster.
    Faster,
    /// Play slower.
    Slower,
    /// Open the scenario picker.
    ChooseScenario,
    /// Next mode (safe, naive, pitfall).
    CycleMode,
    /// Next broker profile.
    CycleBroker,
    /// Open the fault menu.
    InjectFault,
    /// Next seed.
    NextSeed,
    /// Safe and naive side by side.
    Compare,
    /// Toggle "cause fixed" (DLQ triage).
    ToggleFixed,
    /// Replay the DLQ batch under new message ids (DLQ triage).
    ReplayNewIds,
    /// Jump to the current moment's cause, or back.
    JumpToCause,
    /// Go to the next moment.
    NextMoment,
    /// Go back to the moment before.
    PrevMoment,
    /// Switch "pause at moments".
    TogglePauseAtMoments,
    /// Fold or unfold the routine events of the log.
    ToggleFullLog,
    /// Show or hide the SQL of the selected event.
    ToggleSql,
    /// Start or stop sharing the map on the local network.
    Share,
    /// Select or unselect the option under the cursor.
    Select,
    /// Start a new quiz attempt.
    Retake,
    /// Go on to e-mail the report.
    SendReport,
    /// Join a workshop, or leave it (Home).
    Workshop,
    /// Tell the workshop's instructor you are stuck.
    Stuck,
    /// Open the labs (Home).
    Labs,
    /// Open the lab file in the learner's editor.
    Edit,
    /// Check the lab file.
    CheckLab,
    /// Reveal the next hint.
    Hint,
    /// Follow the instructor's banner.
    FollowPace,
    /// Put the instructor's banner away.
    DismissPace,
}

/// A key or a class of keys a binding reacts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPattern {
    /// Exactly this character.
    Char(char),
    /// Exactly this key.
    Code(KeyCode),
    /// Any digit 1-9 (and 0).
    Digit,
}

impl KeyPattern {
    fn matches(self, key: Key) -> bool {
        match (self, key.code) {
            (KeyPattern::Char(c), KeyCode::Char(k)) => c == k,
            (KeyPattern::Code(c), k) => c == k,
            (KeyPattern::Digit, KeyCode::Char(d)) => d.is_ascii_digit(),
            _ => false,
        }
    }

    /// How the key is written in the legend and help.
    pub fn label(self) -> String {
        match self {
            KeyPattern::Char(' ') => "Space".to_owned(),
            KeyPattern::Char(c) => c.to_string(),
            KeyPattern::Digit => "1-9".to_owned(),
            KeyPattern::Code(code) => match code {
                KeyCode::Enter => "Enter",
                KeyCode::Esc => "Esc",
                KeyCode::Tab => "Tab",
                KeyCode::BackTab => "Shift+Tab",
                KeyCode::Up => "↑",
                KeyCode::Down => "↓",
                KeyCode::Left => "←",
                KeyCode::Right => "→",
                KeyCode::PageUp => "PgUp",
                KeyCode::PageDown => "PgDn",
                KeyCode::Home => "Home",
                KeyCode::End => "End",
                KeyCode::Backspace => "Backspace",
                KeyCode::Char(_) | KeyCode::Other => "?",
            }
            .to_owned(),
        }
    }
}

/// One row of a key table.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// The keys (the first is shown in the legend).
    pub keys: &'static [KeyPattern],
    /// What they do.
    pub action: Action,
    /// String key of the description.
    pub label: content::Key,
    /// Whether the one-line legend shows it (the help shows all).
    pub legend: bool,
}

/// The screens that have a key table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenKind {
    /// Home menu.
    Home,
    /// Chapter list.
    Chapters,
    /// Lesson reader.
    Reader,
    /// Settings.
    Settings,
    /// The ordering game.
    Ordering,
    /// The incident simulator.
    Simulator,
    /// The quick-reference map.
    Map,
    /// The final quiz.
    Quiz,
    /// The report flow.
    Report,
    /// The lab list.
    LabList,
    /// One lab.
    Lab,
}

/// The key table of a screen.
pub fn bindings(kind: ScreenKind) -> &'static [Binding] {
    match kind {
        ScreenKind::Home => HOME,
        ScreenKind::Chapters => CHAPTERS,
        ScreenKind::Reader => READER,
        ScreenKind::Settings => SETTINGS,
        ScreenKind::Ordering => ORDERING,
        ScreenKind::Simulator => SIMULATOR,
        ScreenKind::Map => MAP,
        ScreenKind::Quiz => QUIZ,
        ScreenKind::Report => REPORT,
        ScreenKind::LabList => LAB_LIST,
        ScreenKind::Lab => LAB,
    }
}

/// The workshop action of a key (stuck, follow, dismiss), from [`WORKSHOP`].
pub fn workshop_action(key: Key) -> Option<Action> {
    if key.ctrl {
        return None;
    }
    WORKSHOP
        .iter()
        .find(|binding| binding.keys.iter().any(|p| p.matches(key)))
        .map(|binding| binding.action)
}

/// The action a key triggers on a screen, if any. Rows are tried in order; the first row whose
/// keys match wins, and for the combined legend rows (↑↓) the direction comes from the key.
pub fn action_for(kind: ScreenKind, key: Key) -> Option<Action> {
    if key.ctrl {
        return None;
    }
    let binding = bindings(kind)
        .iter()
        .find(|binding| binding.keys.iter().any(|p| p.matches(key)))?;
    Some(match (binding.action, key.code) {
        (Action::Number(_), KeyCode::Char(d)) => {
            Action::Number(d.to_digit(10).map_or(0, |n| n as u8))
        }
        // The legend row "↑↓ move" lists both directions; the key decides which.
        (Action::Up, KeyCode::Down | KeyCode::Char('j')) => Action::Down,
        (Action::StepBack, KeyCode::Right | KeyCode::Char('l')) => Action::StepForward,
        (action, _) => action,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_actions() {
        assert_eq!(
            action_for(ScreenKind::Home, Key::plain(KeyCode::Down)),
            Some(Action::Down)
        );
        assert_eq!(
            action_for(ScreenKind::Home, Key::char('k')),
            Some(Action::Up)
        );
        assert_eq!(
            action_for(ScreenKind::Home, Key::char('3')),
            Some(Action::Number(3))
        );
        assert_eq!(
            action_for(ScreenKind::Reader, Key::char(' ')),
            Some(Action::Select)
        );
        assert_eq!(
            action_for(ScreenKind::Reader, Key::char('n')),
            Some(Action::NextChapter)
        );
        assert_eq!(
            action_for(ScreenKind::Settings, Key::char('l')),
            Some(Action::ToggleLang)
        );
        assert_eq!(action_for(ScreenKind::Report, Key::char('x')), None);
        assert_eq!(
            action_for(ScreenKind::Simulator, Key::char('.')),
            Some(Action::PlayPause)
        );
        assert_eq!(
            action_for(ScreenKind::Simulator, Key::plain(KeyCode::Right)),
            Some(Action::StepForward)
        );
        assert_eq!(
            action_for(ScreenKind::Simulator, Key::plain(KeyCode::Left)),
            Some(Action::StepBack)
        );
        assert_eq!(
            action_for(ScreenKind::Ordering, Key::char('7')),
            Some(Action::Number(7))
        );
        assert_eq!(
            action_for(
                ScreenKind::Home,
                Key {
                    code: KeyCode::Char('q'),
                    ctrl: true
                }
            ),
            None
        );
    }

    #[test]
    fn every_screen_has_help_and_back() {
        for kind in [
            ScreenKind::Home,
            ScreenKind::Chapters,
            ScreenKind::Reader,
            ScreenKind::Settings,
            ScreenKind::Ordering,
            ScreenKind::Simulator,
            ScreenKind::Map,
            ScreenKind::Quiz,
            ScreenKind::Report,
            ScreenKind::LabList,
            ScreenKind::Lab,
        ] {
            assert_eq!(
                action_for(kind, Key::char('?')),
                Some(Action::Help),
                "{kind:?}"
            );
            assert_eq!(
                action_for(kind, Key::plain(KeyCode::Esc)),
                Some(Action::Back),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn no_two_actions_of_a_screen_share_a_help_label() {
        // Two different actions under one label is how "page" ended up on PgUp and PgDn.
        for kind in [
            ScreenKind::Home,
            ScreenKind::Chapters,
            ScreenKind::Reader,
            ScreenKind::Settings,
            ScreenKind::Ordering,
            ScreenKind::Simulator,
            ScreenKind::Map,
            ScreenKind::Quiz,
            ScreenKind::Report,
            ScreenKind::LabList,
            ScreenKind::Lab,
        ] {
            let table = bindings(kind);
            for a in table {
                for b in table {
                    assert!(
                        a.label != b.label || a.action == b.action,
                        "{kind:?}: {:?} and {:?} both say {}",
                        a.action,
                        b.action,
                        a.label
                    );
                }
            }
        }
    }
}

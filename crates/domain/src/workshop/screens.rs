//! The screens a stuck signal may name: the trainee client's screen kinds in lower case and
//! `command-line` from `queuelab stuck`. The host keeps only these names; anything else a client
//! sends becomes [`OTHER_SCREEN`], so no text of a trainee's choosing travels as a screen.

use content::key;

/// Each known screen name with the UI string key of its title.
const SCREENS: &[(&str, content::Key)] = &[
    ("home", key::room::SCREEN_HOME),
    ("chapters", key::room::SCREEN_CHAPTERS),
    ("reader", key::room::SCREEN_READER),
    ("ordering", key::room::SCREEN_ORDERING),
    ("simulator", key::room::SCREEN_SIMULATOR),
    ("quiz", key::room::SCREEN_QUIZ),
    ("report", key::room::SCREEN_REPORT),
    ("map", key::room::SCREEN_MAP),
    ("lablist", key::room::SCREEN_LABS),
    ("lab", key::room::SCREEN_LABS),
    ("settings", key::room::SCREEN_SETTINGS),
    ("command-line", key::room::SCREEN_COMMAND_LINE),
    (OTHER_SCREEN, key::room::SCREEN_OTHER),
];

/// What an unknown screen name is kept as (a newer client's screen, or a crafted value).
pub const OTHER_SCREEN: &str = "other";

/// `name` when it is a known screen, else [`OTHER_SCREEN`].
pub fn known_screen(name: &str) -> &'static str {
    SCREENS
        .iter()
        .find(|(known, _)| *known == name)
        .map_or(OTHER_SCREEN, |(known, _)| known)
}

/// The UI string key of the title of screen `name` (an unknown one reads as "another screen").
pub fn screen_title_key(name: &str) -> content::Key {
    let known = known_screen(name);
    SCREENS
        .iter()
        .find(|(k, _)| *k == known)
        .map_or(key::room::SCREEN_OTHER, |(_, key)| *key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_screens_are_kept() {
        assert_eq!(known_screen("quiz"), "quiz");
        assert_eq!(known_screen("command-line"), "command-line");
        assert_eq!(known_screen("\u{1b}]0;PWNED\u{7}"), OTHER_SCREEN);
        assert_eq!(known_screen("Quiz"), OTHER_SCREEN);
        assert_eq!(screen_title_key("lab"), key::room::SCREEN_LABS);
        assert_eq!(screen_title_key("\u{202e}evil"), key::room::SCREEN_OTHER);
    }
}

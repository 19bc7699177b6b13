//! The screens a stuck signal may name: the trainee client's screen kinds in lower case and
//! `command-line` from `queuelab stuck`. The host keeps only these names; anything else a client
//! sends becomes [`OTHER_SCREEN`], so no text of a trainee's choosing travels as a screen.

/// Each known screen name with the UI string key of its title.
const SCREENS: &[(&str, &str)] = &[
    ("home", "room.screen_home"),
    ("chapters", "room.screen_chapters"),
    ("reader", "room.screen_reader"),
    ("ordering", "room.screen_ordering"),
    ("simulator", "room.screen_simulator"),
    ("quiz", "room.screen_quiz"),
    ("report", "room.screen_report"),
    ("map", "room.screen_map"),
    ("lablist", "room.screen_labs"),
    ("lab", "room.screen_labs"),
    ("settings", "room.screen_settings"),
    ("command-line", "room.screen_command_line"),
    (OTHER_SCREEN, "room.screen_other"),
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
pub fn screen_title_key(name: &str) -> &'static str {
    let known = known_screen(name);
    SCREENS
        .iter()
        .find(|(k, _)| *k == known)
        .map_or("room.screen_other", |(_, key)| key)
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
        assert_eq!(screen_title_key("lab"), "room.screen_labs");
        assert_eq!(screen_title_key("\u{202e}evil"), "room.screen_other");
    }
}

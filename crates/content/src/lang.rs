//! The two languages of the workshop.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A language the whole workshop is available in.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// German.
    De,
    /// English (the fallback).
    #[default]
    En,
}

impl Lang {
    /// All languages, in the order `check` reports them.
    pub const ALL: [Lang; 2] = [Lang::De, Lang::En];

    /// The folder name and CLI value of the language.
    pub fn code(self) -> &'static str {
        match self {
            Lang::De => "de",
            Lang::En => "en",
        }
    }

    /// Parses `de` or `en` (case-insensitive).
    pub fn from_code(code: &str) -> Option<Lang> {
        match code.trim().to_ascii_lowercase().as_str() {
            "de" => Some(Lang::De),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// Picks the language from a locale value such as `de_DE.UTF-8`: German when it starts
    /// with `de`, otherwise none.
    pub fn from_locale(value: &str) -> Option<Lang> {
        value
            .to_ascii_lowercase()
            .starts_with("de")
            .then_some(Lang::De)
    }

    /// The other language (for the settings toggle).
    #[must_use]
    pub fn other(self) -> Lang {
        match self {
            Lang::De => Lang::En,
            Lang::En => Lang::De,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
        }
        assert_eq!(Lang::from_code("fr"), None);
    }

    #[test]
    fn locale_starting_with_de_is_german() {
        assert_eq!(Lang::from_locale("de_AT.UTF-8"), Some(Lang::De));
        assert_eq!(Lang::from_locale("en_US.UTF-8"), None);
        assert_eq!(Lang::from_locale(""), None);
    }
}

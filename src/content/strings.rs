//! UI strings (`assets/strings/LANG.toml`): every word of chrome comes from here.

use super::Problem;
use super::toml_file::{self, check_version};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

mod keys;
mod sim_keys;
pub use keys::{KEYS, WORKSHOP_KEYS};
pub use sim_keys::SIM_KEYS;

/// The UI strings of one language.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Strings {
    map: BTreeMap<String, String>,
}

impl Strings {
    /// The text for `key`. A missing key shows the key itself: `check` guarantees presence, so
    /// this only happens with unchecked `--content` folders, and a visible key beats a panic.
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.map.get(key).map_or(key, String::as_str)
    }

    /// The text for `key` with `{name}` placeholders replaced.
    pub fn fill(&self, key: &str, args: &[(&str, &str)]) -> String {
        let mut text = self.get(key).to_owned();
        for (name, value) in args {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }

    /// All keys defined.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }

    /// Builds strings from pairs (tests and fixtures).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        Strings {
            map: pairs
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    strings: BTreeMap<String, Spanned<String>>,
}

/// Parses one strings file and checks it defines every key the program uses.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Strings {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return Strings::default();
        }
    };
    check_version(path, text, &file.format_version, problems);
    for (key, value) in &file.strings {
        if value.get_ref().trim().is_empty() {
            problems.push(toml_file::at(
                path,
                text,
                value,
                format!("string {key:?} is empty"),
            ));
        }
    }
    for key in KEYS.iter().chain(SIM_KEYS).chain(WORKSHOP_KEYS) {
        if !file.strings.contains_key(*key) {
            problems.push(Problem::file(path, format!("missing string {key:?}")));
        }
    }
    Strings {
        map: file
            .strings
            .into_iter()
            .map(|(k, v)| (k, v.into_inner()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_placeholders_and_missing_keys_show_the_key() {
        let s = Strings::from_pairs([("a", "{n} of {m}")]);
        assert_eq!(s.fill("a", &[("n", "1"), ("m", "16")]), "1 of 16");
        assert_eq!(s.get("nope"), "nope");
    }
}

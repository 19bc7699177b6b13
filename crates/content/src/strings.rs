//! UI strings (`assets/strings/LANG.toml`): every word of chrome comes from here.

use super::toml_file::{self, check_version};
use super::{Lang, Problem};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

mod keys;
mod lab_keys;
mod sim_keys;
pub use keys::{KEYS, WORKSHOP_KEYS};
pub use lab_keys::LAB_KEYS;
pub use sim_keys::SIM_KEYS;

/// The UI strings of one language.
#[derive(Debug, Clone, Default)]
pub struct Strings {
    map: Table,
}

/// Where the words live: compiled into the binary (the embedded copy, see `build.rs`) or
/// parsed from a file (`--content DIR`, `queuelab check`, the course).
#[derive(Debug, Clone)]
enum Table {
    Built(BuiltTable),
    Parsed(BTreeMap<String, String>),
}

impl Default for Table {
    fn default() -> Self {
        Table::Parsed(BTreeMap::new())
    }
}

/// A strings file as `build.rs` compiles it: every key and value one after the other in
/// `text`, and for each pair, sorted by key, `[key start, key length, value start, value
/// length]` in bytes. Numbers instead of `&str` pairs keep the table free of load-time
/// relocations.
#[derive(Debug, Clone, Copy)]
struct BuiltTable {
    text: &'static str,
    spans: &'static [[u32; 4]],
}

impl BuiltTable {
    /// The `at`-th pair (key, value).
    fn pair(&self, at: usize) -> (&'static str, &'static str) {
        let [key_at, key_len, value_at, value_len] = self.spans[at].map(|n| n as usize);
        (self.slice(key_at, key_len), self.slice(value_at, value_len))
    }

    fn slice(&self, at: usize, len: usize) -> &'static str {
        // `build.rs` cut at the ends of whole strings, so this always finds its text.
        self.text.get(at..at + len).unwrap_or_default()
    }

    fn get(&self, key: &str) -> Option<&'static str> {
        self.spans
            .binary_search_by(|&[at, len, _, _]| self.slice(at as usize, len as usize).cmp(key))
            .ok()
            .map(|at| self.pair(at).1)
    }

    /// Every pair in key order, as borrowed for `'a` (the items of a boxed iterator cannot be
    /// shortened afterwards).
    fn pairs<'a>(self) -> impl Iterator<Item = (&'a str, &'a str)> {
        (0..self.spans.len()).map(move |at| -> (&'a str, &'a str) { self.pair(at) })
    }
}

// The tables `build.rs` made from `assets/strings/LANG.toml`: `BUILT_DE` and `BUILT_EN`.
include!(concat!(env!("OUT_DIR"), "/strings_tables.rs"));

impl Strings {
    /// The embedded strings in `lang` as compiled into the binary, ready without parsing;
    /// `None` when the build could not read the file (it is then parsed like any other).
    pub fn built(lang: Lang) -> Option<Strings> {
        let table = match lang {
            Lang::De => BUILT_DE,
            Lang::En => BUILT_EN,
        }?;
        Some(Strings {
            map: Table::Built(table),
        })
    }

    /// The text for `key`. A missing key shows the key itself: `check` guarantees presence, so
    /// this only happens with unchecked `--content` folders, and a visible key beats a panic.
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        match &self.map {
            Table::Built(table) => table.get(key).unwrap_or(key),
            Table::Parsed(map) => map.get(key).map_or(key, String::as_str),
        }
    }

    /// The text for `key` with `{name}` placeholders replaced.
    pub fn fill(&self, key: &str, args: &[(&str, &str)]) -> String {
        let mut text = self.get(key).to_owned();
        for (name, value) in args {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }

    /// All keys defined, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.pairs().map(|(key, _)| key)
    }

    /// Every key with its text, in key order.
    fn pairs(&self) -> Box<dyn Iterator<Item = (&str, &str)> + '_> {
        match &self.map {
            Table::Built(table) => Box::new(table.pairs()),
            Table::Parsed(map) => Box::new(map.iter().map(|(k, v)| (k.as_str(), v.as_str()))),
        }
    }

    /// Builds strings from pairs (tests and fixtures).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        Strings {
            map: Table::Parsed(
                pairs
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect(),
            ),
        }
    }
}

/// Equal when they hold the same words, wherever they live.
impl PartialEq for Strings {
    fn eq(&self, other: &Self) -> bool {
        self.pairs().eq(other.pairs())
    }
}

impl Eq for Strings {}

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
    for key in KEYS
        .iter()
        .chain(SIM_KEYS)
        .chain(WORKSHOP_KEYS)
        .chain(LAB_KEYS)
    {
        if !file.strings.contains_key(*key) {
            problems.push(Problem::file(path, format!("missing string {key:?}")));
        }
    }
    Strings {
        map: Table::Parsed(
            file.strings
                .into_iter()
                .map(|(k, v)| (k, v.into_inner()))
                .collect(),
        ),
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

    /// The tables compiled by `build.rs` hold exactly what the files say, escapes included.
    #[test]
    fn the_built_tables_equal_the_parsed_files() {
        for lang in [Lang::De, Lang::En] {
            let path = format!(
                "{}/../../assets/strings/{lang}.toml",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).expect("strings file");
            let mut problems = Vec::new();
            let parsed = parse(&path, &text, &mut problems);
            assert!(problems.is_empty(), "{problems:?}");
            let built = Strings::built(lang).expect("build.rs read the file");
            assert_eq!(built, parsed, "{lang}");
            assert!(built.keys().count() > 100, "{lang}: the whole table");
            for key in parsed.keys() {
                assert_eq!(built.get(key), parsed.get(key), "{lang}: {key}");
            }
            assert_eq!(built.get("no.such.key"), "no.such.key");
        }
    }
}

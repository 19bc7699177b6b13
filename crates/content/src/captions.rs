//! Simulator captions (`assets/sim/captions.toml`): one narration text per event kind, in
//! every language. `{0}`, `{1}`, ... are the event's arguments.

use super::toml_file::{self, at, check_version};
use super::{Lang, Problem};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use toml::Spanned;

/// Where the captions live, relative to the content root.
pub const CAPTIONS_PATH: &str = "assets/sim/captions.toml";

/// Caption texts by language, then by key.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Captions {
    by_lang: BTreeMap<Lang, BTreeMap<String, String>>,
}

impl Captions {
    /// The caption `key` in `lang`, if defined.
    pub fn get(&self, lang: Lang, key: &str) -> Option<&str> {
        self.by_lang.get(&lang)?.get(key).map(String::as_str)
    }

    /// Keys defined for `lang`, sorted.
    pub fn keys(&self, lang: Lang) -> impl Iterator<Item = &str> {
        self.by_lang
            .get(&lang)
            .into_iter()
            .flat_map(|m| m.keys().map(String::as_str))
    }

    /// The caption with `{n}` replaced by `args[n]`; a missing key shows the key itself.
    pub fn render(&self, lang: Lang, key: &str, args: &[String]) -> String {
        let mut out = self.get(lang, key).unwrap_or(key).to_owned();
        for (i, a) in args.iter().enumerate() {
            out = out.replace(&format!("{{{i}}}"), a);
        }
        out
    }
}

type Table = Spanned<BTreeMap<String, Spanned<String>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    de: Table,
    en: Table,
}

/// The `{n}` placeholders a text uses.
fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let tail = &rest[start + 1..];
        match tail.find('}') {
            Some(end) if tail[..end].chars().all(|c| c.is_ascii_digit()) && end > 0 => {
                out.insert(tail[..end].to_owned());
                rest = &tail[end + 1..];
            }
            _ => rest = tail,
        }
    }
    out
}

/// Parses and checks the captions file: both languages, the same keys, no empty text, the
/// same placeholders in every language.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Option<Captions> {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return None;
        }
    };
    let before = problems.len();
    check_version(path, text, &file.format_version, problems);
    let tables = [(Lang::De, &file.de), (Lang::En, &file.en)];
    for (lang, table) in tables {
        let other = if lang == Lang::De { &file.en } else { &file.de };
        for (key, value) in table.get_ref() {
            if value.get_ref().trim().is_empty() {
                problems.push(at(path, text, value, format!("[{lang}] {key:?} is empty")));
            }
            match other.get_ref().get(key) {
                None => problems.push(at(
                    path,
                    text,
                    value,
                    format!("{key:?} is missing in [{}]", lang.other()),
                )),
                Some(o)
                    if lang == Lang::De
                        && placeholders(o.get_ref()) != placeholders(value.get_ref()) =>
                {
                    problems.push(at(
                        path,
                        text,
                        value,
                        format!("{key:?} uses other placeholders in [de] than in [en]"),
                    ));
                }
                Some(_) => {}
            }
        }
    }
    let by_lang = tables
        .into_iter()
        .map(|(lang, t)| {
            let map = t
                .get_ref()
                .iter()
                .map(|(k, v)| (k.clone(), v.get_ref().clone()))
                .collect();
            (lang, map)
        })
        .collect();
    (problems.len() == before).then_some(Captions { by_lang })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<String> {
        let mut p = Vec::new();
        parse("c.toml", text, &mut p);
        p.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn keys_must_match_across_languages() {
        let p = problems("format_version = 1\n[de]\n\"a\" = \"x\"\n[en]\n\"b\" = \"y\"\n");
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].starts_with("c.toml:3:"), "{p:?}");
    }

    #[test]
    fn placeholders_must_match() {
        let p = problems("format_version = 1\n[de]\n\"a\" = \"x {0}\"\n[en]\n\"a\" = \"y {1}\"\n");
        assert!(p.iter().any(|m| m.contains("placeholders")), "{p:?}");
    }

    #[test]
    fn render_fills_arguments() {
        let mut p = Vec::new();
        let c = parse(
            "c.toml",
            "format_version = 1\n[de]\n\"a\" = \"x {0}\"\n[en]\n\"a\" = \"y {0}\"\n",
            &mut p,
        )
        .expect("valid");
        assert_eq!(c.render(Lang::En, "a", &["1".into()]), "y 1");
        assert_eq!(c.render(Lang::De, "zzz", &[]), "zzz");
    }
}

//! Labs as content: a folder per lab under `labs/` (`labs/NN-slug/`) with `lab.toml` (number,
//! chapter, open sections, checked scenarios × brokers, default seeds, the moment the starting
//! file shows, titles and three hints per language), `brief.LANG.md`, `start.sql`,
//! `solution.sql` and `wrong/*.sql`. The format is described in `labs/README.md`.

mod invariant;
mod section;

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

pub use invariant::LabInvariant;
pub use section::Section;

use super::toml_file::{self, at, check_version};
use super::{ContentSource, Lang, Problem};

/// Hints per language: exactly this many levels.
pub const HINT_LEVELS: usize = 3;
/// The broker profiles a lab can name.
pub const BROKERS: [&str; 2] = ["asb", "sqs"];
/// The moments a starting file can be expected to show (or one of the lab check's own
/// invariants, [`LabInvariant`]).
pub const HARM_MOMENTS: [&str; 3] = ["duplicate-effect", "lost-order", "out-of-order"];
/// The most seeds a lab may ask for by default.
pub const MAX_SEEDS: u64 = 500;

/// Where the starting file is expected to break: the named seed, scenario and broker, and the
/// moment it shows there.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartFails {
    /// The seed.
    pub seed: u64,
    /// The scenario id.
    pub scenario: String,
    /// `asb` or `sqs`.
    pub broker: String,
    /// The moment's kind (`duplicate-effect`, `lost-order`, `out-of-order`) or the name of a
    /// lab invariant (`poison-retried`, …).
    pub moment: String,
}

/// One lab, both languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lab {
    /// The folder name, e.g. `01-idempotent-consumer` (also the learner's file name).
    pub id: String,
    /// The number the CLI takes (`lab check 1`).
    pub number: u32,
    /// The chapter it belongs to.
    pub chapter: String,
    /// Title per language.
    pub title: BTreeMap<Lang, String>,
    /// The brief (Markdown) per language.
    pub brief: BTreeMap<Lang, String>,
    /// Three hints per language, from gentle to explicit.
    pub hints: BTreeMap<Lang, Vec<String>>,
    /// The sections a learner's file may hold.
    pub sections: Vec<Section>,
    /// The checked scenarios.
    pub scenarios: Vec<String>,
    /// The checked broker profiles (`asb`, `sqs`).
    pub brokers: Vec<String>,
    /// Seeds 1..=seeds in a check unless the learner asks for another number.
    pub seeds: u64,
    /// Where the starting file breaks.
    pub start_fails: StartFails,
    /// The handler's effect is a charge at the payment provider: the check also holds every
    /// order that took effect to a charge (`charge-missing`).
    pub charged: bool,
    /// The handler gets the messages the consumer cannot read (`:payload_error` set) and
    /// decides about them (lab 6); in the other labs the engine dead-letters them itself at
    /// once, like the built-in careful consumer.
    pub poison: bool,
    /// The starting file.
    pub start: String,
    /// The reference solution.
    pub solution: String,
    /// Plausible wrong answers: (file name, text); each names what it must fail with in its
    /// first line ([`expected_failure`]).
    pub wrong: Vec<(String, String)>,
    /// Correct variants beside the reference solution (other table designs, other SQL):
    /// (file name, text); each must pass.
    pub right: Vec<(String, String)>,
}

/// What a wrong answer must fail with: the name in its first line `-- expect: NAME` (a moment
/// such as `duplicate-effect` or a lab invariant).
pub fn expected_failure(text: &str) -> Option<&str> {
    let first = text.lines().next()?.trim();
    let name = first
        .strip_prefix("--")?
        .trim()
        .strip_prefix("expect:")?
        .trim();
    (!name.is_empty()).then_some(name)
}

/// Whether `name` is a failure a lab check can report: a harm moment or a lab invariant.
pub fn is_failure_name(name: &str) -> bool {
    HARM_MOMENTS.contains(&name) || LabInvariant::parse(name).is_some()
}

impl Lab {
    /// The title in `lang` (English when missing, which `check` does not let through).
    pub fn title(&self, lang: Lang) -> &str {
        self.title
            .get(&lang)
            .or_else(|| self.title.get(&Lang::En))
            .map_or("", String::as_str)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    number: Spanned<u32>,
    chapter: Spanned<String>,
    sections: Spanned<Vec<String>>,
    scenarios: Spanned<Vec<String>>,
    brokers: Spanned<Vec<String>>,
    seeds: Spanned<u64>,
    start_fails: Spanned<StartFails>,
    #[serde(default)]
    charged: bool,
    #[serde(default)]
    poison: bool,
    title: Spanned<BTreeMap<String, String>>,
    hints: Spanned<BTreeMap<String, Vec<String>>>,
}

/// What the labs are checked against: the ids the rest of the content defines (an empty list
/// is not checked: the embedded copy, which `check` has held against them in CI).
#[derive(Debug, Clone, Copy)]
pub struct Known<'a> {
    /// Chapter ids (of every language).
    pub chapters: &'a [String],
    /// Scenario ids.
    pub scenarios: &'a [String],
}

/// Loads every lab folder under `labs/` (none is fine: a `--content` folder may have none).
pub fn load(source: &ContentSource, known: Known<'_>, problems: &mut Vec<Problem>) -> Vec<Lab> {
    let mut labs: Vec<Lab> = source
        .list_dirs("labs")
        .into_iter()
        .filter_map(|folder| load_one(source, &folder, known, problems))
        .collect();
    labs.sort_by_key(|l| l.number);
    for pair in labs.windows(2) {
        if pair[0].number == pair[1].number {
            problems.push(Problem::file(
                &format!("labs/{}/lab.toml", pair[1].id),
                format!(
                    "lab number {} is also used by {}",
                    pair[1].number, pair[0].id
                ),
            ));
        }
    }
    labs
}

fn read(source: &ContentSource, path: &str, problems: &mut Vec<Problem>) -> Option<String> {
    match source.read(path) {
        Ok(Some(text)) => Some(text),
        Ok(None) => {
            problems.push(Problem::file(path, "missing file"));
            None
        }
        Err(e) => {
            problems.push(Problem::file(path, e));
            None
        }
    }
}

#[allow(clippy::too_many_lines)] // one check after the other, each with its own message
fn load_one(
    source: &ContentSource,
    folder: &str,
    known: Known<'_>,
    problems: &mut Vec<Problem>,
) -> Option<Lab> {
    let dir = format!("labs/{folder}");
    let path = format!("{dir}/lab.toml");
    let text = read(source, &path, problems)?;
    let file: File = match toml_file::parse(&path, &text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return None;
        }
    };
    let before = problems.len();
    check_version(&path, &text, &file.format_version, problems);
    let number = *file.number.get_ref();
    if !folder.starts_with(&format!("{number:02}-")) {
        problems.push(at(
            &path,
            &text,
            &file.number,
            format!("lab {number} must live in a folder named {number:02}-slug, not {folder}"),
        ));
    }
    if !known.chapters.is_empty() && !known.chapters.contains(file.chapter.get_ref()) {
        problems.push(at(
            &path,
            &text,
            &file.chapter,
            format!("no chapter {:?}", file.chapter.get_ref()),
        ));
    }
    let mut sections = Vec::new();
    for name in file.sections.get_ref() {
        match Section::parse(name) {
            Some(s) => sections.push(s),
            None => problems.push(at(
                &path,
                &text,
                &file.sections,
                format!("no section @{name}"),
            )),
        }
    }
    for id in file.scenarios.get_ref() {
        if !known.scenarios.is_empty() && !known.scenarios.contains(id) {
            problems.push(at(
                &path,
                &text,
                &file.scenarios,
                format!("no scenario {id:?}"),
            ));
        }
    }
    for b in file.brokers.get_ref() {
        if !BROKERS.contains(&b.as_str()) {
            problems.push(at(
                &path,
                &text,
                &file.brokers,
                format!("no broker {b:?} (asb or sqs)"),
            ));
        }
    }
    if file.scenarios.get_ref().is_empty() || file.brokers.get_ref().is_empty() {
        problems.push(at(
            &path,
            &text,
            &file.scenarios,
            "a lab checks at least one scenario on one broker",
        ));
    }
    let seeds = *file.seeds.get_ref();
    if seeds == 0 || seeds > MAX_SEEDS {
        problems.push(at(
            &path,
            &text,
            &file.seeds,
            format!("seeds must be 1..={MAX_SEEDS}"),
        ));
    }
    let start_fails = file.start_fails.get_ref().clone();
    if !file.scenarios.get_ref().contains(&start_fails.scenario)
        || !file.brokers.get_ref().contains(&start_fails.broker)
        || !(HARM_MOMENTS.contains(&start_fails.moment.as_str())
            || LabInvariant::parse(&start_fails.moment).is_some())
    {
        let invariants = LabInvariant::ALL.map(LabInvariant::as_str);
        problems.push(at(
            &path,
            &text,
            &file.start_fails,
            format!(
                "start_fails must name a checked scenario and broker and one of {HARM_MOMENTS:?} or {invariants:?}"
            ),
        ));
    }
    let mut title = BTreeMap::new();
    let mut hints = BTreeMap::new();
    let mut brief = BTreeMap::new();
    for lang in Lang::ALL {
        match file.title.get_ref().get(lang.code()) {
            Some(t) if !t.trim().is_empty() => {
                title.insert(lang, t.clone());
            }
            _ => problems.push(at(
                &path,
                &text,
                &file.title,
                format!("missing title in {lang}"),
            )),
        }
        match file.hints.get_ref().get(lang.code()) {
            Some(h) if h.len() == HINT_LEVELS && h.iter().all(|x| !x.trim().is_empty()) => {
                hints.insert(lang, h.clone());
            }
            Some(h) => problems.push(at(
                &path,
                &text,
                &file.hints,
                format!(
                    "{lang}: {HINT_LEVELS} hint levels needed, {} given",
                    h.iter().filter(|x| !x.trim().is_empty()).count()
                ),
            )),
            None => problems.push(at(
                &path,
                &text,
                &file.hints,
                format!("missing hints in {lang}"),
            )),
        }
        let brief_path = format!("{dir}/brief.{lang}.md");
        if let Some(b) = read(source, &brief_path, problems) {
            brief.insert(lang, b);
        }
    }
    for code in file
        .title
        .get_ref()
        .keys()
        .chain(file.hints.get_ref().keys())
    {
        if Lang::from_code(code).is_none() {
            problems.push(at(
                &path,
                &text,
                &file.title,
                format!("unknown language {code:?}"),
            ));
        }
    }
    let start = read(source, &format!("{dir}/start.sql"), problems);
    let solution = read(source, &format!("{dir}/solution.sql"), problems);
    let mut wrong = Vec::new();
    for name in source.list(&format!("{dir}/wrong")) {
        let rel = format!("{dir}/wrong/{name}");
        if let Some(t) = read(source, &rel, problems) {
            match expected_failure(&t) {
                Some(expect) if is_failure_name(expect) => {}
                _ => problems.push(Problem::file(
                    &rel,
                    "a wrong answer starts with the line `-- expect: NAME`, NAME a moment \
                     (duplicate-effect, lost-order, out-of-order) or a lab invariant",
                )),
            }
            wrong.push((name, t));
        }
    }
    let mut right = Vec::new();
    for name in source.list(&format!("{dir}/right")) {
        if let Some(t) = read(source, &format!("{dir}/right/{name}"), problems) {
            right.push((name, t));
        }
    }
    if wrong.is_empty() {
        problems.push(Problem::file(
            &format!("{dir}/wrong"),
            "a lab needs at least one plausible wrong answer in wrong/*.sql",
        ));
    }
    if problems.len() > before {
        return None;
    }
    Some(Lab {
        id: folder.to_owned(),
        number,
        chapter: file.chapter.into_inner(),
        title,
        brief,
        hints,
        sections,
        scenarios: file.scenarios.into_inner(),
        brokers: file.brokers.into_inner(),
        seeds,
        start_fails,
        charged: file.charged,
        poison: file.poison,
        start: start?,
        solution: solution?,
        wrong,
        right,
    })
}

#[cfg(test)]
mod tests;

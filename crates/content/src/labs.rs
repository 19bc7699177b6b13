//! Labs as content: a folder per lab under `labs/` (`labs/NN-slug/`) with `lab.toml` (number,
//! chapter, open sections, checked scenarios × brokers, default seeds, the moment the starting
//! file shows, titles and three hints per language), `brief.LANG.md`, `start.sql`,
//! `solution.sql` and `wrong/*.sql`. The format is described in `labs/README.md`.

mod answers;
mod invariant;
mod lab_toml;
mod section;

use std::collections::BTreeMap;

use serde::Deserialize;

use answers::Answers;
pub use invariant::LabInvariant;
use lab_toml::LabToml;
pub use section::Section;

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

/// One lab folder: `lab.toml` checked field by field, then the files it needs. Every problem is
/// reported (not only the first), and a folder with any gives no lab.
fn load_one(
    source: &ContentSource,
    folder: &str,
    known: Known<'_>,
    problems: &mut Vec<Problem>,
) -> Option<Lab> {
    let dir = format!("labs/{folder}");
    let toml = LabToml::read(source, &dir, problems)?;
    let before = problems.len();
    let sections = toml.check_fields(folder, known, problems);
    let texts = Texts::read(source, &dir, &toml, problems);
    toml.check_language_codes(problems);
    let start = read(source, &format!("{dir}/start.sql"), problems);
    let solution = read(source, &format!("{dir}/solution.sql"), problems);
    let answers = Answers::read(source, &dir, problems);
    if problems.len() > before {
        return None;
    }
    let file = toml.file;
    Some(Lab {
        id: folder.to_owned(),
        number: file.number.into_inner(),
        chapter: file.chapter.into_inner(),
        title: texts.title,
        brief: texts.brief,
        hints: texts.hints,
        sections,
        scenarios: file.scenarios.into_inner(),
        brokers: file.brokers.into_inner(),
        seeds: file.seeds.into_inner(),
        start_fails: file.start_fails.into_inner(),
        charged: file.charged,
        poison: file.poison,
        start: start?,
        solution: solution?,
        wrong: answers.wrong,
        right: answers.right,
    })
}

/// What a learner reads of a lab, per language.
struct Texts {
    title: BTreeMap<Lang, String>,
    hints: BTreeMap<Lang, Vec<String>>,
    brief: BTreeMap<Lang, String>,
}

impl Texts {
    /// The title and hints from `lab.toml` and `brief.LANG.md`, each language in turn; what a
    /// language lacks is reported.
    fn read(
        source: &ContentSource,
        dir: &str,
        toml: &LabToml,
        problems: &mut Vec<Problem>,
    ) -> Self {
        let mut texts = Texts {
            title: BTreeMap::new(),
            hints: BTreeMap::new(),
            brief: BTreeMap::new(),
        };
        for lang in Lang::ALL {
            if let Some(t) = toml.title_in(lang, problems) {
                texts.title.insert(lang, t);
            }
            if let Some(h) = toml.hints_in(lang, problems) {
                texts.hints.insert(lang, h);
            }
            if let Some(b) = read(source, &format!("{dir}/brief.{lang}.md"), problems) {
                texts.brief.insert(lang, b);
            }
        }
        texts
    }
}

#[cfg(test)]
mod tests;

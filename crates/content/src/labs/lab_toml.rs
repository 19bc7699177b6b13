//! A lab's `lab.toml`: its fields as written, and one check per field against the format and
//! the rest of the content. Every problem points at the line of the field it is about.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::super::toml_file::{self, at, check_version};
use super::super::{ContentSource, Lang, Problem};
use super::{BROKERS, HARM_MOMENTS, HINT_LEVELS, Known, LabInvariant, MAX_SEEDS, Section};
use super::{StartFails, read};

/// The fields of `lab.toml`, each with its place in the text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct File {
    pub format_version: Spanned<u32>,
    pub number: Spanned<u32>,
    pub chapter: Spanned<String>,
    pub sections: Spanned<Vec<String>>,
    pub scenarios: Spanned<Vec<String>>,
    pub brokers: Spanned<Vec<String>>,
    pub seeds: Spanned<u64>,
    pub start_fails: Spanned<StartFails>,
    #[serde(default)]
    pub charged: bool,
    #[serde(default)]
    pub poison: bool,
    pub title: Spanned<BTreeMap<String, String>>,
    pub hints: Spanned<BTreeMap<String, Vec<String>>>,
}

/// A parsed `lab.toml` with its path and text, which every problem about a field needs.
pub(super) struct LabToml {
    path: String,
    text: String,
    pub file: File,
}

impl LabToml {
    /// Reads and parses `DIR/lab.toml`; a missing file or one of the wrong shape is reported
    /// and gives nothing to check further.
    pub fn read(source: &ContentSource, dir: &str, problems: &mut Vec<Problem>) -> Option<Self> {
        let path = format!("{dir}/lab.toml");
        let text = read(source, &path, problems)?;
        match toml_file::parse(&path, &text) {
            Ok(file) => Some(LabToml { path, text, file }),
            Err(p) => {
                problems.push(p);
                None
            }
        }
    }

    /// A problem at the line of `value`.
    fn at<T>(&self, value: &Spanned<T>, message: impl Into<String>) -> Problem {
        at(&self.path, &self.text, value, message)
    }

    /// Checks every field but the texts (see [`LabToml::title_in`], [`LabToml::hints_in`]);
    /// returns the sections the lab opens, those that exist.
    pub fn check_fields(
        &self,
        folder: &str,
        known: Known<'_>,
        problems: &mut Vec<Problem>,
    ) -> Vec<Section> {
        check_version(&self.path, &self.text, &self.file.format_version, problems);
        self.check_folder(folder, problems);
        self.check_chapter(known, problems);
        let sections = self.sections(problems);
        self.check_scenarios_and_brokers(known, problems);
        self.check_seeds(problems);
        self.check_start_fails(problems);
        sections
    }

    /// The folder carries the lab's number, so the folders list in the order of the labs.
    fn check_folder(&self, folder: &str, problems: &mut Vec<Problem>) {
        let number = *self.file.number.get_ref();
        if !folder.starts_with(&format!("{number:02}-")) {
            problems.push(self.at(
                &self.file.number,
                format!("lab {number} must live in a folder named {number:02}-slug, not {folder}"),
            ));
        }
    }

    fn check_chapter(&self, known: Known<'_>, problems: &mut Vec<Problem>) {
        let chapter = &self.file.chapter;
        if !known.chapters.is_empty() && !known.chapters.contains(chapter.get_ref()) {
            problems.push(self.at(chapter, format!("no chapter {:?}", chapter.get_ref())));
        }
    }

    /// The sections named, each one that does not exist reported.
    fn sections(&self, problems: &mut Vec<Problem>) -> Vec<Section> {
        let mut sections = Vec::new();
        for name in self.file.sections.get_ref() {
            match Section::parse(name) {
                Some(s) => sections.push(s),
                None => problems.push(self.at(&self.file.sections, format!("no section @{name}"))),
            }
        }
        sections
    }

    /// The checked runs: known scenarios, brokers that exist, and at least one of each.
    fn check_scenarios_and_brokers(&self, known: Known<'_>, problems: &mut Vec<Problem>) {
        let (scenarios, brokers) = (&self.file.scenarios, &self.file.brokers);
        for id in scenarios.get_ref() {
            if !known.scenarios.is_empty() && !known.scenarios.contains(id) {
                problems.push(self.at(scenarios, format!("no scenario {id:?}")));
            }
        }
        for b in brokers.get_ref() {
            if !BROKERS.contains(&b.as_str()) {
                problems.push(self.at(brokers, format!("no broker {b:?} (asb or sqs)")));
            }
        }
        if scenarios.get_ref().is_empty() || brokers.get_ref().is_empty() {
            problems.push(self.at(
                scenarios,
                "a lab checks at least one scenario on one broker",
            ));
        }
    }

    fn check_seeds(&self, problems: &mut Vec<Problem>) {
        let seeds = *self.file.seeds.get_ref();
        if seeds == 0 || seeds > MAX_SEEDS {
            problems.push(self.at(&self.file.seeds, format!("seeds must be 1..={MAX_SEEDS}")));
        }
    }

    /// The starting file's expected failure must be one a check of this lab can find: on a
    /// checked scenario and broker, with a moment or invariant the check reports.
    fn check_start_fails(&self, problems: &mut Vec<Problem>) {
        let start_fails = self.file.start_fails.get_ref();
        if !self
            .file
            .scenarios
            .get_ref()
            .contains(&start_fails.scenario)
            || !self.file.brokers.get_ref().contains(&start_fails.broker)
            || !(HARM_MOMENTS.contains(&start_fails.moment.as_str())
                || LabInvariant::parse(&start_fails.moment).is_some())
        {
            let invariants = LabInvariant::ALL.map(LabInvariant::as_str);
            problems.push(self.at(
                &self.file.start_fails,
                format!(
                    "start_fails must name a checked scenario and broker and one of {HARM_MOMENTS:?} or {invariants:?}"
                ),
            ));
        }
    }

    /// The title in `lang`, reported when missing or blank.
    pub fn title_in(&self, lang: Lang, problems: &mut Vec<Problem>) -> Option<String> {
        match self.file.title.get_ref().get(lang.code()) {
            Some(t) if !t.trim().is_empty() => Some(t.clone()),
            _ => {
                problems.push(self.at(&self.file.title, format!("missing title in {lang}")));
                None
            }
        }
    }

    /// The hints in `lang`, reported unless there are exactly [`HINT_LEVELS`] non-blank ones.
    pub fn hints_in(&self, lang: Lang, problems: &mut Vec<Problem>) -> Option<Vec<String>> {
        let hints = &self.file.hints;
        match hints.get_ref().get(lang.code()) {
            Some(h) if h.len() == HINT_LEVELS && h.iter().all(|x| !x.trim().is_empty()) => {
                Some(h.clone())
            }
            Some(h) => {
                problems.push(self.at(
                    hints,
                    format!(
                        "{lang}: {HINT_LEVELS} hint levels needed, {} given",
                        h.iter().filter(|x| !x.trim().is_empty()).count()
                    ),
                ));
                None
            }
            None => {
                problems.push(self.at(hints, format!("missing hints in {lang}")));
                None
            }
        }
    }

    /// A title or hints in a language the course does not have would never be shown.
    pub fn check_language_codes(&self, problems: &mut Vec<Problem>) {
        let (title, hints) = (self.file.title.get_ref(), self.file.hints.get_ref());
        for code in title.keys().chain(hints.keys()) {
            if Lang::from_code(code).is_none() {
                problems.push(self.at(&self.file.title, format!("unknown language {code:?}")));
            }
        }
    }
}

//! Loads every content file of every language, then runs the cross-file checks; or, for the
//! TUI's start, only the language shown (the other one is parsed when it is first asked for).

use std::sync::OnceLock;

mod shown;
pub use shown::load_shown;

use super::{
    CAPTIONS_PATH, Captions, Chapter, ContentSource, Decision, Deferred, Glossary, Lang, Ordering,
    Problem, Quiz, Reference, Scenario, Strings, captions, chapter, decision, glossary, moments,
    ordering, quiz, reference, scenario, strings, validate,
};

/// Everything one language of the workshop shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Course {
    /// Chapters in course order.
    pub chapters: Vec<Chapter>,
    /// Decision cards.
    pub decisions: Vec<Decision>,
    /// The ordering game.
    pub ordering: Ordering,
    /// Flow, checklist, runbook, levels, calculator, sources.
    pub reference: Reference,
    /// The final quiz.
    pub quiz: Quiz,
    /// UI strings.
    pub strings: Strings,
    /// The agreed terms and their rejected synonyms.
    pub glossary: Glossary,
}

impl Course {
    /// The chapter with this id.
    pub fn chapter(&self, id: &str) -> Option<&Chapter> {
        self.chapters.iter().find(|c| c.id == id)
    }

    /// The decision with this id.
    pub fn decision(&self, id: &str) -> Option<&Decision> {
        self.decisions.iter().find(|d| d.id == id)
    }
}

/// All content, both languages, validated.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Content {
    de: OnceLock<Course>,
    en: OnceLock<Course>,
    /// UI strings parsed ahead of their course (see [`load_shown`]).
    strings_de: OnceLock<Strings>,
    strings_en: OnceLock<Strings>,
    /// Whether a course not parsed yet comes from the embedded copy on first use (see
    /// [`load_shown`]); otherwise both were loaded up front and an unset one is empty.
    lazy: bool,
    /// Simulator scenarios (texts in both languages).
    pub scenarios: Deferred<Vec<Scenario>>,
    /// Simulator event captions in both languages.
    pub captions: Deferred<Captions>,
    /// Simulator moment explanations and their terms in both languages.
    pub moments: Deferred<Captions>,
    /// Labs (both languages each), by number.
    pub labs: Deferred<Vec<super::Lab>>,
}

impl Content {
    /// The course in `lang`.
    pub fn course(&self, lang: Lang) -> &Course {
        let cell = match lang {
            Lang::De => &self.de,
            Lang::En => &self.en,
        };
        cell.get_or_init(|| {
            if self.lazy {
                shown::embedded_course(lang)
            } else {
                Course::default()
            }
        })
    }

    /// The one-line summary `queuelab check` prints for `lang`.
    pub fn summary(&self, lang: Lang) -> String {
        let c = self.course(lang);
        format!(
            "ok {lang}: {} chapters, {} decisions, {} ordering steps, {} questions (bank {}), {} scenarios",
            c.chapters.len(),
            c.decisions.len(),
            c.ordering.steps.len(),
            quiz::QUESTION_COUNT.min(c.quiz.questions.len()),
            c.quiz.questions.len(),
            self.scenarios
                .iter()
                .filter(|s| s.text(lang).is_some())
                .count()
        )
    }
}

/// Loads and validates all content from `source`; every problem found is returned, not only
/// the first.
pub fn load(source: &ContentSource) -> Result<Content, Vec<Problem>> {
    let mut problems = Vec::new();
    let de = load_course(source, Lang::De, Terms::Check, &mut problems);
    let en = load_course(source, Lang::En, Terms::Check, &mut problems);
    // The simulator's files hold both languages, one section each: every section is held
    // against its language's glossary like the course texts are.
    let mut term_problems = Vec::new();
    let mut scan_both = |path: &str, text: &str| {
        for (lang, course) in [(Lang::De, &de), (Lang::En, &en)] {
            let section = lang.to_string();
            course
                .glossary
                .scan(path, text, Some(&section), &mut term_problems);
        }
    };
    let scenarios = load_scenarios(source, &mut problems, &mut scan_both);
    let captions = read(source, CAPTIONS_PATH, &mut problems)
        .and_then(|text| {
            scan_both(CAPTIONS_PATH, &text);
            captions::parse(CAPTIONS_PATH, &text, &mut problems)
        })
        .unwrap_or_default();
    let moments = read(source, super::MOMENTS_PATH, &mut problems)
        .and_then(|text| {
            scan_both(super::MOMENTS_PATH, &text);
            moments::parse(super::MOMENTS_PATH, &text, &mut problems)
        })
        .unwrap_or_default();
    problems.append(&mut term_problems);
    let chapter_ids: Vec<String> = de.chapters.iter().map(|c| c.id.clone()).collect();
    let scenario_ids: Vec<String> = scenarios.iter().map(|s| s.id.clone()).collect();
    let known = super::LabsKnown {
        chapters: &chapter_ids,
        scenarios: &scenario_ids,
    };
    let labs = super::load_labs(source, known, &mut problems);
    // A lab's brief and hints follow their language's glossary like every course text.
    for lab in &labs {
        for (lang, course) in [(Lang::De, &de), (Lang::En, &en)] {
            let path = format!("labs/{}/brief.{lang}.md", lab.id);
            if let Some(brief) = lab.brief.get(&lang) {
                course.glossary.scan(&path, brief, None, &mut problems);
            }
            let path = format!("labs/{}/lab.toml", lab.id);
            let hints = lab
                .hints
                .get(&lang)
                .map(|h| h.join("\n"))
                .unwrap_or_default();
            course.glossary.scan(&path, &hints, None, &mut problems);
        }
    }
    let content = Content {
        de: OnceLock::from(de),
        en: OnceLock::from(en),
        strings_de: OnceLock::new(),
        strings_en: OnceLock::new(),
        lazy: false,
        scenarios: Deferred::ready(scenarios),
        captions: Deferred::ready(captions),
        moments: Deferred::ready(moments),
        labs: Deferred::ready(labs),
    };
    if problems.is_empty() {
        validate::check(&content, &mut problems);
    }
    if problems.is_empty() {
        Ok(content)
    } else {
        Err(problems)
    }
}

fn read(source: &ContentSource, path: &str, problems: &mut Vec<Problem>) -> Option<String> {
    match source.read(path) {
        Ok(Some(text)) => Some(text),
        Ok(None) => {
            problems.push(Problem::file(
                path,
                format!("missing file (looked in {})", source.describe()),
            ));
            None
        }
        Err(message) => {
            problems.push(Problem::file(path, message));
            None
        }
    }
}

/// Whether a course's texts are held against its glossary while loading.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Terms {
    /// Scan every text (`check`, `--content DIR`, the tests).
    Check,
    /// Skip the scan: the embedded copy, which the tests and `queuelab check` in CI have
    /// scanned (the scan costs more than all the parsing at start).
    Trust,
}

fn load_course(
    source: &ContentSource,
    lang: Lang,
    terms: Terms,
    problems: &mut Vec<Problem>,
) -> Course {
    let mut course = Course::default();
    let path = format!("lessons/{lang}/glossary.toml");
    if let Some(text) = read(source, &path, problems) {
        course.glossary = glossary::parse(&path, &text, problems);
    }
    let glossary = course.glossary.clone();
    // Every text of this language follows its glossary; a rejected synonym is a problem.
    let read = |path: &str, problems: &mut Vec<Problem>| {
        let text = read(source, path, problems)?;
        if terms == Terms::Check {
            glossary.scan(path, &text, None, problems);
        }
        Some(text)
    };
    let dir = format!("lessons/{lang}/chapters");
    let files: Vec<String> = source
        .list(&dir)
        .into_iter()
        .filter(|n| has_extension(n, "md"))
        .collect();
    if files.is_empty() {
        problems.push(Problem::file(
            &dir,
            format!("no chapters found (looked in {})", source.describe()),
        ));
    }
    for name in files {
        let path = format!("{dir}/{name}");
        if let Some(text) = read(&path, problems) {
            course
                .chapters
                .extend(chapter::parse(&path, &name, &text, problems));
        }
    }
    let path = format!("lessons/{lang}/decisions.toml");
    if let Some(text) = read(&path, problems) {
        course.decisions = decision::parse(&path, &text, problems);
    }
    let path = format!("lessons/{lang}/ordering.toml");
    if let Some(text) = read(&path, problems) {
        course.ordering = ordering::parse(&path, &text, problems);
    }
    let path = format!("lessons/{lang}/reference.toml");
    if let Some(text) = read(&path, problems) {
        course.reference = reference::parse(&path, &text, problems);
    }
    let path = format!("quiz/{lang}/quiz.toml");
    if let Some(text) = read(&path, problems) {
        course.quiz = quiz::parse(&path, &text, problems);
    }
    let path = format!("assets/strings/{lang}.toml");
    if let Some(text) = read(&path, problems) {
        course.strings = strings::parse(&path, &text, problems);
    }
    course
}

fn load_scenarios(
    source: &ContentSource,
    problems: &mut Vec<Problem>,
    scan: &mut impl FnMut(&str, &str),
) -> Vec<Scenario> {
    let mut scenarios = Vec::new();
    // The menu position each file claimed first: (position -> (id, path)).
    let mut positions: std::collections::HashMap<u32, (String, String)> =
        std::collections::HashMap::new();
    let mut names = source.list("assets/scenarios");
    names.sort();
    for name in names.into_iter().filter(|n| has_extension(n, "toml")) {
        let path = format!("assets/scenarios/{name}");
        if let Some(text) = read(source, &path, problems) {
            scan(&path, &text);
            let parsed = scenario::parse(&path, &name, &text, problems);
            if let Some(s) = &parsed {
                if let Some((other, other_path)) = positions.get(&s.position) {
                    let offset = text.find("position").unwrap_or(0);
                    problems.push(Problem::at_offset(
                        &path,
                        &text,
                        offset,
                        format!(
                            "position {} is taken by scenario {other:?} ({other_path}); \
                             each scenario needs its own place in the menu",
                            s.position
                        ),
                    ));
                } else {
                    positions.insert(s.position, (s.id.clone(), path.clone()));
                }
            }
            scenarios.extend(parsed);
        }
    }
    scenarios.sort_by(|a, b| (a.position, &a.id).cmp(&(b.position, &b.id)));
    scenarios
}

fn has_extension(name: &str, extension: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(extension))
}

/// Parses one content file on its own, by its path relative to the content root, and returns
/// what is wrong with it (cross-file checks need [`load`]). The fuzz tests feed it mutated text.
pub fn parse_one(path: &str, text: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    let name = path.rsplit('/').next().unwrap_or(path);
    if path.contains("/chapters/") {
        chapter::parse(path, name, text, &mut problems);
    } else if path.starts_with("assets/scenarios/") {
        scenario::parse(path, name, text, &mut problems);
    } else if path.starts_with("assets/strings/") {
        strings::parse(path, text, &mut problems);
    } else if path.starts_with("quiz/") {
        quiz::parse(path, text, &mut problems);
    } else {
        match name {
            "decisions.toml" => drop(decision::parse(path, text, &mut problems)),
            "ordering.toml" => drop(ordering::parse(path, text, &mut problems)),
            "glossary.toml" => drop(glossary::parse(path, text, &mut problems)),
            "reference.toml" => drop(reference::parse(path, text, &mut problems)),
            _ => problems.push(Problem::file(path, "not a content file queuelab knows")),
        }
    }
    problems
}

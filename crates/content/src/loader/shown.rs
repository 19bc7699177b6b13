//! The TUI's start from the embedded copy: Home needs only the UI strings of the language
//! shown, and those are compiled into the binary (`build.rs`), so nothing is parsed before the
//! first frame; the course follows on first use (the runtime asks for it on a thread right
//! after the first frame) and the other language when it is switched to.

use super::{
    CAPTIONS_PATH, Content, ContentSource, Course, Deferred, Lang, Problem, Strings, Terms,
    captions, load, load_course, load_scenarios, moments, read,
};
use crate::MOMENTS_PATH;
use std::sync::OnceLock;

/// The content the TUI starts with: from a folder (`--content DIR`), everything is loaded and
/// validated as by [`load`]; from the embedded copy, only the UI strings in `lang` are parsed
/// now, each course and the simulator's files on first use. The embedded copy is fixed at
/// build time and the test suite and `queuelab check` in CI validate all of it, so the
/// cross-file checks and the glossary scan are not repeated at every start.
pub fn load_shown(source: &ContentSource, lang: Lang) -> Result<Content, Vec<Problem>> {
    if *source != ContentSource::Embedded {
        return load(source);
    }
    let shown = Strings::built(lang);
    let content = Content {
        de: OnceLock::new(),
        en: OnceLock::new(),
        strings_de: OnceLock::new(),
        strings_en: OnceLock::new(),
        lazy: true,
        scenarios: Deferred::later(|| {
            embedded(|problems| load_scenarios(&ContentSource::Embedded, problems, &mut |_, _| {}))
        }),
        captions: Deferred::later(|| {
            embedded(|problems| {
                read(&ContentSource::Embedded, CAPTIONS_PATH, problems)
                    .and_then(|text| captions::parse(CAPTIONS_PATH, &text, problems))
                    .unwrap_or_default()
            })
        }),
        moments: Deferred::later(|| {
            embedded(|problems| {
                read(&ContentSource::Embedded, MOMENTS_PATH, problems)
                    .and_then(|text| moments::parse(MOMENTS_PATH, &text, problems))
                    .unwrap_or_default()
            })
        }),
        // The embedded labs were checked against the chapters and scenarios by `check` in CI.
        labs: Deferred::later(|| {
            embedded(|problems| {
                let known = crate::LabsKnown {
                    chapters: &[],
                    scenarios: &[],
                };
                crate::load_labs(&ContentSource::Embedded, known, problems)
            })
        }),
    };
    let _ = content.strings_cell(lang).set(shown);
    Ok(content)
}

impl Content {
    /// The UI strings in `lang`: the course's once it is parsed, before that the ones parsed
    /// ahead of it (so the first frame never waits for chapters and quiz).
    pub fn strings(&self, lang: Lang) -> &Strings {
        let course = match lang {
            Lang::De => &self.de,
            Lang::En => &self.en,
        };
        if let Some(course) = course.get() {
            return &course.strings;
        }
        if !self.lazy {
            return &self.course(lang).strings;
        }
        self.strings_cell(lang).get_or_init(|| Strings::built(lang))
    }

    /// Whether the course in `lang` is parsed yet (the first frame does without it).
    pub fn course_parsed(&self, lang: Lang) -> bool {
        match lang {
            Lang::De => self.de.get().is_some(),
            Lang::En => self.en.get().is_some(),
        }
    }

    fn strings_cell(&self, lang: Lang) -> &OnceLock<Strings> {
        match lang {
            Lang::De => &self.strings_de,
            Lang::En => &self.strings_en,
        }
    }
}

/// Parses the embedded course in `lang` on first use (see [`load_shown`]).
pub(super) fn embedded_course(lang: Lang) -> Course {
    let mut problems = Vec::new();
    let course = load_course(&ContentSource::Embedded, lang, Terms::Trust, &mut problems);
    expect_valid(&problems);
    course
}

/// Parses a part of the embedded copy (valid by the tests and `queuelab check`).
fn embedded<T>(parse: impl FnOnce(&mut Vec<Problem>) -> T) -> T {
    let mut problems = Vec::new();
    let value = parse(&mut problems);
    expect_valid(&problems);
    value
}

fn expect_valid(problems: &[Problem]) {
    assert!(
        problems.is_empty(),
        "the embedded content is fixed at build time and validated by the tests and `queuelab check`: {problems:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shown_strings_come_first_and_each_course_on_first_use() {
        let full = load(&ContentSource::Embedded).expect("embedded content is valid");
        let shown = load_shown(&ContentSource::Embedded, Lang::De).expect("valid");
        assert!(shown.strings_de.get().is_some(), "German strings are ready");
        assert!(
            shown.de.get().is_none(),
            "the German course waits for its first use"
        );
        assert_eq!(shown.strings(Lang::De), &full.course(Lang::De).strings);
        assert!(shown.en.get().is_none(), "English waits until it is shown");
        assert_eq!(shown.course(Lang::En), full.course(Lang::En));
        assert_eq!(shown.course(Lang::De), full.course(Lang::De));
        assert_eq!(shown.strings(Lang::En), &full.course(Lang::En).strings);
        assert!(
            !shown.scenarios.is_ready(),
            "the simulator's files wait too"
        );
        assert_eq!(shown.scenarios, full.scenarios);
        assert_eq!(shown.captions, full.captions);
        assert_eq!(shown.moments, full.moments);
    }

    #[test]
    fn a_content_folder_is_still_loaded_and_validated_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let problems = load_shown(&ContentSource::Disk(dir.path().to_path_buf()), Lang::En)
            .expect_err("an empty folder has no content");
        assert!(
            problems
                .iter()
                .any(|p| p.to_string().contains("lessons/de")),
            "the language not shown is checked too: {problems:?}"
        );
    }
}

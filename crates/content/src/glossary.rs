//! The glossary (`lessons/LANG/glossary.toml`): one term per concept and the synonyms the
//! course rejects. `queuelab check` reports every use of a rejected synonym in the texts of
//! that language, so chapters, decisions, quiz, strings and scenarios say the same thing the
//! same way.

use super::Problem;
use super::toml_file::{self, at, check_ids, check_text, check_version};
use serde::Deserialize;
use toml::Spanned;

/// The agreed terms of one language.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Glossary {
    /// The terms, in file order.
    pub terms: Vec<Term>,
    /// Words that claim no exception exists ("never", "nur"), lowercase, with their
    /// inflections: on a quiz or decision option they are a cue to the answer.
    pub absolute_words: Vec<String>,
}

/// One concept: the word the course uses and the words it does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// Stable id, identical in every language (`consumer`).
    pub id: String,
    /// The word the course uses.
    pub term: String,
    /// What it means, in one sentence.
    pub meaning: String,
    /// Synonyms a text must not use for this concept.
    pub rejected: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    #[serde(default)]
    absolute_words: Vec<Spanned<String>>,
    #[serde(default)]
    term: Vec<RawTerm>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerm {
    id: Spanned<String>,
    term: Spanned<String>,
    meaning: Spanned<String>,
    #[serde(default)]
    rejected: Vec<Spanned<String>>,
}

/// Parses and checks one glossary file.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Glossary {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return Glossary::default();
        }
    };
    check_version(path, text, &file.format_version, problems);
    check_ids(
        path,
        text,
        "term",
        file.term.iter().map(|t| &t.id),
        problems,
    );
    for raw in &file.term {
        check_text(path, text, "term", &raw.term, problems);
        check_text(path, text, "meaning", &raw.meaning, problems);
        for word in &raw.rejected {
            check_text(path, text, "rejected synonym", word, problems);
            if find_word(raw.term.get_ref(), word.get_ref()).is_some() {
                problems.push(at(
                    path,
                    text,
                    word,
                    format!(
                        "rejected synonym {:?} is part of the term {:?} itself",
                        word.get_ref(),
                        raw.term.get_ref()
                    ),
                ));
            }
        }
    }
    for word in &file.absolute_words {
        check_text(path, text, "absolute word", word, problems);
        if word
            .get_ref()
            .chars()
            .any(|c| !c.is_alphanumeric() || c.is_uppercase())
        {
            problems.push(at(
                path,
                text,
                word,
                format!(
                    "absolute word {:?} must be one lowercase word",
                    word.get_ref()
                ),
            ));
        }
    }
    Glossary {
        absolute_words: file
            .absolute_words
            .into_iter()
            .map(Spanned::into_inner)
            .collect(),
        terms: file
            .term
            .into_iter()
            .map(|t| Term {
                id: t.id.into_inner(),
                term: t.term.into_inner(),
                meaning: t.meaning.into_inner(),
                rejected: t.rejected.into_iter().map(Spanned::into_inner).collect(),
            })
            .collect(),
    }
}

impl Glossary {
    /// Reports every rejected synonym in `text`. Code (fenced blocks and `inline` spans) is
    /// skipped: identifiers are not prose. With `section`, only lines under a TOML table whose
    /// name ends in that segment are read (`[text.de]`, `[de]`), for files holding both
    /// languages.
    pub fn scan(&self, path: &str, text: &str, section: Option<&str>, out: &mut Vec<Problem>) {
        let mut in_fence = false;
        let mut in_section = section.is_none();
        for (index, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") {
                in_fence = !in_fence;
                continue;
            }
            if let Some(wanted) = section
                && trimmed.starts_with('[')
            {
                let name = trimmed.trim_matches(|c| c == '[' || c == ']' || c == ' ');
                in_section = name.rsplit('.').next() == Some(wanted);
                continue;
            }
            if in_fence || !in_section {
                continue;
            }
            let prose = blank_code_spans(line);
            // A split verb's tail often wraps onto the next line ("schreibt den Auftrag\nfest").
            let next = text
                .lines()
                .nth(index + 1)
                .map(blank_code_spans)
                .unwrap_or_default();
            for term in &self.terms {
                for word in &term.rejected {
                    if let Some(column) = find_rejected(&prose, &next, word) {
                        out.push(Problem {
                            path: path.to_owned(),
                            line: index + 1,
                            column: prose[..column].chars().count() + 1,
                            message: format!(
                                "{word:?} is a rejected synonym; the glossary term is {:?}",
                                term.term
                            ),
                        });
                    }
                }
            }
        }
    }
}

/// Separates the two parts of a rejected split verb: "schreibt … fest".
const SPLIT: &str = " … ";

/// Where `word` starts in `line`. A split verb ("schreibt … fest") counts when its tail stands
/// as a whole word later in the same sentence, on this line or the next.
fn find_rejected(line: &str, next: &str, word: &str) -> Option<usize> {
    let Some((head, tail)) = word.split_once(SPLIT) else {
        return find_word(line, word).or_else(|| find_across_break(line, next, word));
    };
    let start = find_word(line, head)?;
    let after = format!("{} {next}", &line[start + head.len()..]);
    let sentence = after
        .split(['.', '!', '?', ';', ':'])
        .next()
        .unwrap_or_default();
    sentence
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .any(|w| w == tail)
        .then_some(start)
}

/// Where a rejected phrase of several words ("Redrive Policy") starts when it wraps from the end
/// of `line` onto `next`. It counts on the line where it starts; a phrase wholly on the next line
/// is that line's finding.
fn find_across_break(line: &str, next: &str, word: &str) -> Option<usize> {
    if !word.contains(' ') {
        return None;
    }
    let line = line.trim_end();
    let joined = format!("{line} {}", next.trim_start());
    find_word(&joined, word).filter(|&start| start < line.len())
}

/// Replaces the text between backticks with spaces, keeping byte offsets.
fn blank_code_spans(line: &str) -> String {
    let mut in_code = false;
    line.chars()
        .map(|c| {
            if c == '`' {
                in_code = !in_code;
                ' '
            } else if in_code {
                // Keep the byte length so columns stay right.
                if c.is_ascii() { ' ' } else { c }
            } else {
                c
            }
        })
        .collect()
}

/// Byte offset of the first place where `word` starts a word in `text`. Only the first letter
/// may differ in case (a sentence start), so vendor titles such as "Dead-letter queues" are not
/// taken for the German "Dead-Letter Queue". A longer word with the same start counts, so
/// "Konsument" also finds "Konsumenten"; a word joined by `-`, `_`, `.` or `/` to the one before
/// is part of an identifier or compound and does not count.
pub(crate) fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut chars = word.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    // A plain substring search for the word without its first letter finds the few candidates;
    // only there is the first letter compared without case. Comparing the case of every
    // position of every line made `queuelab check` spend most of its time here.
    let mut from = 0;
    while let Some(found) = text.get(from..)?.find(rest) {
        let after_first = from + found;
        if let Some(c) = text[..after_first].chars().next_back()
            && (c == first || c.to_lowercase().eq(first.to_lowercase()))
        {
            let start = after_first - c.len_utf8();
            let joined = text[..start]
                .chars()
                .next_back()
                .is_some_and(|b| b.is_alphanumeric() || "-_./".contains(b));
            if !joined {
                return Some(start);
            }
        }
        // The next candidate may overlap this one: go on one character further.
        from = after_first + text[after_first..].chars().next().map_or(1, char::len_utf8);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"format_version = 1
[[term]]
id = "consumer"
term = "Consumer"
meaning = "m"
rejected = ["Konsument"]
"#;

    fn scan(text: &str, section: Option<&str>) -> Vec<Problem> {
        let mut problems = Vec::new();
        let glossary = parse("g.toml", GOOD, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        glossary.scan("x.md", text, section, &mut problems);
        problems
    }

    #[test]
    fn finds_rejected_words_at_word_starts_only() {
        let found = scan(
            "Der Konsument\nkein Unterkonsument\ndie Konsumenten\nDLQ-Konsument\nkonsument",
            None,
        );
        let lines: Vec<usize> = found.iter().map(|p| p.line).collect();
        assert_eq!(lines, [1, 3, 5]);
        assert_eq!(found[0].column, 5);
        assert_eq!(
            found[0].message,
            "\"Konsument\" is a rejected synonym; the glossary term is \"Consumer\""
        );
    }

    #[test]
    fn finds_a_split_verb_within_its_sentence_also_across_a_line_break() {
        let glossary = Glossary {
            terms: vec![Term {
                id: "commit".into(),
                term: "committen".into(),
                meaning: "m".into(),
                rejected: vec!["schreibt … fest".into()],
            }],
            absolute_words: Vec::new(),
        };
        let mut found = Vec::new();
        let text = "Die API schreibt den Auftrag fest.\nSie schreibt den Auftrag\nfest, dann sendet sie.\nSie schreibt. Fest steht: nichts.\nschreibt festlich";
        glossary.scan("x.md", text, None, &mut found);
        let lines: Vec<usize> = found.iter().map(|p| p.line).collect();
        assert_eq!(lines, [1, 2], "{found:?}");
        assert_eq!(found[0].column, 9);
    }

    #[test]
    fn finds_a_phrase_of_several_words_split_across_a_line_break_once() {
        let glossary = Glossary {
            terms: vec![Term {
                id: "redrive-policy".into(),
                term: "Redrive-Policy".into(),
                meaning: "m".into(),
                rejected: vec!["Redrive Policy".into()],
            }],
            absolute_words: Vec::new(),
        };
        let mut found = Vec::new();
        let text = "aus der Redrive\n   Policy dort\nRedrive\nPolicy Redrive Policy\nRedrive-Policy\nRedrive\nPolitik";
        glossary.scan("x.md", text, None, &mut found);
        let at: Vec<(usize, usize)> = found.iter().map(|p| (p.line, p.column)).collect();
        // Line 3 starts one phrase and line 4 holds a whole one: each is found once.
        assert_eq!(at, [(1, 9), (3, 1), (4, 8)], "{found:?}");
    }

    #[test]
    fn skips_code_and_other_sections() {
        assert!(scan("```text\nKonsument\n```\n`Konsument` x", None).is_empty());
        let mixed = "[text.en]\nx = \"Konsument\"\n[text.de]\ny = \"Konsument\"\n";
        let found = scan(mixed, Some("de"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line, 4);
    }

    #[test]
    fn find_word_takes_the_first_free_start_after_joined_and_overlapping_ones() {
        // Joined to the word before: skipped; the free one after it counts.
        assert_eq!(
            find_word("DLQ-Konsument und Konsument", "Konsument"),
            Some(18)
        );
        // "aa" after the space has no "a" before it; the "aa" that overlaps it has.
        assert_eq!(find_word(" aaa", "aaa"), Some(1));
        assert_eq!(find_word("-ab ab", "ab"), Some(4));
        // Only the first letter may differ in case, also outside ASCII.
        assert_eq!(find_word("die Überlast", "überlast"), Some(4));
        assert_eq!(find_word("die ÜBERLAST", "überlast"), None);
        // One letter, at the very end, and nothing found.
        assert_eq!(find_word("x y", "y"), Some(2));
        assert_eq!(find_word("xy", "y"), None);
        assert_eq!(find_word("", "y"), None);
        assert_eq!(find_word("text", ""), None);
    }
}

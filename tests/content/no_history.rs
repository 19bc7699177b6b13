//! The code speaks of the product, not of how it came to be: a comment states the rule itself,
//! so a reader with only this repository can follow it. This test walks the code, the manifests,
//! the build scripts and CI and refuses, in comments and test attributes, references to
//! documents and trackers a clone does not have (a specification's sections, issue numbers,
//! review rounds) and dated history ("Until" or "On" followed by a date). "Review" as a product
//! word (the quiz's review of wrong answers) and dates in fixtures (string literals) stay allowed.

use std::path::{Path, PathBuf};

/// Where code lives: folders walked recursively, and single files at the root.
const FOLDERS: [&str; 5] = ["src", "crates", "tests", "benches", ".ci"];
const ROOT_FILES: [&str; 1] = ["Cargo.toml"];
/// Files whose comments are read: Rust, TOML, shell and Python, and extension-less scripts.
const EXTENSIONS: [&str; 4] = ["rs", "toml", "sh", "py"];
/// Folders that hold output or data, not code.
const SKIPPED: [&str; 3] = ["target", "snapshots", "fixtures"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn code_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIPPED.contains(&name.as_str()) {
                code_files(&path, out);
            }
        } else {
            let extension = path.extension().map(|e| e.to_string_lossy().into_owned());
            let script = extension.is_none();
            if script || extension.is_some_and(|e| EXTENSIONS.contains(&e.as_str())) {
                out.push(path);
            }
        }
    }
}

/// The comment of one line: Rust's `//` (and the reason of an `#[ignore = ...]`), or `#` in
/// TOML, shell and Python; the first marker that does not stand inside a string literal.
fn comment_of(line: &str, rust: bool) -> Option<&str> {
    let trimmed = line.trim_start();
    if rust && trimmed.starts_with("#[ignore") {
        return Some(trimmed);
    }
    let marker = if rust { "//" } else { "#" };
    let mut in_string = false;
    let mut escaped = false;
    for (at, c) in line.char_indices() {
        if in_string {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => in_string = false,
                _ => escaped = false,
            }
        } else if c == '"' {
            in_string = true;
        } else if line[at..].starts_with(marker) {
            return Some(&line[at..]);
        }
    }
    None
}

/// Whether `text[at..]` starts a word (no letter, digit or `_` right before it).
fn starts_word(text: &str, at: usize) -> bool {
    !text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// Whether `text[at..]` ends a word (no letter, digit or `_` right after `len` bytes).
fn ends_word(text: &str, at: usize, len: usize) -> bool {
    !text[at + len..]
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// Every position where `word` (compared without case when `any_case`) starts a word.
fn word_starts(text: &str, word: &str, any_case: bool) -> Vec<usize> {
    let haystack = if any_case {
        text.to_ascii_lowercase()
    } else {
        text.to_owned()
    };
    haystack
        .match_indices(word)
        .map(|(at, _)| at)
        .filter(|&at| starts_word(text, at))
        .collect()
}

/// Whether `text` begins with `pattern`, where `9` stands for any ASCII digit.
fn shaped_like(text: &str, pattern: &str) -> bool {
    text.len() >= pattern.len()
        && text.bytes().zip(pattern.bytes()).all(|(t, p)| {
            if p == b'9' {
                t.is_ascii_digit()
            } else {
                t == p
            }
        })
}

/// The words this test looks for, built from parts so that the test's own source does not
/// spell the citations it refuses.
fn spec() -> String {
    ["SP", "EC"].concat()
}

fn issue() -> String {
    ["is", "sue "].concat()
}

fn review(ordinal: &str) -> String {
    [ordinal, " re", "view"].concat()
}

/// What `comment` cites that a clone of the repository cannot look up, by rule name.
fn citations(comment: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    if word_starts(comment, &spec(), false)
        .into_iter()
        .any(|at| ends_word(comment, at, 4))
    {
        found.push("a specification's section");
    }
    if word_starts(comment, &issue(), true)
        .into_iter()
        .any(|at| comment[at + 6..].starts_with(|c: char| c.is_ascii_digit()))
    {
        found.push("an issue number");
    }
    let rounds = ["second", "third", "fourth", "fifth"].map(review);
    let round_word = [&review("")[1..], " round"].concat();
    if rounds
        .iter()
        .any(|round| !word_starts(comment, round, true).is_empty())
        || !word_starts(comment, &round_word, true).is_empty()
    {
        found.push("a review round");
    }
    let dated = ["Until ", "On "].iter().any(|lead| {
        word_starts(comment, lead, false)
            .into_iter()
            .any(|at| shaped_like(&comment[at + lead.len()..], "9999-99-99"))
    });
    if dated {
        found.push("dated history");
    }
    found
}

/// Every citation in the code files under `root`, as `path:line: rule: comment`.
fn offences(root: &Path, skip: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for folder in FOLDERS {
        code_files(&root.join(folder), &mut files);
    }
    files.extend(ROOT_FILES.iter().map(|f| root.join(f)));
    let mut found = Vec::new();
    for file in files.iter().filter(|f| f.as_path() != skip) {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let rust = file.extension().is_some_and(|e| e == "rs");
        for (number, line) in text.lines().enumerate() {
            let Some(comment) = comment_of(line, rust) else {
                continue;
            };
            for rule in citations(comment) {
                let shown = file.strip_prefix(root).unwrap_or(file.as_path()).display();
                found.push(format!(
                    "{shown}:{}: {rule}: {}",
                    number + 1,
                    comment.trim()
                ));
            }
        }
    }
    found
}

#[test]
fn comments_state_rules_not_where_or_when_they_were_asked_for() {
    let this = root().join("tests/content/no_history.rs");
    let found = offences(root(), &this);
    assert!(
        found.is_empty(),
        "say the rule itself instead of citing where or when it was asked for: {found:#?}"
    );
}

#[test]
fn each_kind_of_citation_is_found_and_product_words_are_not() {
    let capital_issue = ["I", &issue()[1..]].concat();
    let round_word = [&review("")[1..], " round"].concat();
    let refused = [
        format!("// The confirmation flow of {} 1.6.", spec()),
        format!("/// Delivery takes 2 s at most ({capital_issue}14, item 5)."),
        format!("//! The rules from the {}: replay ids.", review("third")),
        format!("# Fixed in the {} of the host.", review("fourth")),
        format!("// Found in {round_word} 2."),
        [
            "// Un",
            "til 2026-12-02 the lab thread looked from the start.",
        ]
        .concat(),
        [
            "/// O",
            "n 2026-12-04 the set-up moved after the first frame.",
        ]
        .concat(),
        format!("#[ignore = \"the census of {}29\"]", issue()),
    ];
    for comment in &refused {
        assert!(!citations(comment).is_empty(), "not found in {comment:?}");
    }
    let allowed = [
        "// The quiz's review of wrong answers lists every second answer.".to_owned(),
        "/// A RunSpec names the scenario; SPECIAL keys and specs are words.".to_owned(),
        [
            "// The tis",
            "sue 4 sample and a reis",
            "sue 5 are no ticket numbers.",
        ]
        .concat(),
        "// The session's first day, like 2026-11-30, comes from the host.".to_owned(),
        "// Upon 2026-12-04 nothing; Onward.".to_owned(),
    ];
    for comment in &allowed {
        assert!(
            citations(comment).is_empty(),
            "wrongly found in {comment:?}"
        );
    }
}

#[test]
fn comments_are_told_from_code_and_strings() {
    let cited = format!("// {}3", issue());
    let line = format!("let url = \"https://x\"; {cited}");
    assert_eq!(comment_of(&line, true), Some(cited.as_str()));
    assert_eq!(comment_of("let date = \"On 2026-12-04\";", true), None);
    let cited = format!("# cold: {} 6", spec());
    let line = format!("opt-level = 1 {cited}");
    assert_eq!(comment_of(&line, false), Some(cited.as_str()));
    assert_eq!(
        comment_of("#[ignore = \"a census, not a check\"]", true),
        Some("#[ignore = \"a census, not a check\"]")
    );
}

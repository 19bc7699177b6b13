//! Shared helpers for the TOML content files: typed parsing with located errors.

use super::{FORMAT_VERSION, Problem};
use serde::de::DeserializeOwned;
use toml::Spanned;

/// Parses `text` as `T`, turning a TOML or shape error into a located problem.
pub fn parse<T: DeserializeOwned>(path: &str, text: &str) -> Result<T, Problem> {
    toml::from_str::<T>(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        Problem::at_offset(path, text, offset, e.message().trim().to_owned())
    })
}

/// Reports a `format_version` other than the one this build reads.
pub fn check_version(path: &str, text: &str, version: &Spanned<u32>, problems: &mut Vec<Problem>) {
    if *version.get_ref() != FORMAT_VERSION {
        problems.push(Problem::at_offset(
            path,
            text,
            version.span().start,
            format!(
                "format_version {} is not supported; this build reads format_version {FORMAT_VERSION}",
                version.get_ref()
            ),
        ));
    }
}

/// A problem located at a spanned value.
pub fn at<T>(path: &str, text: &str, value: &Spanned<T>, message: impl Into<String>) -> Problem {
    Problem::at_offset(path, text, value.span().start, message)
}

/// Reports ids that are empty, not kebab-case, or used twice within one list.
pub fn check_ids<'a>(
    path: &str,
    text: &str,
    what: &str,
    ids: impl IntoIterator<Item = &'a Spanned<String>>,
    problems: &mut Vec<Problem>,
) {
    let mut seen = std::collections::BTreeSet::new();
    for id in ids {
        let value = id.get_ref();
        if !is_valid_id(value) {
            problems.push(at(
                path,
                text,
                id,
                format!("{what} id {value:?} must be lowercase letters, digits and dashes"),
            ));
        } else if !seen.insert(value.clone()) {
            problems.push(at(path, text, id, format!("duplicate {what} id {value:?}")));
        }
    }
}

/// True for non-empty kebab-case ids such as `broker-down` or `q1`.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('-')
        && !id.ends_with('-')
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Reports an empty (or whitespace-only) text field.
pub fn check_text(
    path: &str,
    text: &str,
    field: &str,
    value: &Spanned<String>,
    problems: &mut Vec<Problem>,
) {
    if value.get_ref().trim().is_empty() {
        problems.push(at(path, text, value, format!("{field} must not be empty")));
    }
}

/// Reports an option whose text repeats an earlier option of the same question or card.
pub fn check_duplicate_options<'a>(
    path: &str,
    text: &str,
    owner: &str,
    options: impl IntoIterator<Item = (&'a Spanned<String>, &'a Spanned<String>)>,
    problems: &mut Vec<Problem>,
) {
    let mut seen: Vec<(String, &str)> = Vec::new();
    for (id, option_text) in options {
        let normal = option_text
            .get_ref()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        if let Some((_, first)) = seen.iter().find(|(t, _)| *t == normal) {
            problems.push(at(
                path,
                text,
                option_text,
                format!(
                    "{owner}: option {:?} has the same text as option {first:?}",
                    id.get_ref()
                ),
            ));
        } else {
            seen.push((normal, id.get_ref()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Sample {
        #[allow(dead_code)]
        name: String,
    }

    #[test]
    fn shape_errors_are_located() {
        let err = parse::<Sample>("x.toml", "\nname = 3\n")
            .err()
            .expect("error");
        assert_eq!((err.line, err.path.as_str()), (2, "x.toml"));
        let err = parse::<Sample>("x.toml", "name = \"a\"\nextra = 1\n")
            .err()
            .expect("error");
        assert_eq!(err.line, 2);
        assert!(err.message.contains("unknown field"), "{}", err.message);
    }

    #[test]
    fn ids_must_be_kebab_case() {
        assert!(is_valid_id("broker-down"));
        assert!(is_valid_id("q10"));
        assert!(!is_valid_id("Broker"));
        assert!(!is_valid_id("-x"));
        assert!(!is_valid_id(""));
    }
}

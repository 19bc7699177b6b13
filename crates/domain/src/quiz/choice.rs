//! Parsing a typed answer ("2" or "1,3") into option positions, shared by the plain CLI and the
//! TUI's number keys.

use content::key;
use std::collections::BTreeSet;

/// Why a typed answer was not accepted; `key()` names the UI string that explains it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChoiceError {
    /// Nothing was typed.
    Empty,
    /// A part is not a number.
    NotANumber(String),
    /// A number outside 1..=count.
    OutOfRange { number: usize, count: usize },
    /// More than one number for a single-choice question.
    OnlyOne,
    /// The same number twice.
    Repeated(usize),
}

impl ChoiceError {
    /// The UI string key for this error (placeholders: `{value}`, `{count}`).
    pub fn key(&self) -> content::Key {
        match self {
            ChoiceError::Empty => key::quiz::ERR_EMPTY,
            ChoiceError::NotANumber(_) => key::quiz::ERR_NOT_NUMBER,
            ChoiceError::OutOfRange { .. } => key::quiz::ERR_RANGE,
            ChoiceError::OnlyOne => key::quiz::ERR_ONLY_ONE,
            ChoiceError::Repeated(_) => key::quiz::ERR_REPEATED,
        }
    }

    /// The value to put into the message's `{value}` placeholder.
    pub fn value(&self) -> String {
        match self {
            ChoiceError::NotANumber(v) => v.clone(),
            ChoiceError::OutOfRange { number, .. } | ChoiceError::Repeated(number) => {
                number.to_string()
            }
            ChoiceError::Empty | ChoiceError::OnlyOne => String::new(),
        }
    }
}

/// Parses "2" or "1, 3" into zero-based positions among `count` shown options.
pub fn parse_choice(line: &str, count: usize, multi: bool) -> Result<BTreeSet<usize>, ChoiceError> {
    let parts: Vec<&str> = line
        .split([',', ' ', ';'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err(ChoiceError::Empty);
    }
    if !multi && parts.len() > 1 {
        return Err(ChoiceError::OnlyOne);
    }
    let mut chosen = BTreeSet::new();
    for part in parts {
        let number: usize = part
            .parse()
            .map_err(|_| ChoiceError::NotANumber(part.chars().take(20).collect()))?;
        if number == 0 || number > count {
            return Err(ChoiceError::OutOfRange { number, count });
        }
        if !chosen.insert(number - 1) {
            return Err(ChoiceError::Repeated(number));
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_single_and_multi() {
        assert_eq!(parse_choice(" 2 ", 4, false), Ok(BTreeSet::from([1])));
        assert_eq!(parse_choice("1,3", 4, true), Ok(BTreeSet::from([0, 2])));
        assert_eq!(parse_choice("4, 1", 4, true), Ok(BTreeSet::from([0, 3])));
    }

    #[test]
    fn rejects_bad_input_with_a_reason() {
        assert_eq!(parse_choice("  ", 4, false), Err(ChoiceError::Empty));
        assert_eq!(parse_choice("1,2", 4, false), Err(ChoiceError::OnlyOne));
        assert_eq!(
            parse_choice("x", 4, false),
            Err(ChoiceError::NotANumber("x".into()))
        );
        assert_eq!(
            parse_choice("5", 4, false),
            Err(ChoiceError::OutOfRange {
                number: 5,
                count: 4
            })
        );
        assert_eq!(
            parse_choice("0", 4, true),
            Err(ChoiceError::OutOfRange {
                number: 0,
                count: 4
            })
        );
        assert_eq!(parse_choice("2,2", 4, true), Err(ChoiceError::Repeated(2)));
        assert_eq!(
            parse_choice("-1", 4, true).map_err(|e| e.key()),
            Err(key::quiz::ERR_NOT_NUMBER)
        );
    }
}

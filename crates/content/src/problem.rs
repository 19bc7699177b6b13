//! A located content problem, printed by `queuelab check` as `path:line:column: message`.

use std::fmt;

/// One thing wrong with a content file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Path relative to the content root, e.g. `lessons/de/decisions.toml`.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong and, where possible, how to fix it.
    pub message: String,
}

impl Problem {
    /// A problem at a byte offset of `text`.
    pub fn at_offset(path: &str, text: &str, offset: usize, message: impl Into<String>) -> Self {
        let (line, column) = line_column(text, offset);
        Problem {
            path: path.to_owned(),
            line,
            column,
            message: message.into(),
        }
    }

    /// A problem about a whole file (reported at 1:1).
    pub fn file(path: &str, message: impl Into<String>) -> Self {
        Problem {
            path: path.to_owned(),
            line: 1,
            column: 1,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path, self.line, self.column, self.message
        )
    }
}

/// 1-based line and column (in characters) of a byte offset; offsets past the end clamp.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_lines_and_columns() {
        let text = "ab\ncdé\nf";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        assert_eq!(line_column(text, 7), (2, 4));
        assert_eq!(line_column(text, 8), (3, 1));
        assert_eq!(line_column(text, 999), (3, 2));
    }

    #[test]
    fn displays_in_check_format() {
        let p = Problem::file("quiz/de/quiz.toml", "missing");
        assert_eq!(p.to_string(), "quiz/de/quiz.toml:1:1: missing");
    }
}

//! Splits SQL text into statements at `;` outside quotes, comments and trigger bodies, keeping
//! each statement's byte offset so an error can name its line and column.

/// One statement: its text (without the `;`) and the byte offset of its first character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Piece {
    pub offset: usize,
    pub text: String,
}

/// The byte offset of the first character that is neither whitespace nor inside a comment.
pub(crate) fn first_code(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'-' if b.get(i + 1) == Some(&b'-') => {
                i = text[i..].find('\n').map_or(b.len(), |n| i + n + 1);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            }
            _ => return Some(i),
        }
    }
    None
}

/// True when the statement so far is a `CREATE [TEMP] TRIGGER` whose body has not ended yet
/// (its `;`s belong to the body until the `END`).
fn inside_trigger(stmt: &str) -> bool {
    let words: Vec<String> = stmt
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .take(3)
        .map(str::to_ascii_uppercase)
        .collect();
    let is_trigger = words.first().is_some_and(|w| w == "CREATE")
        && (words.get(1).is_some_and(|w| w == "TRIGGER")
            || (words
                .get(1)
                .is_some_and(|w| w == "TEMP" || w == "TEMPORARY")
                && words.get(2).is_some_and(|w| w == "TRIGGER")));
    if !is_trigger {
        return false;
    }
    let last = stmt
        .trim_end()
        .rsplit(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or_default();
    !last.eq_ignore_ascii_case("END")
}

/// Splits `text` into statements; blank pieces (only whitespace and comments) are dropped.
pub(crate) fn statements(text: &str) -> Vec<Piece> {
    let b = text.as_bytes();
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let push = |from: usize, to: usize, pieces: &mut Vec<Piece>| {
        let chunk = &text[from..to];
        if let Some(code) = first_code(chunk) {
            pieces.push(Piece {
                offset: from + code,
                text: chunk[code..].trim_end().to_owned(),
            });
        }
    };
    while i < b.len() {
        match b[i] {
            quote @ (b'\'' | b'"' | b'`') => {
                i += 1;
                while i < b.len() {
                    if b[i] == quote {
                        // A doubled quote is an escaped one.
                        if b.get(i + 1) == Some(&quote) {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'[' => i = text[i..].find(']').map_or(b.len(), |n| i + n + 1),
            b'-' if b.get(i + 1) == Some(&b'-') => {
                i = text[i..].find('\n').map_or(b.len(), |n| i + n + 1);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            }
            b';' => {
                let code = first_code(&text[start..i]).map_or(i, |c| start + c);
                if inside_trigger(&text[code..i]) {
                    i += 1;
                    continue;
                }
                push(start, i, &mut pieces);
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    push(start, b.len().max(start), &mut pieces);
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(sql: &str) -> Vec<String> {
        statements(sql).into_iter().map(|p| p.text).collect()
    }

    #[test]
    fn splits_at_semicolons_outside_quotes_and_comments() {
        let sql = "SELECT ';'; -- a; comment\nSELECT 2 /* ; */ ; \n\n";
        assert_eq!(texts(sql), vec!["SELECT ';'", "SELECT 2 /* ; */"]);
        assert_eq!(statements(sql)[1].offset, 26);
    }

    #[test]
    fn keeps_a_trigger_body_together() {
        let sql = "CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; SELECT 2; END; SELECT 3";
        assert_eq!(texts(sql).len(), 2);
    }

    #[test]
    fn a_lone_comment_is_no_statement_and_odd_input_does_not_panic() {
        assert!(texts("-- only a comment").is_empty());
        for odd in ["'", "\"", "/*", "[", "--", ";;;", "é;ü", "'';'"] {
            let _ = statements(odd);
        }
    }
}

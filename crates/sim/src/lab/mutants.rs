//! Mutants of a lab file: small changes a careless edit makes, each of which a good check must
//! notice. A reference solution whose mutant still passes either has a check too weak to see
//! the mistake, or the mutant is equivalent (it changes nothing that matters), which the lab's
//! `mutants.md` then says with its reason.
//!
//! The kinds: drop a `BEGIN`…`COMMIT` pair, swap two neighbouring statements, drop a
//! `CREATE UNIQUE INDEX`, drop one conjunct of a `WHERE` (an `AND` term at its own level).

use content::LabSection as Section;

use super::file::LabFile;

/// One mutant: a name that says what changed, and the whole file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant {
    /// `SECTION:KIND:DETAIL`, e.g. `handle:swap:2-3` (statements counted from 1).
    pub id: String,
    /// The mutated file.
    pub text: String,
}

fn starts_with_word(sql: &str, word: &str) -> bool {
    let t = sql.trim_start();
    t.len() >= word.len()
        && t[..word.len()].eq_ignore_ascii_case(word)
        && t[word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_ascii_alphanumeric() && c != '_')
}

/// Writes the sections back as a file, statement `i` of section `s` replaced by `edit`'s
/// answer (`None` drops it).
fn render(file: &LabFile, edit: &dyn Fn(usize, usize, &str) -> Option<String>) -> String {
    let mut out = String::new();
    for (s, section) in file.sections.iter().enumerate() {
        out.push_str("-- @");
        out.push_str(section.section.as_str());
        out.push('\n');
        for (i, stmt) in section.statements.iter().enumerate() {
            if let Some(sql) = edit(s, i, &stmt.sql) {
                out.push_str(&sql);
                out.push_str(";\n\n");
            }
        }
    }
    out
}

/// The byte ranges of the `AND` conjuncts after the first at each parenthesis level of `sql`:
/// `(start of " AND", end of its term)`.
fn conjuncts(sql: &str) -> Vec<(usize, usize)> {
    let upper = sql.to_ascii_uppercase();
    let bytes = upper.as_bytes();
    let mut depth: i32 = 0;
    let mut level = Vec::new(); // (index, depth) of each keyword that ends a term
    let mut ands = Vec::new();
    let mut in_text = false;
    let is_word_at = |i: usize, w: &str| {
        upper[i..].starts_with(w)
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric() && bytes[i - 1] != b'_')
            && bytes
                .get(i + w.len())
                .is_none_or(|c| !c.is_ascii_alphanumeric() && *c != b'_')
    };
    for (i, &byte) in bytes.iter().enumerate() {
        match byte {
            b'\'' => in_text = !in_text,
            _ if in_text => {}
            b'(' => depth += 1,
            b')' => {
                level.push((i, depth));
                depth -= 1;
            }
            _ => {
                for w in ["AND", "OR", "ORDER", "LIMIT", "RETURNING", "GROUP", "ON"] {
                    if is_word_at(i, w) {
                        level.push((i, depth));
                        if w == "AND" {
                            ands.push((i, depth));
                        }
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for (at, d) in ands {
        // BETWEEN x AND y is one term, not a conjunct.
        let before = upper[..at].trim_end();
        let prev_word = before
            .rsplit(|c: char| c.is_whitespace())
            .nth(1)
            .unwrap_or("");
        if prev_word == "BETWEEN" {
            continue;
        }
        let end = level
            .iter()
            .find(|(i, dd)| *i > at && *dd == d)
            .map_or(sql.len(), |(i, _)| *i);
        let start = sql[..at].trim_end().len();
        out.push((start, end));
    }
    out
}

/// Every mutant of `file`, in a stable order.
pub fn mutants(file: &LabFile) -> Vec<Mutant> {
    let mut out = Vec::new();
    for (s, section) in file.sections.iter().enumerate() {
        let name = section.section.as_str();
        let stmts = &section.statements;
        // Drop a BEGIN … COMMIT pair.
        let mut open = None;
        for (i, stmt) in stmts.iter().enumerate() {
            if starts_with_word(&stmt.sql, "BEGIN") {
                open = Some(i);
            } else if starts_with_word(&stmt.sql, "COMMIT")
                && let Some(b) = open.take()
            {
                out.push(Mutant {
                    id: format!("{name}:drop-transaction:{}-{}", b + 1, i + 1),
                    text: render(file, &|ss, ii, sql| {
                        (ss != s || (ii != b && ii != i)).then(|| sql.to_owned())
                    }),
                });
            }
        }
        // Swap two neighbouring statements.
        for i in 1..stmts.len() {
            out.push(Mutant {
                id: format!("{name}:swap:{}-{}", i, i + 1),
                text: render(file, &|ss, ii, sql| {
                    Some(match (ss == s, ii) {
                        (true, x) if x == i - 1 => stmts[i].sql.clone(),
                        (true, x) if x == i => stmts[i - 1].sql.clone(),
                        _ => sql.to_owned(),
                    })
                }),
            });
        }
        for (i, stmt) in stmts.iter().enumerate() {
            // Drop a unique index.
            if section.section == Section::Schema && starts_with_word(&stmt.sql, "CREATE UNIQUE") {
                out.push(Mutant {
                    id: format!("{name}:drop-unique:{}", i + 1),
                    text: render(file, &|ss, ii, sql| {
                        (ss != s || ii != i).then(|| sql.to_owned())
                    }),
                });
            }
            // Drop one conjunct.
            for (n, (a, b)) in conjuncts(&stmt.sql).into_iter().enumerate() {
                let cut = format!("{} {}", &stmt.sql[..a], &stmt.sql[b..]);
                out.push(Mutant {
                    id: format!("{name}:drop-conjunct:{}.{}", i + 1, n + 1),
                    text: render(file, &|ss, ii, sql| {
                        Some(if ss == s && ii == i {
                            cut.clone()
                        } else {
                            sql.to_owned()
                        })
                    }),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_made() {
        let file = LabFile::parse(
            "-- @schema\nCREATE UNIQUE INDEX i ON inbox (message_id);\n-- @handle\nBEGIN IMMEDIATE;\n\
             UPDATE outbox SET x = 1 WHERE a = 1 AND (b IS NULL OR b < 2) AND c BETWEEN 1 AND 3;\nCOMMIT;",
        )
        .expect("parses");
        let ids: Vec<String> = mutants(&file).into_iter().map(|m| m.id).collect();
        assert!(
            ids.contains(&"handle:drop-transaction:1-3".to_owned()),
            "{ids:?}"
        );
        assert!(ids.contains(&"handle:swap:1-2".to_owned()), "{ids:?}");
        assert!(ids.contains(&"schema:drop-unique:1".to_owned()), "{ids:?}");
        let conj: Vec<_> = ids.iter().filter(|i| i.contains("drop-conjunct")).collect();
        assert_eq!(conj.len(), 2, "the BETWEEN's AND is no conjunct: {ids:?}");
    }

    #[test]
    fn a_dropped_conjunct_leaves_the_rest_of_the_statement() {
        let sql = "SELECT 1 FROM t WHERE a = 1 AND b = 2 ORDER BY a";
        let (s, e) = conjuncts(sql)[0];
        assert_eq!(
            format!("{} {}", &sql[..s], &sql[e..]),
            "SELECT 1 FROM t WHERE a = 1 ORDER BY a"
        );
    }
}

//! The lab file: plain SQL split into sections by lines `-- @name`, each statement with its
//! line and column, and the errors a learner can make in it (`file:line:col: message`, the
//! message in the learner's language).

use content::key;
use std::fmt;
use std::io::Read;
use std::path::Path;

pub mod limits;
mod split;

use content::LabSection as Section;
use content::{Lang, Strings, problem_position};
use limits::{MAX_FILE_BYTES, MAX_STATEMENT_BYTES, human_bytes};

/// One SQL statement of a section, where it starts in the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Statement {
    /// The statement's text without its `;`.
    pub sql: String,
    /// 1-based line of its first character.
    pub line: usize,
    /// 1-based column of its first character.
    pub column: usize,
}

/// One `-- @name` section and its statements.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SectionText {
    /// Which hook point.
    pub section: Section,
    /// The line of its `-- @name` header.
    pub line: usize,
    /// Its statements in file order.
    pub statements: Vec<Statement>,
}

/// A parsed lab file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct LabFile {
    /// The sections in file order (each name at most once).
    pub sections: Vec<SectionText>,
}

/// What is wrong with a lab file or one of its statements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabFileErrorKind {
    /// `-- @name` with a name that is no hook point.
    UnknownSection(String),
    /// The same section twice.
    DuplicateSection(Section),
    /// SQL above the first `-- @name` line.
    SqlBeforeSection,
    /// A section the lab does not open.
    NotOpen(Section),
    /// More statements than [`Section::MAX_STATEMENTS`].
    TooManyStatements(Section),
    /// A `:name` the section does not bind.
    UnknownParameter {
        /// The parameter as written.
        name: String,
        /// The section.
        section: Section,
    },
    /// SQLite refused the statement (syntax, unknown table or column, constraint...).
    Sql(String),
    /// The authorizer refused an action (ATTACH, PRAGMA write, extension, other database).
    Forbidden(String),
    /// The statement used up its budget of work ("ran too long").
    TooLong,
    /// The section ended with a transaction still open.
    OpenTransaction,
    /// A side-effect function called in a section that does not offer it.
    FunctionNotHere {
        /// The function's name as the section that offers it documents it.
        name: String,
        /// The section it was called in.
        section: Section,
        /// The section that offers it.
        home: Section,
    },
    /// `@accept` ended without error but left no order row for `:request_id`.
    NoOrder,
    /// The last statement of `@claim` returned rows without a column the dispatcher needs
    /// (or with a value of the wrong type in it): the column's name.
    ClaimShape(String),
    /// `@claim` returned the same outbox row (this message id) again and again: the
    /// dispatcher would publish it for ever.
    ClaimedTooOften(String),
    /// A section the lab needs is missing or holds no statement (the engine would run nothing
    /// there, and the check would only report the orders that got lost).
    MissingSection(Section),
    /// The file is larger than a lab file may be (bytes).
    FileTooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// One statement is longer than a statement may be (bytes).
    StatementTooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The file is not UTF-8 text: the byte that is not.
    NotUtf8(u8),
    /// A string or blob grew past the limit (bytes).
    ValueTooBig {
        /// The limit.
        limit: usize,
    },
    /// The database grew past the limit (bytes).
    DatabaseFull {
        /// The limit.
        limit: usize,
    },
    /// SQLite's memory ran out at the limit (bytes).
    OutOfMemory {
        /// The limit.
        limit: usize,
    },
    /// The rows a statement returned hold more than the engine reads (bytes).
    ResultTooBig {
        /// The limit.
        limit: usize,
    },
    /// A drop of the engine's own table, index or trigger (`DROP TABLE outbox`).
    EngineObject(String),
    /// The file's trigger (or other schema) made the engine's own SQL fail.
    InEngineSql {
        /// The trigger that was running, when SQLite named one.
        trigger: Option<String>,
        /// What went wrong there.
        cause: Box<LabFileErrorKind>,
    },
}

/// A located lab-file error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabFileError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub kind: LabFileErrorKind,
}

impl LabFileError {
    /// The message (without position) in the language of `strings`.
    pub fn message(&self, strings: &Strings) -> String {
        use LabFileErrorKind as K;
        match &self.kind {
            K::UnknownSection(name) => strings.fill(
                key::lab::ERR_UNKNOWN_SECTION,
                &[("name", name), ("known", &known_sections())],
            ),
            K::DuplicateSection(s) => {
                strings.fill(key::lab::ERR_DUPLICATE_SECTION, &[("name", s.as_str())])
            }
            K::SqlBeforeSection => strings.get(key::lab::ERR_SQL_BEFORE_SECTION).to_owned(),
            K::NotOpen(s) => strings.fill(key::lab::ERR_NOT_OPEN, &[("name", s.as_str())]),
            K::TooManyStatements(s) => strings.fill(
                key::lab::ERR_TOO_MANY,
                &[
                    ("name", s.as_str()),
                    ("max", &Section::MAX_STATEMENTS.to_string()),
                ],
            ),
            K::UnknownParameter { name, section } => strings.fill(
                key::lab::ERR_UNKNOWN_PARAMETER,
                &[
                    ("param", name),
                    ("name", section.as_str()),
                    ("known", &known_parameters(*section)),
                ],
            ),
            K::Sql(text) => strings.fill(key::lab::ERR_SQL, &[("error", text)]),
            K::Forbidden(what) => strings.fill(key::lab::ERR_FORBIDDEN, &[("what", what)]),
            K::TooLong => too_long(strings),
            K::OpenTransaction => strings.get(key::lab::ERR_OPEN_TRANSACTION).to_owned(),
            K::FunctionNotHere {
                name,
                section,
                home,
            } => strings.fill(
                key::lab::ERR_FUNCTION_NOT_HERE,
                &[
                    ("function", name),
                    ("name", section.as_str()),
                    ("home", home.as_str()),
                ],
            ),
            K::NoOrder => strings.get(key::lab::ERR_NO_ORDER).to_owned(),
            K::ClaimedTooOften(message) => {
                strings.fill(key::lab::ERR_CLAIMED_TOO_OFTEN, &[("message", message)])
            }
            K::MissingSection(section) => {
                strings.fill(key::lab::ERR_MISSING_SECTION, &[("name", section.as_str())])
            }
            K::FileTooLarge { size, limit } => {
                over_size(strings, key::lab::ERR_FILE_TOO_LARGE, *size, *limit)
            }
            K::StatementTooLarge { size, limit } => {
                over_size(strings, key::lab::ERR_STATEMENT_TOO_LARGE, *size, *limit)
            }
            K::NotUtf8(byte) => {
                strings.fill(key::lab::ERR_NOT_UTF8, &[("byte", &format!("{byte:02X}"))])
            }
            K::ValueTooBig { limit } => at_limit(strings, key::lab::ERR_VALUE_TOO_BIG, *limit),
            K::DatabaseFull { limit } => at_limit(strings, key::lab::ERR_DATABASE_FULL, *limit),
            K::OutOfMemory { limit } => at_limit(strings, key::lab::ERR_OUT_OF_MEMORY, *limit),
            K::ResultTooBig { limit } => at_limit(strings, key::lab::ERR_RESULT_TOO_BIG, *limit),
            K::EngineObject(what) => strings.fill(key::lab::ERR_ENGINE_OBJECT, &[("what", what)]),
            K::InEngineSql { trigger, cause } => {
                self.in_engine_message(trigger.as_deref(), cause, strings)
            }
            K::ClaimShape(column) => strings.fill(
                key::lab::ERR_CLAIM_SHAPE,
                &[
                    ("column", column),
                    ("columns", &Section::Claim.returned_columns().join(", ")),
                ],
            ),
        }
    }

    /// The message for an error inside SQL the engine ran (a trigger, when SQLite named one):
    /// the cause in its own words, at the same place.
    fn in_engine_message(
        &self,
        trigger: Option<&str>,
        cause: &LabFileErrorKind,
        strings: &Strings,
    ) -> String {
        let cause = LabFileError {
            line: self.line,
            column: self.column,
            kind: cause.clone(),
        }
        .message(strings);
        match trigger {
            Some(name) => strings.fill(
                key::lab::ERR_IN_ENGINE_SQL_TRIGGER,
                &[("trigger", name), ("cause", &cause)],
            ),
            None => strings.fill(key::lab::ERR_IN_ENGINE_SQL, &[("cause", &cause)]),
        }
    }

    /// `file:line:col: message` in the language of `strings`.
    pub fn render(&self, file: &str, strings: &Strings) -> String {
        format!(
            "{file}:{}:{}: {}",
            self.line,
            self.column,
            self.message(strings)
        )
    }
}

impl fmt::Display for LabFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let english = Strings::built(Lang::En);
        write!(
            f,
            "{}:{}: {}",
            self.line,
            self.column,
            self.message(&english)
        )
    }
}

impl std::error::Error for LabFileError {}

/// The parameters a section knows, its scenario's included, for an unknown one's message.
fn known_parameters(section: Section) -> String {
    (section.parameters().iter())
        .chain(section.scenario_parameters())
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// The message for a statement that ran too long: its step and time limits.
fn too_long(strings: &Strings) -> String {
    strings.fill(
        key::lab::ERR_TOO_LONG,
        &[
            (
                "steps",
                &(limits::STEPS_PER_STATEMENT / 1_000_000).to_string(),
            ),
            ("seconds", &limits::STATEMENT_SECONDS.to_string()),
        ],
    )
}

/// The message for something larger than its limit (a file, a statement): both sizes.
fn over_size(strings: &Strings, key: content::Key, size: usize, limit: usize) -> String {
    strings.fill(
        key,
        &[("size", &human_bytes(size)), ("limit", &human_bytes(limit))],
    )
}

/// The message for a limit reached while running (a value, the database, memory, a result).
fn at_limit(strings: &Strings, key: content::Key, limit: usize) -> String {
    strings.fill(key, &[("limit", &human_bytes(limit))])
}

fn known_sections() -> String {
    Section::ALL
        .iter()
        .map(|s| format!("@{}", s.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The section name of a header line `-- @name` (surrounding spaces allowed), if it is one.
fn header(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("--")?.trim_start();
    let name = rest.strip_prefix('@')?;
    let name = name.trim_end();
    (!name.is_empty() && !name.contains(char::is_whitespace)).then_some(name)
}

impl LabFile {
    /// Parses a lab file: sections, statements and their positions. Parameters and SQL are
    /// checked later, against a database (`LabSql::prepare` in `queuelab-sim`).
    pub fn parse(text: &str) -> Result<LabFile, LabFileError> {
        if text.len() > MAX_FILE_BYTES {
            return Err(LabFileError {
                line: 1,
                column: 1,
                kind: LabFileErrorKind::FileTooLarge {
                    size: text.len(),
                    limit: MAX_FILE_BYTES,
                },
            });
        }
        let mut sections: Vec<SectionText> = Vec::new();
        // (section, header line, byte offset where its body starts)
        let mut open: Option<(Section, usize, usize)> = None;
        let mut offset = 0;
        let close = |open: Option<(Section, usize, usize)>,
                     end: usize,
                     sections: &mut Vec<SectionText>|
         -> Result<(), LabFileError> {
            match open {
                Some((section, line, start)) => {
                    sections.push(section_text(text, section, line, start, end)?);
                }
                None => {
                    if let Some(code) = split::first_code(&text[..end]) {
                        return Err(at(text, code, LabFileErrorKind::SqlBeforeSection));
                    }
                }
            }
            Ok(())
        };
        for (index, line) in text.split_inclusive('\n').enumerate() {
            if let Some(name) = header(line) {
                let Some(section) = Section::parse(name) else {
                    let col = line.find('@').unwrap_or(0);
                    return Err(at(
                        text,
                        offset + col + 1,
                        LabFileErrorKind::UnknownSection(name.to_owned()),
                    ));
                };
                if sections.iter().any(|s| s.section == section)
                    || open.is_some_and(|(s, ..)| s == section)
                {
                    return Err(at(
                        text,
                        offset,
                        LabFileErrorKind::DuplicateSection(section),
                    ));
                }
                close(open.take(), offset, &mut sections)?;
                open = Some((section, index + 1, offset + line.len()));
            }
            offset += line.len();
        }
        close(open, text.len(), &mut sections)?;
        Ok(LabFile { sections })
    }

    /// The section `s`, if the file has it.
    pub fn section(&self, s: Section) -> Option<&SectionText> {
        self.sections.iter().find(|t| t.section == s)
    }

    /// Refuses a file without a statement in a section the lab needs (`@handle`, `@accept`,
    /// `@claim`): the engine would run nothing there. Named at the section's header, or at
    /// the end of the file when the section is missing.
    pub fn requires(&self, opened: &[Section], text: &str) -> Result<(), LabFileError> {
        let needed = opened.iter().find(|s| {
            matches!(s, Section::Handle | Section::Accept | Section::Claim)
                && self.section(**s).is_none_or(|t| t.statements.is_empty())
        });
        let Some(&section) = needed else {
            return Ok(());
        };
        let line = self
            .section(section)
            .map_or_else(|| text.lines().count().max(1), |t| t.line);
        Err(LabFileError {
            line,
            column: 1,
            kind: LabFileErrorKind::MissingSection(section),
        })
    }

    /// Refuses a section the lab does not open (named at its header line).
    pub fn only(&self, opened: &[Section]) -> Result<(), LabFileError> {
        match self.sections.iter().find(|s| !opened.contains(&s.section)) {
            Some(s) => Err(LabFileError {
                line: s.line,
                column: 1,
                kind: LabFileErrorKind::NotOpen(s.section),
            }),
            None => Ok(()),
        }
    }
}

/// Why a lab file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The file system refused (missing file, no permission).
    Io(std::io::Error),
    /// The file is too large or not UTF-8: the learner's to fix, at its position.
    File(LabFileError),
}

/// Reads a lab file: refused, without reading it whole, when it is larger than a lab file may
/// be; a byte that is not UTF-8 is named at its line and column.
pub fn read(path: &Path) -> Result<String, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let too_large = |size: usize| {
        ReadError::File(LabFileError {
            line: 1,
            column: 1,
            kind: LabFileErrorKind::FileTooLarge {
                size,
                limit: MAX_FILE_BYTES,
            },
        })
    };
    let size = file.metadata().map_err(ReadError::Io)?.len();
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    if size > MAX_FILE_BYTES {
        return Err(too_large(size));
    }
    // The file may grow between the look and the read: read one byte past the limit at most.
    let mut bytes = Vec::with_capacity(size);
    let limit = u64::try_from(MAX_FILE_BYTES + 1).unwrap_or(u64::MAX);
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(bytes.len()));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = String::from_utf8_lossy(&bytes[..good]);
        ReadError::File(at(&before, good, LabFileErrorKind::NotUtf8(bytes[good])))
    })
}

fn at(text: &str, offset: usize, kind: LabFileErrorKind) -> LabFileError {
    let (line, column) = problem_position(text, offset);
    LabFileError { line, column, kind }
}

fn section_text(
    text: &str,
    section: Section,
    line: usize,
    start: usize,
    end: usize,
) -> Result<SectionText, LabFileError> {
    let body = &text[start..end];
    let pieces = split::statements(body);
    if pieces.len() > Section::MAX_STATEMENTS {
        let extra = &pieces[Section::MAX_STATEMENTS];
        return Err(at(
            text,
            start + extra.offset,
            LabFileErrorKind::TooManyStatements(section),
        ));
    }
    if let Some(long) = pieces.iter().find(|p| p.text.len() > MAX_STATEMENT_BYTES) {
        return Err(at(
            text,
            start + long.offset,
            LabFileErrorKind::StatementTooLarge {
                size: long.text.len(),
                limit: MAX_STATEMENT_BYTES,
            },
        ));
    }
    let statements = pieces
        .into_iter()
        .map(|p| {
            let (line, column) = problem_position(text, start + p.offset);
            Statement {
                sql: p.text,
                line,
                column,
            }
        })
        .collect();
    Ok(SectionText {
        section,
        line,
        statements,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_and_positions() {
        let text = "-- intro comment\n-- @schema\nCREATE INDEX a ON inbox(id);\n\n-- @handle\n  SELECT 1;\nSELECT :message_id\n";
        let file = LabFile::parse(text).expect("parses");
        assert_eq!(file.sections.len(), 2);
        let handle = file.section(Section::Handle).expect("handle");
        assert_eq!(handle.line, 5);
        assert_eq!(handle.statements[0].line, 6);
        assert_eq!(handle.statements[0].column, 3);
        assert_eq!(handle.statements[1].sql, "SELECT :message_id");
    }

    #[test]
    fn bad_headers_and_sql_before_a_section_are_located() {
        let e = LabFile::parse("-- @schema\n-- @nope\n").expect_err("unknown");
        assert_eq!((e.line, e.column), (2, 5));
        assert!(matches!(e.kind, LabFileErrorKind::UnknownSection(ref n) if n == "nope"));
        let e = LabFile::parse("\nSELECT 1;\n-- @handle\n").expect_err("before");
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, 1, LabFileErrorKind::SqlBeforeSection)
        );
        let e = LabFile::parse("-- @handle\n-- @handle\n").expect_err("twice");
        assert_eq!(e.line, 2);
    }

    #[test]
    fn too_many_statements_and_closed_sections_are_refused() {
        let text = format!(
            "-- @handle\n{}",
            "SELECT 1;\n".repeat(Section::MAX_STATEMENTS + 1)
        );
        let e = LabFile::parse(&text).expect_err("too many");
        assert_eq!(e.line, Section::MAX_STATEMENTS + 2);
        let file = LabFile::parse("-- @accept\nSELECT 1;").expect("parses");
        let e = file.only(&[Section::Handle]).expect_err("not open");
        assert_eq!(e.kind, LabFileErrorKind::NotOpen(Section::Accept));
    }

    #[test]
    fn messages_exist_in_both_languages() {
        for lang in Lang::ALL {
            let strings = Strings::built(lang);
            let e = LabFile::parse("-- @x\n").expect_err("unknown");
            let text = e.render("lab.sql", &strings);
            assert!(text.starts_with("lab.sql:1:5: "), "{text}");
            assert!(!text.contains("lab.err_"), "{text}");
        }
    }
}

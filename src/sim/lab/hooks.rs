//! [`LabSql`]: a lab file checked against a scratch database (sections the lab opens, known
//! parameters, SQL that prepares under the guard), ready for the engine's hook points; and the
//! plain functions that run one section's statements on a connection and name what went wrong.

use rusqlite::Connection;
use rusqlite::types::Value;

use super::file::{LabFile, LabFileError, LabFileErrorKind, Statement};
use super::guard::Guard;
use super::side_effects::SideEffects;
use crate::content::LabSection as Section;
use crate::sim::store::SERVICE_SQL;

/// A lab file that parsed and whose statements all prepare: what the engine runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabSql {
    file: LabFile,
    /// The sections the lab opens (the engine's own SQL runs everywhere else).
    opened: Vec<Section>,
}

/// Which learner statement wrote an effect: the trail a failure report names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrailEntry {
    /// Virtual time of the write, ms.
    pub at_ms: u64,
    /// The message being handled.
    pub message_id: String,
    /// The consumer instance.
    pub instance: String,
    /// The section.
    pub section: Section,
    /// Line of the statement in the lab file.
    pub line: usize,
    /// Column of the statement in the lab file.
    pub column: usize,
}

/// Every effect write of a run, in time order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trail {
    /// The entries.
    pub entries: Vec<TrailEntry>,
    /// The statements whose `charge(…)` made a new charge at the provider (a charge the
    /// provider answered from its idempotency key is not one), in time order.
    pub charges: Vec<TrailEntry>,
}

impl Trail {
    /// The statements that wrote effects for `message_id`, in time order.
    pub fn for_message<'a>(&'a self, message_id: &'a str) -> impl Iterator<Item = &'a TrailEntry> {
        self.entries
            .iter()
            .filter(move |e| e.message_id == message_id)
    }

    /// The statement that made the second new charge for `message_id`: the double charge.
    pub fn second_charge(&self, message_id: &str) -> Option<&TrailEntry> {
        self.charges
            .iter()
            .filter(|e| e.message_id == message_id)
            .nth(1)
    }
}

/// Why a statement did not run to its end.
#[derive(Debug)]
pub(crate) enum StatementError {
    /// The learner's file cannot run (forbidden action, budget used up): never the broker's
    /// business, always the file's.
    Learner(LabFileError),
    /// SQLite refused at run time (a constraint, a type): the engine's failure path decides.
    Runtime(rusqlite::Error),
}

/// The line and column `offset` bytes into `stmt` (for SQLite's error offsets).
fn position_in(stmt: &Statement, offset: usize) -> (usize, usize) {
    let mut end = offset.min(stmt.sql.len());
    while !stmt.sql.is_char_boundary(end) {
        end -= 1;
    }
    let before = &stmt.sql[..end];
    match before.rfind('\n') {
        None => (stmt.line, stmt.column + before.chars().count()),
        Some(nl) => (
            stmt.line + before.matches('\n').count(),
            before[nl + 1..].chars().count() + 1,
        ),
    }
}

fn located(stmt: &Statement, offset: usize, kind: LabFileErrorKind) -> LabFileError {
    let (line, column) = position_in(stmt, offset);
    LabFileError { line, column, kind }
}

/// The error of a statement that failed while `guard` watched: the guard's finding when it
/// caused the failure, else SQLite's message at SQLite's offset.
fn learner_error(stmt: &Statement, guard: &Guard, e: &rusqlite::Error) -> LabFileError {
    if let Some(kind) = guard.finding() {
        return located(stmt, 0, kind);
    }
    match e {
        rusqlite::Error::SqlInputError { msg, offset, .. } => located(
            stmt,
            usize::try_from(*offset).unwrap_or(0),
            LabFileErrorKind::Sql(msg.clone()),
        ),
        rusqlite::Error::SqliteFailure(_, Some(msg)) => {
            located(stmt, 0, LabFileErrorKind::Sql(msg.clone()))
        }
        other => located(stmt, 0, LabFileErrorKind::Sql(other.to_string())),
    }
}

/// Checks every parameter of a prepared statement against the section's list.
fn check_parameters(
    stmt: &Statement,
    prepared: &rusqlite::Statement<'_>,
    section: Section,
) -> Result<(), LabFileError> {
    for i in 1..=prepared.parameter_count() {
        let name = prepared.parameter_name(i).unwrap_or("?").to_owned();
        if !section.parameters().contains(&name.as_str()) {
            // The first place the name stands on its own (`:now` is not the start of `:now_ms`).
            let offset = stmt
                .sql
                .match_indices(&name)
                .map(|(at, _)| at)
                .find(|at| {
                    stmt.sql[at + name.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| !c.is_alphanumeric() && c != '_')
                })
                .unwrap_or(0);
            return Err(located(
                stmt,
                offset,
                LabFileErrorKind::UnknownParameter { name, section },
            ));
        }
    }
    Ok(())
}

/// Refuses a side-effect function called in a section that does not offer it, at the place
/// of the call (`calls`: what the authorizer saw while the statement prepared).
fn check_functions(
    stmt: &Statement,
    calls: &[String],
    section: Section,
) -> Result<(), LabFileError> {
    for name in calls {
        let Some(home) = Section::home_of(name) else {
            continue;
        };
        if home == section {
            continue;
        }
        let documented = home
            .functions()
            .iter()
            .find(|f| f.split('(').next() == Some(name.as_str()))
            .map_or_else(|| format!("{name}()"), |f| (*f).to_owned());
        let lower = stmt.sql.to_ascii_lowercase();
        // The first place the name stands as a call: not the tail of a longer identifier.
        let offset = lower
            .match_indices(name.as_str())
            .map(|(at, _)| at)
            .find(|&at| {
                let before_ok = lower[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric() && c != '_');
                let after_ok = lower[at + name.len()..].trim_start().starts_with('(');
                before_ok && after_ok
            })
            .unwrap_or(0);
        return Err(located(
            stmt,
            offset,
            LabFileErrorKind::FunctionNotHere {
                name: documented,
                section,
                home,
            },
        ));
    }
    Ok(())
}

/// Runs one learner statement with its parameters bound by name; `Ok(true)` when it returned
/// a row (a `@check` that finds the message).
pub(crate) fn run_statement(
    conn: &Connection,
    guard: &Guard,
    stmt: &Statement,
    binds: &[(&str, Value)],
) -> Result<bool, StatementError> {
    guard.start();
    let result = (|| {
        let mut prepared = conn.prepare_cached(&stmt.sql)?;
        for i in 1..=prepared.parameter_count() {
            let value = prepared
                .parameter_name(i)
                .and_then(|name| binds.iter().find(|(n, _)| *n == name))
                .map_or(Value::Null, |(_, v)| v.clone());
            prepared.raw_bind_parameter(i, value)?;
        }
        let mut rows = prepared.raw_query();
        Ok(rows.next()?.is_some())
    })();
    let finding = guard.finding();
    guard.stop();
    result.map_err(|e: rusqlite::Error| match finding {
        Some(kind) => StatementError::Learner(located(stmt, 0, kind)),
        None => StatementError::Runtime(e),
    })
}

impl LabSql {
    /// Parses `text`, refuses sections the lab does not open, and prepares every statement on
    /// a scratch copy of the service schema (with the file's own `@schema` applied) under the
    /// guard: a syntax error, an unknown table or parameter and a forbidden action are all
    /// reported here, before any run, at their line and column.
    pub fn prepare(text: &str, opened: &[Section]) -> Result<LabSql, LabFileError> {
        let file = LabFile::parse(text)?;
        file.only(opened)?;
        let scratch_error = |e: rusqlite::Error| LabFileError {
            line: 1,
            column: 1,
            kind: LabFileErrorKind::Sql(e.to_string()),
        };
        let mut conn = Connection::open_in_memory().map_err(scratch_error)?;
        conn.execute_batch(SERVICE_SQL).map_err(scratch_error)?;
        let guard = Guard::install(&mut conn).map_err(scratch_error)?;
        // The side-effect functions exist (so calls prepare); a call outside the section that
        // offers it is refused below, at its place.
        SideEffects::install(&conn).map_err(scratch_error)?;
        for section in &file.sections {
            for stmt in &section.statements {
                guard.start();
                let prepared = conn.prepare(&stmt.sql);
                let result = match prepared {
                    Err(e) => Err(learner_error(stmt, &guard, &e)),
                    Ok(prepared) => check_parameters(stmt, &prepared, section.section),
                };
                let calls = guard.take_side_effect_calls();
                guard.stop();
                result?;
                check_functions(stmt, &calls, section.section)?;
            }
            if section.section == Section::Schema {
                // Later sections may use what the schema creates.
                for stmt in &section.statements {
                    guard.start();
                    let done = conn.execute_batch(&stmt.sql);
                    let result = done.map_err(|e| learner_error(stmt, &guard, &e));
                    guard.stop();
                    result?;
                }
            }
        }
        Ok(LabSql {
            file,
            opened: opened.to_vec(),
        })
    }

    /// Whether the lab opens `section` (its statements run there, even none at all).
    pub fn opens(&self, section: Section) -> bool {
        self.opened.contains(&section)
    }

    /// Whether the learner's SQL takes over the consumer (`@check` or `@handle` open); else
    /// the engine's careful consumer runs with its own inbox index.
    pub fn takes_consumer(&self) -> bool {
        self.opens(Section::Check) || self.opens(Section::Handle)
    }

    /// The statements of `section` (empty when the file leaves it out).
    pub fn statements(&self, section: Section) -> &[Statement] {
        self.file
            .section(section)
            .map_or(&[], |s| s.statements.as_slice())
    }

    /// Whether the file has `section`.
    pub fn has(&self, section: Section) -> bool {
        self.file.section(section).is_some()
    }

    /// The header line of `section` (1 when the file leaves it out).
    pub fn section_line(&self, section: Section) -> usize {
        self.file.section(section).map_or(1, |s| s.line)
    }

    /// Runs the `@schema` statements on the service database of a new run, under the guard.
    pub fn apply_schema(&self, conn: &Connection, guard: &Guard) -> Result<(), LabFileError> {
        for stmt in self.statements(Section::Schema) {
            guard.start();
            let done = conn.execute_batch(&stmt.sql);
            let result = done.map_err(|e| learner_error(stmt, guard, &e));
            guard.stop();
            result?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPEN: &[Section] = &[Section::Schema, Section::Check, Section::Handle];

    fn err(text: &str) -> LabFileError {
        LabSql::prepare(text, OPEN).expect_err("must be refused")
    }

    #[test]
    fn a_syntax_error_is_located_inside_its_statement() {
        let e = err("-- @handle\nSELECT 1;\nINSERT INTO inbox\n  VALUSE (1);\n");
        assert_eq!((e.line, e.column), (4, 3), "{e}");
        assert!(matches!(e.kind, LabFileErrorKind::Sql(_)));
    }

    #[test]
    fn an_unknown_parameter_is_named_at_its_place() {
        let e = err("-- @check\nSELECT 1 FROM inbox WHERE message_id = :msg_id");
        assert_eq!((e.line, e.column), (2, 40), "{e}");
        assert!(
            matches!(e.kind, LabFileErrorKind::UnknownParameter { ref name, .. } if name == ":msg_id")
        );
        let e = err("-- @check\nSELECT ?1");
        assert!(matches!(e.kind, LabFileErrorKind::UnknownParameter { .. }));
    }

    #[test]
    fn forbidden_statements_are_refused_before_any_run() {
        let e = err("-- @schema\nCREATE INDEX a ON inbox(id);\nATTACH 'x.db' AS x;");
        assert_eq!(e.line, 3);
        assert_eq!(e.kind, LabFileErrorKind::Forbidden("ATTACH".into()));
        let e = err("-- @handle\nPRAGMA foreign_keys = OFF");
        assert_eq!(
            e.kind,
            LabFileErrorKind::Forbidden("PRAGMA foreign_keys".into())
        );
    }

    #[test]
    fn a_side_effect_function_outside_its_section_is_refused_at_its_place() {
        let e = err("-- @handle\nBEGIN;\nSELECT 1,\n  publish(:message_id, 'x');\nCOMMIT;");
        assert_eq!((e.line, e.column), (4, 3), "{e}");
        assert!(
            matches!(
                e.kind,
                LabFileErrorKind::FunctionNotHere {
                    home: Section::Accept,
                    ..
                }
            ),
            "{e}"
        );
        let e = err("-- @check\nSELECT CHARGE(:message_id, 1)");
        assert!(
            matches!(
                e.kind,
                LabFileErrorKind::FunctionNotHere {
                    section: Section::Check,
                    home: Section::Handle,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn later_sections_see_the_schema_and_a_good_file_prepares() {
        let text = "-- @schema\nCREATE TABLE seen (id TEXT PRIMARY KEY);\n-- @handle\nINSERT INTO seen VALUES (:message_id);";
        let lab = LabSql::prepare(text, OPEN).expect("prepares");
        assert_eq!(lab.statements(Section::Handle).len(), 1);
        assert!(!lab.has(Section::Check));
    }

    #[test]
    fn run_statement_binds_by_name_and_reports_a_runaway() {
        let mut conn = Connection::open_in_memory().expect("db");
        let guard = Guard::install(&mut conn).expect("guard");
        let stmt = Statement {
            sql: "SELECT :message_id WHERE :message_id = 'm-1'".into(),
            line: 3,
            column: 1,
        };
        let binds = [(":message_id", Value::Text("m-1".into()))];
        assert!(run_statement(&conn, &guard, &stmt, &binds).expect("runs"));
        let runaway = Statement {
            sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n".into(),
            line: 7,
            column: 1,
        };
        match run_statement(&conn, &guard, &runaway, &[]) {
            Err(StatementError::Learner(e)) => {
                assert_eq!((e.line, e.kind), (7, LabFileErrorKind::TooLong));
            }
            other => panic!("expected a runaway, got {other:?}"),
        }
    }
}

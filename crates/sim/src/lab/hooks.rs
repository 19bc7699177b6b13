//! [`LabSql`]: a lab file checked against a scratch database (sections the lab opens, known
//! parameters, SQL that prepares under the guard), ready for the engine's hook points; and the
//! plain function that runs one section's statement on a connection and names what went
//! wrong. The checks and the error positions live in [`statement_checks`].

mod statement_checks;

use rusqlite::Connection;
use rusqlite::types::Value;

use super::file::{LabFile, LabFileError, LabFileErrorKind, Statement};
use super::guard::Guard;
use super::guard::limits::ResultSize;
use super::side_effects::SideEffects;
use crate::store::SERVICE_SQL;
use content::LabSection as Section;
use statement_checks::{check_functions, check_parameters, learner_error, located};

/// A lab file that parsed and whose statements all prepare: what the engine runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabSql {
    file: LabFile,
    /// The sections the lab opens (the engine's own SQL runs everywhere else).
    opened: Vec<Section>,
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

/// Runs one learner statement with its parameters bound by name; `Ok(true)` when it returned
/// a row (a `@check` that finds the message).
pub(crate) fn run_statement(
    conn: &Connection,
    guard: &Guard,
    stmt: &Statement,
    binds: &[(&str, Value)],
) -> Result<bool, StatementError> {
    run_with(conn, guard, stmt, binds, |rows| Ok(rows.next()?.is_some()))
}

/// The rows a statement returned: its column names and every row's values (a `@claim`'s
/// batch is the rows of its last statement).
pub(crate) struct Returned {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

/// Runs one learner statement like [`run_statement`] and keeps every row it returned.
pub(crate) fn query_statement(
    conn: &Connection,
    guard: &Guard,
    stmt: &Statement,
    binds: &[(&str, Value)],
) -> Result<Returned, StatementError> {
    run_with(conn, guard, stmt, binds, |rows| {
        let columns: Vec<String> = rows
            .as_ref()
            .map(|s| s.column_names().map(str::to_owned).collect())
            .unwrap_or_default();
        let mut out = Vec::new();
        let mut size = ResultSize::default();
        while let Some(row) = rows.next()? {
            let values = (0..columns.len())
                .map(|i| row.get::<_, Value>(i))
                .collect::<rusqlite::Result<Vec<_>>>()?;
            size.add(&values, guard)?;
            out.push(values);
        }
        Ok(Returned { columns, rows: out })
    })
}

fn run_with<T>(
    conn: &Connection,
    guard: &Guard,
    stmt: &Statement,
    binds: &[(&str, Value)],
    read: impl FnOnce(&mut rusqlite::Rows<'_>) -> rusqlite::Result<T>,
) -> Result<T, StatementError> {
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
        read(&mut rows)
    })();
    let finding = result.as_ref().err().and_then(|e| guard.finding_for(e));
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
        // The guard first: its limits move the temporary store into memory, which drops the
        // temporary tables the ledger keeps.
        let guard = Guard::install(&mut conn).map_err(scratch_error)?;
        super::ledger::install(&conn).map_err(scratch_error)?;
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
        file.requires(opened, text)?;
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
mod tests;

//! Where a learner statement goes wrong, at its line and column: SQLite's error offsets turned
//! into file positions, and the checks a statement passes when the file is prepared (every
//! parameter on its section's list, every side-effect function in the section that offers it).

use super::super::file::{LabFileError, LabFileErrorKind, Statement};
use super::super::guard::Guard;
use content::LabSection as Section;

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

pub(super) fn located(stmt: &Statement, offset: usize, kind: LabFileErrorKind) -> LabFileError {
    let (line, column) = position_in(stmt, offset);
    LabFileError { line, column, kind }
}

/// The error of a statement that failed while `guard` watched: the guard's finding when it
/// or a size limit caused the failure, else SQLite's message at SQLite's offset.
pub(super) fn learner_error(stmt: &Statement, guard: &Guard, e: &rusqlite::Error) -> LabFileError {
    if let Some(kind) = guard.finding_for(e) {
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
pub(super) fn check_parameters(
    stmt: &Statement,
    prepared: &rusqlite::Statement<'_>,
    section: Section,
) -> Result<(), LabFileError> {
    for i in 1..=prepared.parameter_count() {
        let name = prepared.parameter_name(i).unwrap_or("?").to_owned();
        if !section.binds(&name) {
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
pub(super) fn check_functions(
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

//! The learner's SQL that runs inside the engine's own statements: a trigger from `@schema`
//! fires on the engine's inserts and updates, where no learner statement is running. Its work
//! counts against the engine statement's budget like any statement's; when it runs over, or
//! hits a size limit, the file is at fault, and the message names the trigger's `CREATE` in
//! `@schema`.
//!
//! The findings are kept per thread: SQLite calls the guard's callbacks on the thread that
//! runs the statement, and a simulation steps on one thread, so the step that ran the
//! statement is the one that reads them.

use std::cell::RefCell;

use super::super::file::{LabFileError, LabFileErrorKind, Statement};
use super::super::hooks::LabSql;
use super::limits::limit_finding;
use crate::SimError;
use content::LabSection as Section;

thread_local! {
    /// The trigger that started last in the running statement (SQLite names it when its
    /// program starts), cleared when a new statement starts.
    static LAST_TRIGGER: RefCell<Option<String>> = const { RefCell::new(None) };
    /// An engine statement used up its budget.
    static OVERRUN: RefCell<Option<Overrun>> = const { RefCell::new(None) };
}

/// SQLite started a program: a statement of its own (`top_level`: `text` is the statement's
/// SQL), or inside one a trigger (`-- TRIGGER name`), a trigger's statement or a statement
/// run while another runs (`-- sql`). Whether a new statement's budget begins.
pub(super) fn statement_started(text: &str, top_level: bool) -> bool {
    if top_level {
        LAST_TRIGGER.with_borrow_mut(|slot| *slot = None);
        return true;
    }
    if let Some(name) = text.strip_prefix("-- TRIGGER ") {
        LAST_TRIGGER.with_borrow_mut(|slot| {
            if slot.as_deref() != Some(name) {
                *slot = Some(name.to_owned());
            }
        });
    }
    false
}

/// An engine statement that ran over its budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Overrun {
    /// The trigger running then, when SQLite named one.
    pub trigger: Option<String>,
}

/// The engine's statement ran over its budget.
pub(super) fn engine_overran() {
    let trigger = LAST_TRIGGER.with_borrow(Clone::clone);
    OVERRUN.with_borrow_mut(|slot| *slot = Some(Overrun { trigger }));
}

/// Takes the overrun of an engine statement, if there was one: the trigger running then.
pub(super) fn take_overrun() -> Option<Overrun> {
    OVERRUN.with_borrow_mut(Option::take)
}

/// Forgets what an earlier run on this thread left behind.
pub(super) fn forget() {
    OVERRUN.with_borrow_mut(|slot| *slot = None);
    LAST_TRIGGER.with_borrow_mut(|slot| *slot = None);
}

/// The file's fault behind an engine step that ran over its budget or failed at a size limit
/// (`error`: what the step returned), located at the trigger that ran, else at `@schema`.
pub fn engine_sql_finding(sql: &LabSql, error: Option<&SimError>) -> Option<LabFileError> {
    let (trigger, cause) = if let Some(overrun) = take_overrun() {
        (overrun.trigger, LabFileErrorKind::TooLong)
    } else {
        let Some(SimError::Sql { source, .. }) = error else {
            return None;
        };
        let cause = limit_finding(source)?;
        (LAST_TRIGGER.with_borrow(Clone::clone), cause)
    };
    let created = trigger
        .as_deref()
        .and_then(|name| creating_statement(sql.statements(Section::Schema), name));
    let (line, column) = match created {
        Some(stmt) => (stmt.line, stmt.column),
        None => (sql.section_line(Section::Schema), 1),
    };
    Some(LabFileError {
        line,
        column,
        kind: LabFileErrorKind::InEngineSql {
            trigger,
            cause: Box::new(cause),
        },
    })
}

/// The `CREATE [TEMP] TRIGGER [IF NOT EXISTS] [schema.]name` statement that made `name`.
fn creating_statement<'a>(statements: &'a [Statement], name: &str) -> Option<&'a Statement> {
    statements
        .iter()
        .find(|stmt| created_trigger(&stmt.sql).is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

/// The name a `CREATE TRIGGER` statement gives its trigger, unquoted.
fn created_trigger(sql: &str) -> Option<String> {
    let mut words = sql.split_whitespace();
    if !words.next()?.eq_ignore_ascii_case("CREATE") {
        return None;
    }
    let mut word = words.next()?;
    if word.eq_ignore_ascii_case("TEMP") || word.eq_ignore_ascii_case("TEMPORARY") {
        word = words.next()?;
    }
    if !word.eq_ignore_ascii_case("TRIGGER") {
        return None;
    }
    let mut name = words.next()?;
    if name.eq_ignore_ascii_case("IF") {
        words.next()?; // NOT
        words.next()?; // EXISTS
        name = words.next()?;
    }
    // `main.name`, `"name"`, `[name]`, `` `name` ``; the name ends where its clause begins.
    let name = name.rsplit('.').next()?;
    let name = name.trim_matches(|c| matches!(c, '"' | '`' | '[' | ']' | '\''));
    (!name.is_empty()).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trigger_names_are_read_from_their_create_statement() {
        for (sql, name) in [
            (
                "CREATE TRIGGER hang AFTER INSERT ON orders BEGIN SELECT 1; END",
                "hang",
            ),
            ("create temp trigger if not exists \"Slow\" after", "Slow"),
            ("CREATE TRIGGER main.[t1] BEFORE UPDATE", "t1"),
        ] {
            assert_eq!(created_trigger(sql).as_deref(), Some(name), "{sql}");
        }
        assert_eq!(created_trigger("CREATE TABLE t(x)"), None);
        assert_eq!(created_trigger("CREATE"), None);
    }

    #[test]
    fn a_trigger_start_is_told_from_a_statement_start() {
        forget();
        assert!(statement_started("INSERT INTO orders VALUES (1)", true));
        assert!(!statement_started("-- TRIGGER hang", false));
        assert!(
            !statement_started("-- SELECT 1", false),
            "the trigger's own statement"
        );
        engine_overran();
        assert_eq!(
            OVERRUN.with_borrow(Clone::clone),
            Some(Overrun {
                trigger: Some("hang".into())
            })
        );
        forget();
        assert_eq!(OVERRUN.with_borrow(Clone::clone), None);
    }
}

//! The base schema belongs to the engine: its tables, indexes and triggers are what the
//! dispatcher, the consumer and the checkers read. A lab file may add its own in `@schema` but
//! not drop the engine's; a `DROP TABLE outbox` would otherwise surface as the engine's own
//! "no such table" error, far from the learner's line.

use std::sync::OnceLock;

use rusqlite::Connection;
use rusqlite::hooks::AuthAction;

use crate::store::SERVICE_SQL;

/// The names of the base schema's tables, indexes and triggers (lower case).
fn engine_objects() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let read = || -> rusqlite::Result<Vec<String>> {
            let conn = Connection::open_in_memory()?;
            conn.execute_batch(SERVICE_SQL)?;
            let mut stmt = conn.prepare(
                "SELECT lower(name) FROM sqlite_master WHERE type IN ('table', 'index', 'trigger')",
            )?;
            stmt.query_map([], |r| r.get(0))?.collect()
        };
        // The schema is embedded and tested; an empty list would only protect nothing.
        read().unwrap_or_default()
    })
}

fn is_engine_object(name: &str) -> bool {
    engine_objects()
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name))
}

/// What a drop of the engine's own table, index or trigger is called, if `action` is one.
pub(super) fn dropped_engine_object(action: &AuthAction<'_>) -> Option<String> {
    let (what, name) = match action {
        AuthAction::DropTable { table_name } | AuthAction::DropTempTable { table_name } => {
            ("DROP TABLE", *table_name)
        }
        AuthAction::DropIndex { index_name, .. } | AuthAction::DropTempIndex { index_name, .. } => {
            ("DROP INDEX", *index_name)
        }
        AuthAction::DropTrigger { trigger_name, .. }
        | AuthAction::DropTempTrigger { trigger_name, .. } => ("DROP TRIGGER", *trigger_name),
        _ => return None,
    };
    is_engine_object(name).then(|| format!("{what} {name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_schema_is_known_and_its_tables_are_protected() {
        assert!(is_engine_object("outbox"), "{:?}", engine_objects());
        assert!(is_engine_object("Orders"));
        assert!(!is_engine_object("seen"));
        assert_eq!(
            dropped_engine_object(&AuthAction::DropTable {
                table_name: "outbox"
            }),
            Some("DROP TABLE outbox".into())
        );
        assert_eq!(
            dropped_engine_object(&AuthAction::DropTable { table_name: "mine" }),
            None
        );
    }
}

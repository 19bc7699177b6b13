//! The sizes a lab run may reach, set on every connection that runs learner SQL: the longest
//! string or blob, the longest statement, the largest database, the SQLite heap; and what the
//! errors SQLite gives at those limits mean for the learner. Without them one
//! `randomblob(900000000)` takes most of a gigabyte and two `zeroblob`s write gigabytes to disk.

use rusqlite::limits::Limit;
use rusqlite::types::Value;
use rusqlite::{Connection, ErrorCode};

use super::super::file::LabFileErrorKind;
use super::Guard;
pub use model::lab_file::limits::{MAX_FILE_BYTES, MAX_STATEMENT_BYTES, human_bytes};

/// The longest string or blob (and table row) a statement may make, in bytes. A message body
/// is a few hundred bytes; a megabyte leaves room for anything a handler honestly stores.
pub const MAX_VALUE_BYTES: usize = 1024 * 1024;
/// The largest a run's service database (and the temporary one) may grow, in bytes: a run's
/// own rows take well under a megabyte.
pub const MAX_DATABASE_BYTES: usize = 32 * 1024 * 1024;
/// The SQLite heap of the whole process, in bytes: allocation beyond it fails (the statement
/// ends with "out of memory") instead of the machine swapping.
pub const HARD_HEAP_BYTES: usize = 160 * 1024 * 1024;
/// Above this SQLite gives back cache memory first.
const SOFT_HEAP_BYTES: usize = 64 * 1024 * 1024;
/// The most a statement's rows may hold when the engine reads them all (a `@claim`'s batch):
/// they leave SQLite's heap for queuelab's own memory, where no SQLite limit holds.
pub const MAX_RESULT_BYTES: usize = 4 * 1024 * 1024;
/// What one value costs at least in a read result, whatever its length.
const VALUE_OVERHEAD_BYTES: usize = 16;
/// The page size the maximum page count is reckoned in (SQLite's default).
const PAGE_BYTES: usize = 4096;

/// Sets the limits on `conn`. Temporary tables and sort files live in memory, so the heap
/// limit bounds them rather than the disk. Changing the temporary store drops every temporary
/// table, so this comes before anything is created in `temp`.
pub(super) fn apply(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, as_i32(MAX_VALUE_BYTES))?;
    conn.set_limit(Limit::SQLITE_LIMIT_SQL_LENGTH, as_i32(MAX_STATEMENT_BYTES))?;
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    let pages = MAX_DATABASE_BYTES / PAGE_BYTES;
    for schema in ["main", "temp"] {
        conn.pragma_update(Some(schema), "max_page_count", as_i64(pages))?;
    }
    // Both are process-wide; the hard limit can only be lowered, so setting it again is harmless.
    conn.pragma_update(None, "hard_heap_limit", as_i64(HARD_HEAP_BYTES))?;
    conn.pragma_update(None, "soft_heap_limit", as_i64(SOFT_HEAP_BYTES))?;
    Ok(())
}

/// The bytes of the rows read so far from one statement.
#[derive(Debug, Default)]
pub struct ResultSize {
    bytes: usize,
}

impl ResultSize {
    /// Counts one more row; past [`MAX_RESULT_BYTES`] the guard takes the finding and the
    /// read ends with an error.
    pub fn add(&mut self, row: &[Value], guard: &Guard) -> rusqlite::Result<()> {
        for value in row {
            let len = match value {
                Value::Text(t) => t.len(),
                Value::Blob(b) => b.len(),
                _ => 0,
            };
            self.bytes = self.bytes.saturating_add(len.max(VALUE_OVERHEAD_BYTES));
        }
        if self.bytes <= MAX_RESULT_BYTES {
            return Ok(());
        }
        guard.found(LabFileErrorKind::ResultTooBig {
            limit: MAX_RESULT_BYTES,
        });
        Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_TOOBIG),
            Some("the rows read exceed the limit".into()),
        ))
    }
}

fn as_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn as_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// What a failure at one of the limits means for the learner; `None` for any other error.
pub fn limit_finding(e: &rusqlite::Error) -> Option<LabFileErrorKind> {
    match e.sqlite_error_code()? {
        ErrorCode::TooBig => Some(LabFileErrorKind::ValueTooBig {
            limit: MAX_VALUE_BYTES,
        }),
        ErrorCode::DiskFull => Some(LabFileErrorKind::DatabaseFull {
            limit: MAX_DATABASE_BYTES,
        }),
        ErrorCode::OutOfMemory => Some(LabFileErrorKind::OutOfMemory {
            limit: HARD_HEAP_BYTES,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limited() -> Connection {
        let conn = Connection::open_in_memory().expect("memory db");
        apply(&conn).expect("limits");
        conn
    }

    #[test]
    fn a_huge_blob_is_refused_as_too_big() {
        let conn = limited();
        for sql in [
            "SELECT length(randomblob(900000000))",
            "SELECT length(zeroblob(900000000))",
            "SELECT length(printf('%.*c', 2000000, 'x'))",
        ] {
            let e = conn
                .query_row(sql, [], |r| r.get::<_, i64>(0))
                .expect_err(sql);
            assert_eq!(
                limit_finding(&e),
                Some(LabFileErrorKind::ValueTooBig {
                    limit: MAX_VALUE_BYTES
                }),
                "{sql}: {e}"
            );
        }
    }

    #[test]
    fn a_database_filled_past_its_pages_is_full() {
        let conn = limited();
        conn.execute_batch("CREATE TABLE b(x)").expect("table");
        let e = conn
            .execute_batch(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
                 INSERT INTO b SELECT zeroblob(900000) FROM n",
            )
            .expect_err("full");
        assert_eq!(
            limit_finding(&e),
            Some(LabFileErrorKind::DatabaseFull {
                limit: MAX_DATABASE_BYTES
            }),
            "{e}"
        );
    }

    #[test]
    fn a_statement_longer_than_the_limit_does_not_prepare() {
        let conn = limited();
        let sql = format!("SELECT '{}'", "x".repeat(MAX_STATEMENT_BYTES));
        let e = conn.prepare(&sql).map(drop).expect_err("too long");
        assert_eq!(e.sqlite_error_code(), Some(ErrorCode::TooBig), "{e}");
    }
}

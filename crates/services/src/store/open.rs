//! Opening the progress store: a quick check, WAL and FULL sync, migrations. Only real damage (a
//! failing check, or SQLite calling the file corrupt) moves the file aside, and the caller is
//! told; a database another process holds locked is reported as busy and left alone.

use super::{Store, StoreError, migrations, now_secs, retired};
use rusqlite::{Connection, ErrorCode};
use std::path::{Path, PathBuf};

/// What opening the store found, besides the store itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenNote {
    /// Everything was fine.
    Clean,
    /// The file was damaged; it was moved aside and a fresh one started.
    Recovered { backup: PathBuf, reason: String },
}

impl Store {
    /// Opens (creating if needed) the store at `path`, checks it and migrates it.
    pub fn open(path: &Path) -> Result<(Store, OpenNote), StoreError> {
        match Store::open_checked(path) {
            Ok(store) => Ok((store, OpenNote::Clean)),
            Err(err @ StoreError::Damaged { .. }) if path.exists() => {
                let backup = keep_damaged_copy(path)?;
                let store = Store::open_checked(path)?;
                Ok((
                    store,
                    OpenNote::Recovered {
                        backup,
                        reason: err.to_string(),
                    },
                ))
            }
            Err(err) => Err(err),
        }
    }

    fn open_checked(path: &Path) -> Result<Store, StoreError> {
        let sql = |source| classify(path, source);
        let conn = Connection::open(path).map_err(sql)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(sql)?;
        let check: String = conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(sql)?;
        if check != "ok" {
            return Err(StoreError::Damaged {
                path: path.display().to_string(),
                reason: format!("quick_check reported: {check}"),
            });
        }
        // WAL keeps readers and the single writer apart; FULL makes every commit durable
        // before we tell the learner it is saved.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(sql)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(sql)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(sql)?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
        };
        migrations::migrate(&mut store.conn).map_err(|e| match e {
            migrations::MigrateError::TooNew { found, known } => StoreError::TooNew {
                path: path.display().to_string(),
                found,
                known,
            },
            migrations::MigrateError::Sqlite(source) => sql(source),
        })?;
        retired::forget_saved(&store.conn).map_err(sql)?;
        Ok(store)
    }
}

/// Names what an SQLite error means for the learner: busy (another process), damaged (only
/// SQLite's own verdict), or a plain SQLite error.
pub(super) fn classify(path: &Path, source: rusqlite::Error) -> StoreError {
    let path_text = path.display().to_string();
    match source.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
            StoreError::Busy { path: path_text }
        }
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => StoreError::Damaged {
            path: path_text,
            reason: source.to_string(),
        },
        _ => StoreError::Sqlite {
            path: path_text,
            source,
        },
    }
}

/// The `progress.damaged-*.db` copies next to `db`, oldest first (the name carries the time).
pub(super) fn damaged_copies(db: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(stem)) = (db.parent(), db.file_stem().and_then(|s| s.to_str())) else {
        return Vec::new();
    };
    let prefix = format!("{stem}.damaged-");
    let mut copies: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    let name_fits = p
                        .file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(&prefix));
                    name_fits && p.extension().is_some_and(|x| x == "db")
                })
                .collect()
        })
        .unwrap_or_default();
    copies.sort();
    copies
}

/// Deletes every damaged copy next to `db` with its WAL files; returns what was deleted.
pub(super) fn delete_damaged_copies(db: &Path) -> Result<Vec<PathBuf>, StoreError> {
    let copies = damaged_copies(db);
    for copy in &copies {
        for suffix in ["", "-wal", "-shm"] {
            let file = PathBuf::from(format!("{}{suffix}", copy.display()));
            match std::fs::remove_file(&file) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(StoreError::File {
                        path: file.display().to_string(),
                        reason: format!("cannot delete the damaged copy: {e}"),
                    });
                }
                _ => {}
            }
        }
    }
    Ok(copies)
}

/// Moves a damaged store (and its WAL files) aside and returns the backup's path.
fn keep_damaged_copy(path: &Path) -> Result<PathBuf, StoreError> {
    let backup = path.with_extension(format!("damaged-{}.db", now_secs()));
    std::fs::rename(path, &backup).map_err(|e| StoreError::File {
        path: path.display().to_string(),
        reason: format!("cannot move the damaged file aside: {e}"),
    })?;
    for suffix in ["-wal", "-shm"] {
        let side = PathBuf::from(format!("{}{suffix}", path.display()));
        if side.exists() {
            let _ = std::fs::rename(
                &side,
                PathBuf::from(format!("{}{suffix}", backup.display())),
            );
        }
    }
    Ok(backup)
}

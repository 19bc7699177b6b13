//! The run directory: `service.db`, `broker.db`, `provider.db` and `blobs/`, and the
//! connections each actor owns.

use std::fs;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::model::Mode;

/// Schema of `service.db`.
pub const SERVICE_SQL: &str = include_str!("../../../assets/sql/service.sql");
/// The inbox index in safe and pitfall mode (UNIQUE).
pub const INBOX_SAFE_SQL: &str = include_str!("../../../assets/sql/inbox_safe.sql");
/// The inbox index in naive mode (plain).
pub const INBOX_NAIVE_SQL: &str = include_str!("../../../assets/sql/inbox_naive.sql");
/// Schema of `broker.db`.
pub const BROKER_SQL: &str = include_str!("../../../assets/sql/broker.sql");
/// Schema of `provider.db`.
pub const PROVIDER_SQL: &str = include_str!("../../../assets/sql/provider.sql");

/// Pragmas for simulator files.
///
/// WAL lets the trainee open the files with `sqlite3` while a run is paused. `synchronous=OFF`
/// because a simulator run is disposable: the files are never the system of record, a power cut
/// only costs a re-run, and fsync per commit would make the engine measure the disk instead of
/// the patterns. (The progress store of the app uses `synchronous=FULL`; it holds real answers.)
/// The crash faults of the simulation are simulated by the engine, not by killing the process,
/// so they do not depend on fsync. A small page cache keeps the memory budget of large runs.
/// `busy_timeout=0`: every transaction begins and ends inside one engine step on one thread, so
/// waiting could only ever be a bug; it must surface as an error instead of a hang.
pub const PRAGMAS: &str = "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; \
     PRAGMA cache_size=-1024; PRAGMA busy_timeout=0; PRAGMA foreign_keys=ON;";

/// Files a run writes into its directory.
const RUN_FILES: [&str; 9] = [
    "service.db",
    "broker.db",
    "provider.db",
    "service.db-wal",
    "broker.db-wal",
    "provider.db-wal",
    "service.db-shm",
    "broker.db-shm",
    "provider.db-shm",
];

/// Errors of the run directory.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The run directory cannot be created or written.
    #[error("cannot use run directory {path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The run directory already holds a run file.
    #[error("run directory {0} already holds a run file ({1}); choose an empty directory")]
    NotEmpty(PathBuf, String),
    /// SQLite refused.
    #[error("{file}: {source}")]
    Sql {
        /// Which database file.
        file: &'static str,
        /// The SQLite error.
        source: rusqlite::Error,
    },
}

pub use model::RunPaths;

/// Opens a simulator database file with the simulator pragmas.
pub fn open(path: &Path, file: &'static str) -> Result<Connection, StoreError> {
    let conn = Connection::open(path).map_err(|source| StoreError::Sql { file, source })?;
    conn.execute_batch(PRAGMAS)
        .map_err(|source| StoreError::Sql { file, source })?;
    conn.set_prepared_statement_cache_capacity(32);
    Ok(conn)
}

/// The name of the file that marks a run directory whose run did not reach its end.
pub const INCOMPLETE_FILE: &str = "INCOMPLETE.txt";

/// What the mark says to whoever opens the folder.
const INCOMPLETE_TEXT: &str = "This run did not reach its end: it was stopped (a signal, a \
crash) while it ran. The database files hold the state at that moment, not a finished run.\n\
Dieser Lauf ist nicht zu Ende gelaufen: Er wurde angehalten (ein Signal, ein Absturz), während \
er lief. Die Datenbankdateien zeigen den Stand in diesem Moment, keinen fertigen Lauf.\n";

/// The mark of a run in progress: written before the first step, removed once the run
/// finished. A process stopped in between (SIGTERM, SIGKILL, a crash) leaves it behind, so the
/// folder says that its files are incomplete without any signal handling.
#[derive(Debug)]
pub struct IncompleteMark {
    file: PathBuf,
}

impl IncompleteMark {
    /// Writes the mark into the run directory `dir`.
    pub fn set(dir: &Path) -> Result<IncompleteMark, StoreError> {
        let file = dir.join(INCOMPLETE_FILE);
        fs::write(&file, INCOMPLETE_TEXT).map_err(|source| StoreError::Dir {
            path: dir.to_path_buf(),
            source,
        })?;
        Ok(IncompleteMark { file })
    }

    /// The run finished: removes the mark.
    pub fn clear(self) -> Result<(), StoreError> {
        fs::remove_file(&self.file).map_err(|source| StoreError::Dir {
            path: self.file.clone(),
            source,
        })
    }
}

/// The first run file found in `dir` (a database, its WAL side files, or a blob), if any. A
/// leftover `broker.db` or `provider.db` would be reused and could hide lost orders, so any of
/// them makes the directory unusable for a new run.
pub fn existing_run_file(dir: &Path) -> Option<String> {
    if let Some(name) = RUN_FILES.iter().find(|n| dir.join(n).exists()) {
        return Some((*name).to_string());
    }
    fs::read_dir(dir.join("blobs"))
        .is_ok_and(|mut d| d.next().is_some())
        .then(|| "blobs/".to_string())
}

/// Creates the run directory and the three schemas; refuses a directory that already holds a run.
pub fn create(dir: &Path, mode: Mode) -> Result<RunPaths, StoreError> {
    let inbox = if mode == Mode::Naive {
        INBOX_NAIVE_SQL
    } else {
        INBOX_SAFE_SQL
    };
    create_with_inbox(dir, Some(inbox))
}

/// Like [`create`], with the inbox index given (`None`: no index at all, as a lab run starts:
/// the learner's `@schema` decides).
pub fn create_with_inbox(dir: &Path, inbox: Option<&str>) -> Result<RunPaths, StoreError> {
    let paths = RunPaths::new(dir);
    let dir_err = |source| StoreError::Dir {
        path: dir.to_path_buf(),
        source,
    };
    if let Some(name) = existing_run_file(dir) {
        return Err(StoreError::NotEmpty(dir.to_path_buf(), name));
    }
    fs::create_dir_all(&paths.blobs).map_err(dir_err)?;
    let svc = open(&paths.service_db, "service.db")?;
    let sql = |file| move |source| StoreError::Sql { file, source };
    svc.execute_batch(SERVICE_SQL).map_err(sql("service.db"))?;
    if let Some(inbox) = inbox {
        svc.execute_batch(inbox).map_err(sql("service.db"))?;
    }
    open(&paths.broker_db, "broker.db")?
        .execute_batch(BROKER_SQL)
        .map_err(sql("broker.db"))?;
    open(&paths.provider_db, "provider.db")?
        .execute_batch(PROVIDER_SQL)
        .map_err(sql("provider.db"))?;
    Ok(paths)
}

/// Runs `PRAGMA integrity_check` on every database of the run; returns the non-ok answers.
pub fn integrity_check(paths: &RunPaths) -> Result<Vec<String>, StoreError> {
    let mut problems = Vec::new();
    for (path, file) in [
        (&paths.service_db, "service.db"),
        (&paths.broker_db, "broker.db"),
        (&paths.provider_db, "provider.db"),
    ] {
        let conn = Connection::open(path).map_err(|source| StoreError::Sql { file, source })?;
        let answer: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|source| StoreError::Sql { file, source })?;
        if answer != "ok" {
            problems.push(format!("{file}: {answer}"));
        }
    }
    Ok(problems)
}

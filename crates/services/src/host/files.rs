//! The host's files in its data folder: the databases are made owner-only (0600) before SQLite
//! first opens them (its `-wal` and `-shm` files take the same mode), and a lock file keeps a
//! second host off the same folder while one runs.

use std::fs::{File, OpenOptions};
use std::path::Path;

/// The files a host keeps in its data folder that others must not read: the join code and
/// the instructor key, the trainees' addresses and codes, the TLS key, the mail copies.
pub const HOST_FILES: &str = "host.db, host-mail.db, host-otp.key, host-identity.der, mail/";
/// The lock file a running host holds.
const LOCK_FILE: &str = "host.lock";

/// Why the host could not take its data folder.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// Another host serves from this folder (it holds the lock file).
    #[error(
        "another queuelab host already serves a session from {data_dir}; stop it first, or start this one with another --data-dir"
    )]
    Taken { data_dir: String },
    /// A file in it could not be made, opened, tightened or locked.
    #[error("{path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
}

/// Creates `path` empty and owner-only if it does not exist; an existing file (and its SQLite
/// companions) is made owner-only too, so a folder from an older version is tightened.
pub fn create_private(path: &Path) -> Result<(), FolderError> {
    let fail = |source: std::io::Error| FolderError::File {
        path: path.display().to_string(),
        source,
    };
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(false);
    crate::platform::private_file(&mut options);
    options.open(path).map_err(fail)?;
    for suffix in ["", "-wal", "-shm"] {
        let file = std::path::PathBuf::from(format!("{}{suffix}", path.display()));
        match crate::platform::make_private(&file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(fail(e)),
            _ => {}
        }
    }
    Ok(())
}

/// The lock on a data folder; released when dropped (or when the process ends, however).
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

/// Takes the folder's host lock, or says that another host serves from this folder.
pub fn lock_folder(data_dir: &Path) -> Result<FolderLock, FolderError> {
    let path = data_dir.join(LOCK_FILE);
    let fail = |source: std::io::Error| FolderError::File {
        path: path.display().to_string(),
        source,
    };
    create_private(&path)?;
    let file = OpenOptions::new().write(true).open(&path).map_err(fail)?;
    match file.try_lock() {
        Ok(()) => Ok(FolderLock { _file: file }),
        Err(std::fs::TryLockError::WouldBlock) => Err(FolderError::Taken {
            data_dir: data_dir.display().to_string(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(fail(e)),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn files_are_owner_only_and_a_second_lock_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join("host.db");
        std::fs::write(&db, b"").expect("an old file");
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        create_private(&db).expect("tightened");
        let mode = std::fs::metadata(&db).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let held = lock_folder(dir.path()).expect("the first host");
        let err = lock_folder(dir.path()).expect_err("a second host");
        assert!(matches!(err, FolderError::Taken { .. }), "{err}");
        assert!(err.to_string().contains("another queuelab host"), "{err}");
        drop(held);
        lock_folder(dir.path()).expect("free again");
    }
}

//! The HMAC key for one-time codes: 32 random bytes in a 0600 file in the data directory, kept
//! out of the database so a copied database alone cannot test guesses.

use super::MailError;
use domain::otp::KEY_LEN;
use rand::TryRng;
use rand::rngs::SysRng;
use std::io::{Read, Write};
use std::path::Path;

/// Reads the key, creating it on first use; tightens loose permissions.
pub fn load_or_create_key(path: &Path) -> Result<Vec<u8>, MailError> {
    let fail = |reason: String| MailError::Key {
        path: path.display().to_string(),
        reason,
    };
    match std::fs::File::open(path) {
        Ok(mut file) => {
            crate::platform::make_private(path)
                .map_err(|e| fail(format!("cannot restrict permissions to 0600: {e}")))?;
            let mut key = Vec::new();
            file.read_to_end(&mut key)
                .map_err(|e| fail(e.to_string()))?;
            if key.len() != KEY_LEN {
                return Err(fail(format!(
                    "the key has {} bytes instead of {KEY_LEN}; delete the file (pending codes become invalid) and start again",
                    key.len()
                )));
            }
            Ok(key)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => create(path).map_err(fail),
        Err(e) => Err(fail(e.to_string())),
    }
}

fn create(path: &Path) -> Result<Vec<u8>, String> {
    let mut key = vec![0u8; KEY_LEN];
    SysRng
        .try_fill_bytes(&mut key)
        .map_err(|e| format!("the system random source failed: {e}"))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    let mut options = std::fs::OpenOptions::new();
    // create_new: two processes starting at once must not overwrite each other's key.
    options.write(true).create_new(true);
    crate::platform::private_file(&mut options);
    match options.open(path) {
        Ok(mut file) => {
            file.write_all(&key).map_err(|e| e.to_string())?;
            file.sync_all().map_err(|e| e.to_string())?;
            Ok(key)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let mut key = Vec::new();
            std::fs::File::open(path)
                .and_then(|mut f| f.read_to_end(&mut key))
                .map_err(|e| e.to_string())?;
            Ok(key)
        }
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_created_private_and_stable() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("otp.key");
        let first = load_or_create_key(&path).expect("create");
        assert_eq!(first.len(), KEY_LEN);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        }
        assert_eq!(load_or_create_key(&path).expect("read"), first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "loose permissions are tightened");
        }
        std::fs::write(&path, b"short").expect("write");
        let err = load_or_create_key(&path).expect_err("short key");
        assert!(err.to_string().contains("delete the file"), "{err}");
    }
}

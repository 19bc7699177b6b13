//! Claim-check blob store: payload files named by an unpredictable key, verified by SHA-256.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Why a blob could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobError {
    /// No file under that key.
    #[error("blob {0} is missing")]
    Missing(String),
    /// The bytes do not match the checksum in the message.
    #[error("blob {key} hash mismatch: message says {expected}, blob has {actual}")]
    HashMismatch {
        /// Blob key.
        key: String,
        /// SHA-256 from the message.
        expected: String,
        /// SHA-256 of the file.
        actual: String,
    },
    /// The file system refused.
    #[error("blob {key}: {message}")]
    Io {
        /// Blob key.
        key: String,
        /// OS error text.
        message: String,
    },
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    sha256_hex_digest(Sha256::digest(bytes).as_slice())
}

/// Lower-case hex of a finished digest.
pub fn sha256_hex_digest(digest: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(digest.len() * 2);
    for b in digest {
        // Writing to a String cannot fail.
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The blob directory of one run.
#[derive(Debug, Clone)]
pub struct BlobStore {
    dir: PathBuf,
}

impl BlobStore {
    /// A store over `dir` (which must exist).
    pub fn new(dir: &Path) -> BlobStore {
        BlobStore {
            dir: dir.to_path_buf(),
        }
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(key)
    }

    /// Writes `bytes` under `key` and returns their SHA-256.
    pub fn put(&self, key: &str, bytes: &[u8]) -> Result<String, BlobError> {
        let io = |e: std::io::Error| BlobError::Io {
            key: key.to_string(),
            message: e.to_string(),
        };
        let mut f = fs::File::create(self.path(key)).map_err(io)?;
        f.write_all(bytes).map_err(io)?;
        Ok(sha256_hex(bytes))
    }

    /// Reads `key`; with `verify`, checks the bytes against `expected_sha256`.
    /// Returns the bytes and whether they matched.
    pub fn get(
        &self,
        key: &str,
        expected_sha256: &str,
        verify: bool,
    ) -> Result<(Vec<u8>, bool), BlobError> {
        let bytes = match fs::read(self.path(key)) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(BlobError::Missing(key.to_string()));
            }
            Err(e) => {
                return Err(BlobError::Io {
                    key: key.to_string(),
                    message: e.to_string(),
                });
            }
        };
        let actual = sha256_hex(&bytes);
        let ok = actual == expected_sha256;
        if verify && !ok {
            return Err(BlobError::HashMismatch {
                key: key.to_string(),
                expected: expected_sha256.to_string(),
                actual,
            });
        }
        Ok((bytes, ok))
    }

    /// Fault: deletes the blob.
    pub fn remove(&self, key: &str) {
        // A missing file is exactly the state this fault wants.
        let _ = fs::remove_file(self.path(key));
    }

    /// Fault: flips one byte so the checksum no longer matches.
    pub fn corrupt(&self, key: &str) -> Result<(), BlobError> {
        let io = |e: std::io::Error| BlobError::Io {
            key: key.to_string(),
            message: e.to_string(),
        };
        let mut bytes = fs::read(self.path(key)).map_err(io)?;
        if let Some(b) = bytes.first_mut() {
            *b ^= 0xff;
        } else {
            bytes.push(0);
        }
        fs::write(self.path(key), bytes).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verified_read_detects_missing_and_altered_blobs() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = BlobStore::new(dir.path());
        let sha = store.put("k1", b"payload").expect("put");
        assert_eq!(store.get("k1", &sha, true).expect("get").0, b"payload");
        store.corrupt("k1").expect("corrupt");
        assert!(matches!(
            store.get("k1", &sha, true),
            Err(BlobError::HashMismatch { .. })
        ));
        let (_, ok) = store.get("k1", &sha, false).expect("unverified read");
        assert!(!ok);
        store.remove("k1");
        assert_eq!(
            store.get("k1", &sha, true),
            Err(BlobError::Missing("k1".into()))
        );
    }
}

//! Where queuelab keeps its files: the XDG data and config directories, or `--data-dir`.

use directories::ProjectDirs;
use std::path::{Path, PathBuf};

/// Resolved locations of everything queuelab reads and writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// The data directory (progress, logs, mail, simulator runs).
    pub data_dir: PathBuf,
    /// The config file that applies: `--config`, else the config dir's `queuelab.toml` if it
    /// exists, else none.
    pub config_file: Option<PathBuf>,
    /// The default config file location (shown in Settings even when absent).
    pub default_config: Option<PathBuf>,
}

/// File name of the progress database inside the data directory.
pub const PROGRESS_DB: &str = "progress.db";
/// File name of the log inside the data directory.
pub const LOG_FILE: &str = "queuelab.log";

impl Paths {
    /// Resolves the paths from the command-line overrides and the platform directories.
    pub fn resolve(data_dir: Option<&Path>, config: Option<&Path>) -> Result<Paths, String> {
        let dirs = ProjectDirs::from("", "", "queuelab");
        let data_dir = match (data_dir, &dirs) {
            (Some(dir), _) => dir.to_path_buf(),
            (None, Some(dirs)) => dirs.data_dir().to_path_buf(),
            (None, None) => {
                return Err(
                    "cannot find a home directory for the data; pass --data-dir DIR".to_owned(),
                );
            }
        };
        let default_config = dirs.as_ref().map(|d| d.config_dir().join("queuelab.toml"));
        let config_file = match config {
            Some(file) => Some(file.to_path_buf()),
            None => default_config.clone().filter(|f| f.is_file()),
        };
        Ok(Paths {
            data_dir,
            config_file,
            default_config,
        })
    }

    /// The progress database.
    pub fn progress_db(&self) -> PathBuf {
        self.data_dir.join(PROGRESS_DB)
    }

    /// Where the `file` mail transport writes `.eml` files.
    pub fn mail_dir(&self) -> PathBuf {
        self.data_dir.join("mail")
    }

    /// Where reports are saved locally (the offline fallback).
    pub fn reports_dir(&self) -> PathBuf {
        self.data_dir.join("reports")
    }

    /// The HMAC key for one-time codes (0600, never in the database).
    pub fn otp_key_file(&self) -> PathBuf {
        self.data_dir.join("otp.key")
    }

    /// The log file.
    pub fn log_file(&self) -> PathBuf {
        self.data_dir.join(LOG_FILE)
    }

    /// Creates the data directory (owner-only where the platform allows).
    pub fn ensure_data_dir(&self) -> Result<(), String> {
        std::fs::create_dir_all(&self.data_dir).map_err(|e| {
            format!(
                "cannot create the data directory {}: {e}",
                self.data_dir.display()
            )
        })?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Progress may hold an e-mail address: keep it away from other local users.
            let _ =
                std::fs::set_permissions(&self.data_dir, std::fs::Permissions::from_mode(0o700));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_win() {
        let p = Paths::resolve(Some(Path::new("/tmp/ql")), Some(Path::new("/tmp/c.toml")))
            .expect("paths");
        assert_eq!(p.data_dir, PathBuf::from("/tmp/ql"));
        assert_eq!(p.config_file, Some(PathBuf::from("/tmp/c.toml")));
        assert_eq!(p.progress_db(), PathBuf::from("/tmp/ql/progress.db"));
    }
}

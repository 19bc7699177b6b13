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

    /// Creates the data directory if needed: folders queuelab creates are owner-only (0700). An
    /// existing folder is never changed (it may be the home folder or a shared one); when other
    /// users can read it, the answer is a warning that names the files holding personal data.
    pub fn ensure_data_dir(&self) -> Result<Option<String>, String> {
        let dir = &self.data_dir;
        let fail =
            |e: std::io::Error| format!("cannot create the data directory {}: {e}", dir.display());
        if dir.is_dir() {
            return Ok(shared_folder_warning(dir));
        }
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        crate::platform::private_folders(&mut builder);
        builder.create(dir).map_err(fail)?;
        Ok(None)
    }
}

/// Files in the data folder that hold personal data (address, answers, codes' key, mails).
pub const PERSONAL_FILES: &str = "progress.db, otp.key, mail/, reports/, queuelab.log";

fn shared_folder_warning(dir: &Path) -> Option<String> {
    let mode = crate::platform::readable_by_others(dir)?;
    Some(format!(
        "warning: other users of this computer can read {} (mode {mode:o}); {PERSONAL_FILES} there hold your e-mail address and answers. Use a private folder (chmod 700) or another --data-dir.",
        dir.display(),
    ))
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

    #[cfg(unix)]
    #[test]
    fn only_created_folders_are_made_private_and_shared_ones_get_a_warning() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().expect("tempdir");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        let created = root.path().join("a/b");
        let paths = Paths::resolve(Some(&created), None).expect("paths");
        assert_eq!(paths.ensure_data_dir(), Ok(None));
        assert_eq!(mode(&created), 0o700);

        let shared = root.path().join("shared");
        std::fs::create_dir(&shared).expect("mkdir");
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let paths = Paths::resolve(Some(&shared), None).expect("paths");
        let warning = paths.ensure_data_dir().expect("ok").expect("a warning");
        assert!(
            warning.contains("progress.db") && warning.contains("otp.key"),
            "{warning}"
        );
        assert_eq!(mode(&shared), 0o755, "an existing folder is not changed");
    }
}

//! The learner's copy of a lab file: `labs/NN-slug.sql` in the data folder, made from the
//! starting file on first use and restored by a reset. The CLI and the TUI both use these, so
//! they always agree on where the copy is.

use std::path::{Path, PathBuf};

use content::Lab;

/// The learner's copy: `labs/NN-slug.sql` in the data folder.
pub fn copy_path(data_dir: &Path, lab: &Lab) -> PathBuf {
    data_dir.join("labs").join(format!("{}.sql", lab.id))
}

/// The folder a check keeps its failing run in (the previous check's is replaced).
pub fn runs_dir(data_dir: &Path, lab: &Lab) -> PathBuf {
    data_dir.join("lab-runs").join(&lab.id)
}

/// Writes `text` to a temporary file beside `path` and renames it over: a crash leaves the old
/// file or the new one, never half of one.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let tmp = path.with_extension("sql.tmp");
    std::fs::write(&tmp, text).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

/// The learner's copy, made from the starting file when it does not exist yet.
pub fn ensure_copy(data_dir: &Path, lab: &Lab) -> Result<PathBuf, String> {
    let file = copy_path(data_dir, lab);
    if !file.exists() {
        write_atomically(&file, &lab.start)?;
    }
    Ok(file)
}

/// Restores the starting file in the learner's copy.
pub fn reset_copy(data_dir: &Path, lab: &Lab) -> Result<PathBuf, String> {
    let file = copy_path(data_dir, lab);
    write_atomically(&file, &lab.start)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Lab {
        let content = content::load(&content::ContentSource::Embedded).expect("embedded content");
        content.labs[0].clone()
    }

    #[test]
    fn the_copy_is_made_once_and_reset_restores_the_start() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lab = lab();
        let file = ensure_copy(dir.path(), &lab).expect("copy");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), lab.start);
        std::fs::write(&file, "-- @schema\n").expect("edit");
        ensure_copy(dir.path(), &lab).expect("again");
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            "-- @schema\n"
        );
        reset_copy(dir.path(), &lab).expect("reset");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), lab.start);
    }

    #[test]
    fn a_copy_that_cannot_be_written_is_a_message() {
        let dir = tempfile::tempdir().expect("tempdir");
        // A file where the labs folder should be.
        std::fs::write(dir.path().join("labs"), "").expect("block");
        let err = ensure_copy(dir.path(), &lab()).expect_err("blocked");
        assert!(err.starts_with("cannot write"), "{err}");
    }
}

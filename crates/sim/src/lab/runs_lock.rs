//! One check at a time per lab and data folder: a check empties its run folder first and then
//! writes its runs' databases there, so a second check on the same folder (the lab screen's
//! check on save beside a `queuelab lab check` in another terminal) would delete the files
//! under the first one's feet (`disk I/O error`). The second one waits for the first, and is
//! told so. The lock is the operating system's on a file beside the folder: a check that
//! crashes or is killed lets go of it with its process.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

/// Held while a check uses its run folder; dropping it lets the next check in.
#[derive(Debug)]
pub struct RunsLock {
    _file: File,
}

/// The lock file of the run folder `runs_dir`.
fn lock_path(runs_dir: &Path) -> PathBuf {
    runs_dir.with_extension("lock")
}

/// Takes the run folder `runs_dir` for one check; when another check holds it, `waiting` is
/// called once and this one waits until that check ends. An error is queuelab's own trouble
/// (a folder that cannot be made), worded in English.
pub fn lock_runs(runs_dir: &Path, waiting: impl FnOnce()) -> Result<RunsLock, String> {
    let path = lock_path(runs_dir);
    let fail = |e: std::io::Error| format!("cannot lock {}: {e}", path.display());
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(fail)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            waiting();
            file.lock().map_err(fail)?;
        }
        Err(TryLockError::Error(e)) => return Err(fail(e)),
    }
    Ok(RunsLock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_second_check_waits_for_the_first_and_is_told() {
        let dir = tempfile::tempdir().expect("tempdir");
        let runs = dir.path().join("lab-runs").join("01-x");
        let first = lock_runs(&runs, || panic!("nothing to wait for")).expect("first");
        let (told, heard) = mpsc::channel();
        let (took, taken) = mpsc::channel();
        let second = std::thread::spawn({
            let runs = runs.clone();
            move || {
                let lock = lock_runs(&runs, move || told.send(()).expect("tell"));
                took.send(()).expect("took");
                lock.map(drop)
            }
        });
        heard.recv().expect("the second one is told it waits");
        assert!(taken.try_recv().is_err(), "it waits while the first holds");
        drop(first);
        taken.recv().expect("it goes on once the first lets go");
        second.join().expect("thread").expect("locked");
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_a_message() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("lab-runs"), "").expect("a file in the way");
        let err = lock_runs(&dir.path().join("lab-runs").join("01-x"), || {}).expect_err("blocked");
        assert!(err.starts_with("cannot lock"), "{err}");
    }
}

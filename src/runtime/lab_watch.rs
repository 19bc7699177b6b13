//! Watching the learner's lab file for saves made outside queuelab (an editor in another
//! window): the lab thread looks at the file's size and modification time between requests
//! and tells the lab screen when they changed. Looking every half second at one file costs
//! nothing, works on every file system (network folders included, where change notifications
//! are not delivered), and needs no thread of its own.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// How often the file is looked at while the lab thread has nothing else to do.
pub const WATCH_EVERY: Duration = Duration::from_millis(500);

/// How long the lab thread waits for a request before it looks at the watched file: `None`, no
/// wake-up at all, until a lab's file is opened (an idle workshop wakes up for nothing, and Home is
/// idle).
pub fn next_look(watch: Option<&Watch>) -> Option<Duration> {
    watch.map(|_| WATCH_EVERY)
}

/// What identifies one saved version of a file: a save changes its modification time or its
/// size (a file that cannot be read has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp(Option<(SystemTime, u64)>);

impl Stamp {
    fn of(path: &PathBuf) -> Stamp {
        Stamp(
            std::fs::metadata(path)
                .ok()
                .and_then(|m| Some((m.modified().ok()?, m.len()))),
        )
    }
}

/// The lab file being watched and the version last seen.
#[derive(Debug)]
pub struct Watch {
    /// The lab's id (the lab screen it belongs to).
    pub lab_id: String,
    path: PathBuf,
    seen: Stamp,
}

impl Watch {
    /// Starts watching `path` as it is now.
    pub fn new(lab_id: String, path: PathBuf) -> Watch {
        let seen = Stamp::of(&path);
        Watch { lab_id, path, seen }
    }

    /// Takes the file as it is now as seen (a check reads it, a reset writes it).
    pub fn seen_now(&mut self) {
        self.seen = Stamp::of(&self.path);
    }

    /// What happened to the file since it was last seen; it is seen now either way.
    pub fn change(&mut self) -> Change {
        let now = Stamp::of(&self.path);
        let change = match (self.seen.0, now.0) {
            _ if now == self.seen => Change::None,
            (Some(_), None) => Change::Gone,
            (_, Some(_)) => Change::Saved,
            (None, None) => Change::None,
        };
        self.seen = now;
        change
    }
}

/// What happened to a watched file between two looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Nothing.
    None,
    /// It was saved (written, or made again after it was gone).
    Saved,
    /// It was deleted (or moved away).
    Gone,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_sleeps_until_a_lab_file_is_opened_and_looks_every_half_second_after() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(next_look(None), None);
        let watch = Watch::new("01".into(), dir.path().join("01.sql"));
        assert_eq!(next_look(Some(&watch)), Some(WATCH_EVERY));
    }

    #[test]
    fn a_save_is_seen_once_and_a_missing_file_is_no_save() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("01.sql");
        std::fs::write(&path, "-- @handle\n").expect("write");
        let mut watch = Watch::new("01".into(), path.clone());
        assert_ne!(watch.change(), Change::Saved, "nothing changed");
        std::fs::write(&path, "-- @handle\nSELECT 1;\n").expect("save");
        assert_eq!(watch.change(), Change::Saved, "a save of another size");
        assert_ne!(watch.change(), Change::Saved, "seen once");
        // Same size, a later modification time.
        let later = SystemTime::now() + Duration::from_secs(5);
        std::fs::write(&path, "-- @handle\nSELECT 2;\n").expect("save");
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(later))
            .expect("touch");
        assert_eq!(watch.change(), Change::Saved, "same size, newer time");
        std::fs::remove_file(&path).expect("remove");
        assert_eq!(watch.change(), Change::Gone, "a deleted file is said");
        assert_eq!(watch.change(), Change::None, "once");
        std::fs::write(&path, "-- @handle\n").expect("write");
        assert_eq!(watch.change(), Change::Saved, "written again");
        watch.seen_now();
        assert_eq!(watch.change(), Change::None);
    }
}

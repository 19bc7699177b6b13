//! The first frame comes before the progress store has opened; what the store finds at the
//! start still reaches the learner: a file another queuelab holds (the TUI waits, and what the
//! learner does meanwhile is saved once it opens), a damaged file kept aside, a data folder
//! others can read. The real binary in a pseudo-terminal, on real SQLite files.

use crate::support::course::{chapter_count, chapters_read};
use crate::support::pty;

use pty::Session;
use queuelab::services::Store;
use rusqlite::Connection;
use std::path::Path;

/// A data folder only its owner can read (otherwise the shared-folder note, shown last,
/// would take the status line).
fn private_folder() -> tempfile::TempDir {
    let data = tempfile::tempdir().expect("tempdir");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(data.path(), std::fs::Permissions::from_mode(0o700))
            .expect("chmod");
    }
    data
}

/// A store queuelab made, with one chapter read.
fn store_with_one_read_chapter(data: &Path) {
    let db = data.join("progress.db");
    drop(Store::open(&db).expect("a fresh store"));
    Connection::open(&db)
        .expect("open")
        .execute(
            "INSERT INTO chapter_read (chapter_id, read_at) VALUES ('friday-incident', 1)",
            [],
        )
        .expect("a read chapter");
}

#[test]
fn a_store_held_by_another_queuelab_is_waited_for_and_nothing_done_meanwhile_is_lost() {
    let data = private_folder();
    store_with_one_read_chapter(data.path());
    let db = data.path().join("progress.db");
    let holder = Connection::open(&db).expect("open");
    holder
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .expect("take the lock");

    let mut s = Session::start(data.path(), &["--lang", "en"], 100, 30);
    s.wait_for("Start with chapter 1");
    s.wait_for("Another queuelab is using the progress file");
    assert!(
        !s.screen().contains("Chapters read") && !s.screen().contains("Decisions"),
        "no progress rows before the store opened:\n{}",
        s.screen()
    );
    // Reading on while the store waits: the reading position is recorded now, saved later.
    s.send("\r");
    s.wait_for("Chapter 1 of 16");
    s.send("n");
    s.wait_for("Chapter 2 of 16");
    s.send("q");
    s.wait_for("Continue where I left off");

    holder.execute_batch("COMMIT;").expect("release");
    drop(holder);
    s.wait_for("The other queuelab has closed");
    s.wait_for(&chapters_read(1));
    s.send("q");
    assert!(s.wait_exit(), "clean exit");

    let names: Vec<String> = std::fs::read_dir(data.path())
        .expect("list")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains("damaged")), "{names:?}");
    let (store, _) = Store::open(&db).expect("reopen");
    let progress = store.load().expect("load");
    assert!(progress.chapters_read.contains("friday-incident"));
    assert!(
        progress.last_chapter.is_some(),
        "the position recorded while waiting was saved"
    );
}

#[test]
fn a_damaged_store_is_kept_aside_and_the_learner_told() {
    let data = private_folder();
    std::fs::write(
        data.path().join("progress.db"),
        "this is not a database, not even close; it is long enough to be read as one though....",
    )
    .expect("write");
    let mut s = Session::start(data.path(), &["--lang", "en"], 160, 30);
    s.wait_for("Start with chapter 1");
    s.wait_for("The progress file was damaged; a copy was kept at");
    s.wait_for(&chapters_read(0));
    s.send("q");
    assert!(s.wait_exit(), "clean exit");
    let kept = std::fs::read_dir(data.path())
        .expect("list")
        .filter_map(Result::ok)
        .any(|e| e.file_name().to_string_lossy().contains("damaged"));
    assert!(kept, "the damaged file was kept");
}

#[cfg(unix)]
#[test]
fn a_data_folder_others_can_read_is_named_at_the_start() {
    use std::os::unix::fs::PermissionsExt;
    let data = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(data.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut s = Session::start(data.path(), &["--lang", "de"], 100, 30);
    s.wait_for("Mit Kapitel 1 beginnen");
    s.wait_for("Andere können deinen Datenordner lesen");
    s.wait_for(&format!("Kapitel gelesen: 0/{}", chapter_count()));
    s.send("q");
    assert!(s.wait_exit(), "clean exit");
}

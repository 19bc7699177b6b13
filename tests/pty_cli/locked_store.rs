//! A progress.db another process holds locked is busy, not damaged. Commands exit non-zero with a
//! clear message and leave the file where it is, with everything in it.

use std::path::Path;
use std::process::{Command, Output};

fn queuelab(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .args(["--lang", "en", "--data-dir"])
        .arg(data)
        .args(args)
        .env("LANG", "C")
        .output()
        .expect("the binary runs")
}

#[test]
fn a_locked_database_is_reported_busy_and_never_moved_aside() {
    let data = tempfile::tempdir().expect("tempdir");
    let export = data.path().join("before.json");
    let export_arg = export.to_str().expect("utf-8 path");
    // A store with something in it, made by queuelab itself.
    assert!(queuelab(data.path(), &["mail", "status"]).status.success());
    let db = data.path().join("progress.db");
    {
        let conn = rusqlite::Connection::open(&db).expect("open");
        conn.execute(
            "INSERT INTO chapter_read (chapter_id, read_at) VALUES ('outbox', 1)",
            [],
        )
        .expect("a read chapter");
    }
    // Another process (here: this test) holds the database lock.
    let holder = rusqlite::Connection::open(&db).expect("open");
    holder
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .expect("take the lock");

    for args in [
        &["mail", "status"][..],
        &["progress", "export", export_arg][..],
    ] {
        let out = queuelab(data.path(), args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} exited 0 on a locked store");
        assert!(
            stderr.contains("progress.db is in use by another queuelab — close it or wait"),
            "{args:?}: {stderr}"
        );
    }
    let names: Vec<String> = std::fs::read_dir(data.path())
        .expect("list")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains("damaged")), "{names:?}");

    holder.execute_batch("COMMIT;").expect("release");
    drop(holder);
    let out = queuelab(data.path(), &["progress", "export", export_arg]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = std::fs::read_to_string(&export).expect("export");
    assert!(
        json.contains("\"outbox\""),
        "the healthy file kept its data: {json}"
    );
}

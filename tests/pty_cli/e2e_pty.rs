//! The real binary in a pseudo-terminal: start, navigate, quit, resume; SIGKILL keeps every
//! saved answer; SIGTERM and SIGHUP leave the terminal restored.

use crate::support::course::chapters_read;
use crate::support::pty;

use pty::Session;
use rusqlite::Connection;

#[test]
fn jumping_to_the_end_is_not_reading_and_existing_read_marks_stay() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
    s.wait_for("Start with chapter 1");
    s.send("2");
    s.wait_for("[new]");
    s.send("\r");
    s.wait_for("Chapter 1 of 16");
    s.send("G");
    s.wait_for("100%");
    s.send("q");
    s.wait_for(" 1  [started]");
    s.send("q");
    s.wait_for(&chapters_read(0));
    s.send("q");
    assert!(s.wait_exit(), "clean exit");

    // A read mark saved earlier (by an older version or after real reading) stays.
    let db = Connection::open(data.path().join("progress.db")).expect("open");
    db.execute(
        "INSERT INTO chapter_read (chapter_id, read_at) VALUES ('friday-incident', 0)",
        [],
    )
    .expect("insert");
    drop(db);
    let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
    s.wait_for(&chapters_read(1));
    s.send("2");
    s.wait_for(" 1  [read]");
    s.send("\x03"); // Ctrl+C
    assert!(s.wait_exit());
}

#[test]
fn pressing_n_through_every_chapter_marks_none_read() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
    s.wait_for("Start with chapter 1");
    s.send("\r");
    s.wait_for("Chapter 1 of 16");
    for n in 2..=16 {
        s.send("n");
        s.wait_for(&format!("Chapter {n} of 16"));
    }
    s.send("q");
    s.wait_for(&chapters_read(0));
    s.send("q");
    assert!(s.wait_exit(), "clean exit");
    let db = Connection::open(data.path().join("progress.db")).expect("open");
    let read: i64 = db
        .query_row("SELECT count(*) FROM chapter_read", [], |r| r.get(0))
        .expect("count");
    assert_eq!(read, 0, "n is not reading");
}

/// A key typed before the workshop reads its terminal is answered, not left behind. The
/// terminal reader's first look (setting crossterm up) used to read such a key into crossterm's
/// queue and then wait for more bytes, so the key was answered only with the next one: under
/// load, a learner's first key after a start did nothing. Under both terminal waits (`poll(2)`
/// and macOS's `select(2)`): the start, the keys after it, and Ctrl+C.
#[test]
fn a_key_typed_while_the_workshop_starts_is_answered() {
    for (wait, env) in pty::WAITS {
        let data = tempfile::tempdir().expect("tempdir");
        let mut s = Session::start_with_env(data.path(), &["--lang", "en"], env, 80, 24);
        s.type_ahead("l");
        s.wait_for("You write the SQL");
        s.send("q");
        s.wait_for("Start with chapter 1");
        s.send("\r");
        s.wait_for("Chapter 1 of 16");
        s.send("n");
        s.wait_for("Chapter 2 of 16");
        s.send("\x03");
        assert!(
            s.wait_exit(),
            "the {wait} wait: Ctrl+C ends the workshop cleanly"
        );
    }
}

#[test]
fn german_home_and_resume_in_the_reader() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "de"], 100, 30);
    s.wait_for("Mit Kapitel 1 beginnen");
    s.send("\r");
    s.wait_for("Kapitel 1 von 16");
    s.send("n");
    s.wait_for("Kapitel 2 von 16");
    s.send("\x03");
    assert!(s.wait_exit());
    let mut s = Session::start(data.path(), &["--lang", "de"], 100, 30);
    s.wait_for("Weitermachen, wo ich aufgehört habe");
    s.send("\r");
    s.wait_for("Kapitel 2 von 16");
    s.send("\x03");
    assert!(s.wait_exit());
}

#[test]
fn sigkill_keeps_every_saved_answer_and_the_database_sound() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
    s.wait_for("Start with chapter 1");
    s.send("2");
    s.wait_for("[new]");
    s.send("3\r");
    s.wait_for("Chapter 3 of 16");
    s.send("1");
    s.wait_for("Decisions 1/4");
    s.send("n");
    s.wait_for("Chapter 4 of 16");
    // The store thread commits after the frame shows; kill once the last save is on disk, so
    // the check below is about what SIGKILL does to committed rows.
    wait_for_row(
        &data.path().join("progress.db"),
        "SELECT count(*) FROM chapter_position WHERE chapter_id = 'technology'",
    );
    s.signal("KILL");
    let _ = s.wait_exit();

    let db = Connection::open(data.path().join("progress.db")).expect("open");
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("check");
    assert_eq!(check, "ok");
    let answers: i64 = db
        .query_row(
            "SELECT count(*) FROM decision_answer WHERE decision_id = 'broker-down'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(answers, 1);
    let read: i64 = db
        .query_row(
            "SELECT count(*) FROM chapter_read WHERE chapter_id = 'flow-map'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(read, 0, "leaving with n does not mark chapter 3 read");
    drop(db);

    let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
    s.wait_for("Decisions 1/4");
    s.wait_for("Continue where I left off");
    s.send("\r");
    s.wait_for("Chapter 4 of 16");
    s.send("\x03");
    assert!(s.wait_exit());
}

fn assert_restored(raw: &[u8]) {
    let text = String::from_utf8_lossy(raw);
    let tail = &text[text.rfind("\x1b[?1049h").unwrap_or(0)..];
    assert!(tail.contains("\x1b[?1049l"), "left the alternate screen");
    assert!(tail.contains("\x1b[?1000l"), "mouse reporting switched off");
    assert!(tail.contains("\x1b[?25h"), "cursor shown again");
}

#[test]
fn sigterm_and_sighup_restore_the_terminal() {
    for signal in ["TERM", "HUP"] {
        let data = tempfile::tempdir().expect("tempdir");
        let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
        s.wait_for("Start with chapter 1");
        s.send("\r");
        s.wait_for("Chapter 1 of 16");
        s.signal(signal);
        assert!(s.wait_exit(), "SIG{signal} ends cleanly");
        assert_restored(&s.raw());
        let db = Connection::open(data.path().join("progress.db")).expect("open");
        let last: String = db
            .query_row(
                "SELECT value FROM setting WHERE key = 'last_chapter'",
                [],
                |r| r.get(0),
            )
            .expect("saved");
        assert_eq!(last, "friday-incident");
    }
}

#[test]
fn a_tiny_terminal_says_what_it_needs() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 50, 12);
    s.wait_for("Terminal too small: 50x12");
    s.wait_for("60x18");
    s.send("q");
    assert!(s.wait_exit());
}

/// Polls the progress database until `count_sql` counts at least one row.
fn wait_for_row(db: &std::path::Path, count_sql: &str) {
    let start = std::time::Instant::now();
    while start.elapsed() < pty::WAIT {
        let count = Connection::open(db)
            .and_then(|c| c.query_row(count_sql, [], |r| r.get::<_, i64>(0)))
            .unwrap_or(0);
        if count > 0 {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("no row for {count_sql:?} within {:?}", pty::WAIT);
}

/// `queuelab` without arguments (the start that skips clap) finds its data folder through the
/// platform directories and keeps what it saves there.
#[test]
fn a_start_without_arguments_uses_the_platform_data_folder() {
    let home = tempfile::tempdir().expect("tempdir");
    let program = std::path::Path::new(env!("CARGO_BIN_EXE_queuelab"));
    let mut s = Session::start_bare(program, home.path(), 80, 24);
    s.wait_for("Start with chapter 1");
    s.send("8");
    s.send("l");
    s.wait_for("Sprache");
    s.send("q");
    s.send("q");
    assert!(s.wait_exit(), "clean exit");
    let db = home.path().join("queuelab").join("progress.db");
    assert!(
        db.is_file(),
        "the progress store is in XDG_DATA_HOME/queuelab"
    );
    // The saved language outranks the locale (C, English) at the next start.
    let s = Session::start_bare(program, home.path(), 80, 24);
    s.wait_for("Mit Kapitel 1 beginnen");
}

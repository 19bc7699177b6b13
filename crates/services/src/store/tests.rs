use super::*;
use content::Lang;

fn temp_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (store, note) = Store::open(&dir.path().join("progress.db")).expect("open");
    assert_eq!(note, OpenNote::Clean);
    (dir, store)
}

#[test]
fn saved_facts_survive_reopen() {
    let (dir, mut store) = temp_store();
    store
        .save(&Fact::ChapterRead("outbox".into()))
        .expect("save");
    store
        .save(&Fact::DecisionAnswered {
            decision: "lost-ack".into(),
            option: "receipt".into(),
        })
        .expect("save");
    store
        .save(&Fact::Position {
            chapter: "inbox".into(),
            scroll: 7,
        })
        .expect("save");
    store
        .save(&Fact::ChecklistTicked {
            item: "stable-ids".into(),
            ticked: true,
        })
        .expect("save");
    store.save(&Fact::LanguageChosen(Lang::De)).expect("save");
    let choice = domain::SimChoice {
        scenario: "lost-ack".into(),
        mode: "naive".into(),
        broker: "sqs".into(),
    };
    store.save(&Fact::SimChosen(choice.clone())).expect("save");
    drop(store);
    let (store, _) = Store::open(&dir.path().join("progress.db")).expect("reopen");
    let p = store.load().expect("load");
    assert!(p.chapters_read.contains("outbox"));
    assert_eq!(p.decisions["lost-ack"], "receipt");
    assert_eq!(p.last_chapter.as_deref(), Some("inbox"));
    assert_eq!(p.positions["inbox"], 7);
    assert!(p.checklist["stable-ids"]);
    assert_eq!(p.language, Some(Lang::De));
    assert_eq!(
        p.simulator,
        Some(choice),
        "the simulator's last choice survives a restart"
    );
    assert_eq!(store.integrity_check().expect("check"), "ok");
}

#[test]
fn clear_deletes_everything_about_the_learner() {
    let (_dir, mut store) = temp_store();
    store
        .save(&Fact::ChapterRead("outbox".into()))
        .expect("save");
    store.save(&Fact::LanguageChosen(Lang::De)).expect("save");
    store.clear().expect("clear");
    assert_eq!(store.load().expect("load"), Progress::default());
}

#[test]
fn a_damaged_file_is_kept_aside_and_a_fresh_one_started() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("progress.db");
    std::fs::write(
        &path,
        b"this is not an sqlite database, just garbage bytes".repeat(100),
    )
    .expect("write");
    let (store, note) = Store::open(&path).expect("recovered");
    let OpenNote::Recovered { backup, .. } = note else {
        panic!("expected recovery")
    };
    assert!(backup.exists());
    assert_eq!(store.load().expect("load"), Progress::default());
}

#[test]
fn a_newer_schema_is_refused_not_overwritten() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("progress.db");
    let conn = Connection::open(&path).expect("open");
    conn.pragma_update(None, "user_version", 99)
        .expect("pragma");
    drop(conn);
    let Err(err) = Store::open(&path) else {
        panic!("a newer schema must be refused")
    };
    assert!(err.to_string().contains("schema version 99"), "{err}");
}

#[test]
fn export_import_round_trip_and_version_check() {
    let content = content::load(&content::ContentSource::Embedded).expect("content");
    let chapter = content.course(Lang::En).chapters[0].id.clone();
    let (dir, mut store) = temp_store();
    store
        .save(&Fact::ChapterRead(chapter.clone()))
        .expect("save");
    let file = dir.path().join("p.json");
    store.export(&file).expect("export");
    store.clear().expect("clear");
    let imported = store.import(&file, &content).expect("import");
    assert!(imported.progress.chapters_read.contains(&chapter));
    assert_eq!(store.load().expect("load"), imported.progress);

    let text = std::fs::read_to_string(&file)
        .expect("read")
        .replace("\"version\": 3", "\"version\": 4");
    std::fs::write(&file, text).expect("write");
    let Err(err) = store.import(&file, &content) else {
        panic!("version must be refused")
    };
    assert!(
        err.to_string().contains("version 4 is not supported"),
        "{err}"
    );
    std::fs::write(&file, "{\"format\": \"other\"}").expect("write");
    let Err(err) = store.import(&file, &content) else {
        panic!("format must be refused")
    };
    assert!(err.to_string().contains("not a queuelab progress file"));
    assert!(
        store.load().expect("load").chapters_read.contains(&chapter),
        "a refused import changes nothing"
    );
}

#[test]
fn ordering_record_and_scenarios_survive_reopen_and_clear_removes_them() {
    let (dir, mut store) = temp_store();
    for fact in [
        Fact::OrderingAttempt,
        Fact::OrderingMistake,
        Fact::OrderingMistake,
        Fact::OrderingAttempt,
        Fact::OrderingSolved,
        Fact::ScenarioRun("twin-consumers".into()),
        Fact::ScenarioRun("twin-consumers".into()),
        Fact::ScenarioRun("lost-ack".into()),
    ] {
        store.save(&fact).expect("save");
    }
    drop(store);
    let (mut store, _) = Store::open(&dir.path().join("progress.db")).expect("reopen");
    let p = store.load().expect("load");
    assert_eq!(
        p.ordering,
        OrderingRecord {
            solved: true,
            attempts: 2,
            mistakes: 2
        }
    );
    assert_eq!(p.scenarios_run.len(), 2);
    let mut copy = Progress::default();
    store
        .replace(&PortableProgress {
            format: PORTABLE_FORMAT.into(),
            version: PORTABLE_VERSION,
            progress: p.clone(),
            quiz: None,
            labs: None,
        })
        .expect("replace");
    assert_eq!(store.load().expect("load"), p);
    store.clear().expect("clear");
    copy.language = None;
    assert_eq!(store.load().expect("load"), copy);
}

/// After "clear results" the address is in neither the database nor its WAL while the store is
/// still open, and copies of damaged stores are listed and deleted too.
#[test]
fn clear_truncates_the_wal_and_deletes_damaged_copies() {
    use domain::outbox::MailKind;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("progress.db");
    std::fs::write(&path, b"garbage, not sqlite".repeat(100)).expect("write");
    let (mut store, note) = Store::open(&path).expect("recovered");
    assert!(matches!(note, OpenNote::Recovered { .. }));
    assert_eq!(store.damaged_copies().len(), 1);
    let mail = NewMail {
        kind: MailKind::Code,
        message_id: "<m@example.org>".into(),
        recipient: "ada.lovelace@example.org".into(),
        cc: None,
        subject: "s".into(),
        text: "t".into(),
        html: None,
    };
    store
        .issue_code("ada.lovelace@example.org", 1, 100, |_| {
            Ok(NewCode {
                nonce: vec![1; 16],
                tag: vec![2; 32],
                mail,
            })
        })
        .expect("store")
        .expect("issued");
    store.clear().expect("clear");
    let needle = b"ada.lovelace@example.org";
    for file in ["progress.db", "progress.db-wal"] {
        let bytes = std::fs::read(dir.path().join(file)).unwrap_or_default();
        assert!(
            !bytes.windows(needle.len()).any(|w| w == needle),
            "{file} still holds the address while the store is open"
        );
    }
    assert!(store.damaged_copies().is_empty());
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert!(
        !left.iter().any(|n| n.to_string_lossy().contains("damaged")),
        "{left:?}"
    );
}

/// Settings' "delete damaged copies" removes exactly the `progress.damaged-*.db` files (with their
/// WAL files) and nothing else in the data folder.
#[test]
fn deleting_damaged_copies_leaves_every_other_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("progress.db");
    let (store, _) = Store::open(&path).expect("open");
    let doomed = [
        "progress.damaged-1796040000.db",
        "progress.damaged-1796040000.db-wal",
        "progress.damaged-20261130T120000.db",
    ];
    let kept = [
        "progress.damaged-notes.txt",
        "other.damaged-1796040000.db",
        "config.toml",
        "report.eml",
    ];
    for name in doomed.iter().chain(&kept) {
        std::fs::write(dir.path().join(name), b"x").expect("write");
    }
    assert_eq!(store.damaged_copies().len(), 2);
    let deleted = store.delete_damaged_copies().expect("delete");
    assert_eq!(deleted.len(), 2);
    assert!(store.damaged_copies().is_empty());
    for name in doomed {
        assert!(!dir.path().join(name).exists(), "{name} is still there");
    }
    for name in kept.iter().chain(&["progress.db"]) {
        assert!(dir.path().join(name).exists(), "{name} was deleted");
    }
    assert_eq!(
        store.load().expect("store still works"),
        Progress::default()
    );
}

/// `.cargo/config.toml` compiles SQLite without the extensions queuelab never uses (a third of
/// the C compile time); the crate's own settings (foreign keys on, API armor) stay.
#[test]
fn the_bundled_sqlite_leaves_out_unused_extensions() {
    let conn = rusqlite::Connection::open_in_memory().expect("open");
    let used = |option: &str| -> bool {
        conn.query_row("SELECT sqlite_compileoption_used(?1)", [option], |row| {
            row.get(0)
        })
        .expect("query")
    };
    for left_out in ["ENABLE_FTS3", "ENABLE_FTS5", "ENABLE_RTREE", "ENABLE_STAT4"] {
        assert!(!used(left_out), "{left_out} is compiled in");
    }
    assert!(
        used("DEFAULT_FOREIGN_KEYS"),
        "the crate's own settings stay"
    );
    assert!(used("ENABLE_API_ARMOR"), "the crate's own settings stay");
}

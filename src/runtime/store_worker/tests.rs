//! The store thread against a real SQLite file another connection (standing in for another
//! queuelab) holds locked: nothing opens twice, nothing sent meanwhile is lost.

use super::{StoreSetup, StoreWorker};
use app::{Msg, StoreFault, StoreRequest};
use content::{ContentSource, load};
use domain::Fact;
use services::Store;
use std::path::Path;
use std::sync::{Arc, mpsc};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

/// A store file made by queuelab, then held with an exclusive lock.
fn held_store(db: &Path) -> rusqlite::Connection {
    drop(Store::open(db).expect("a fresh store"));
    let holder = rusqlite::Connection::open(db).expect("open");
    holder
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .expect("take the lock");
    holder
}

fn spawn(db: &Path) -> (StoreWorker, UnboundedReceiver<Msg>, mpsc::Receiver<()>) {
    let content = Arc::new(load(&ContentSource::Embedded).expect("embedded content"));
    let (replies, messages) = unbounded_channel();
    let (gate, ready) = mpsc::channel();
    let setup = StoreSetup {
        path: db.to_path_buf(),
        shared_folder: false,
        opened: vec![gate],
    };
    let worker = StoreWorker::spawn(setup, content, replies, None).expect("thread");
    (worker, messages, ready)
}

fn next(messages: &mut UnboundedReceiver<Msg>) -> Msg {
    messages.blocking_recv().expect("the store thread answers")
}

#[test]
fn a_fact_sent_before_the_store_opened_is_saved_after_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("progress.db");
    let holder = held_store(&db);
    let (worker, mut messages, ready) = spawn(&db);
    worker.send(StoreRequest::Save(Fact::OrderingSolved));
    assert!(
        matches!(next(&mut messages), Msg::StoreBusy),
        "the thread waits for the other holder"
    );
    assert_eq!(
        ready.try_recv(),
        Err(mpsc::TryRecvError::Empty),
        "the other threads still wait for the first open"
    );
    holder.execute_batch("COMMIT;").expect("release");
    drop(holder);
    let Msg::StoreOpened(stored) = next(&mut messages) else {
        panic!("StoreOpened comes first");
    };
    assert!(stored.waited, "the learner is told it waited");
    assert!(
        !stored.progress.ordering.solved,
        "the fact was not saved before"
    );
    assert_eq!(next(&mut messages), Msg::FactSaved(Ok(())));
    assert_eq!(worker.finish(), None);
    let (store, _) = Store::open(&db).expect("reopen");
    assert!(
        store.load().expect("load").ordering.solved,
        "the early fact is on disk"
    );
}

#[test]
fn quitting_while_another_queuelab_holds_the_store_says_what_was_not_saved() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("progress.db");
    let _holder = held_store(&db);
    let (worker, mut messages, _ready) = spawn(&db);
    worker.send(StoreRequest::Save(Fact::OrderingSolved));
    assert!(matches!(next(&mut messages), Msg::StoreBusy));
    let unsaved = worker.finish().expect("a note about the unsaved change");
    assert!(unsaved.contains("1 change(s)"), "{unsaved}");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains("damaged")), "{names:?}");
}

#[test]
fn a_store_from_a_newer_queuelab_ends_the_session_and_says_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("progress.db");
    drop(Store::open(&db).expect("a fresh store"));
    let newer = rusqlite::Connection::open(&db).expect("open");
    newer
        .execute_batch("PRAGMA user_version = 9999;")
        .expect("a newer schema");
    drop(newer);
    let (worker, mut messages, _ready) = spawn(&db);
    let Msg::StoreFailed(StoreFault::TooNew { found, .. }) = next(&mut messages) else {
        panic!("the store refuses a newer file");
    };
    assert_eq!(found, 9999);
    let why = worker
        .finish()
        .expect("the reason, said after the terminal is back");
    assert!(why.contains("schema version 9999"), "{why}");
}

use super::*;
use domain::Fact;
use std::collections::BTreeSet;

const FP: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (store, _) = Store::open(&dir.path().join("progress.db")).expect("opens");
    (dir, store)
}

fn url(code: &str) -> JoinUrl {
    JoinUrl::parse(&format!("https://127.0.0.1:9/join?code={code}&fp={FP}")).expect("url")
}

#[test]
fn facts_queue_events_only_while_joined() {
    let (_dir, mut store) = store();
    store
        .save(&Fact::ChapterRead("intro".into()))
        .expect("save");
    assert_eq!(store.pending_count().expect("count"), 0);
    let member = store.join(&url("ABCDEFGH"), "Ada").expect("join");
    store
        .save(&Fact::ChapterRead("intro".into()))
        .expect("save");
    store
        .save(&Fact::ChecklistTicked {
            item: "x".into(),
            ticked: true,
        })
        .expect("save");
    let chosen: BTreeSet<String> = ["a".to_owned()].into();
    let attempt = store
        .start_attempt(&domain::quiz::Attempt::default())
        .expect("attempt");
    store
        .save_answer(attempt.id, "q1", &chosen, true, Some(1))
        .expect("answer");
    let pending = store.pending_events(10, None).expect("pending");
    let kinds: Vec<&EventKind> = pending.iter().map(|q| &q.event.kind).collect();
    assert_eq!(
        kinds.len(),
        4,
        "the chapter read before joining, chapter, answer, score; the checklist stays local: {kinds:?}"
    );
    assert!(pending.windows(2).all(|w| w[0].event.n < w[1].event.n));
    // Re-joining the same session keeps the id; another session starts fresh.
    assert_eq!(
        store
            .join(&url("ABCDEFGH"), "Ada L.")
            .expect("rejoin")
            .trainee_id,
        member.trainee_id
    );
    assert_eq!(store.pending_count().expect("count"), 4);
    assert_ne!(
        store
            .join(&url("ZZZZZZZZ"), "Ada")
            .expect("other")
            .trainee_id,
        member.trainee_id
    );
    // What waited for the old host is gone; the chapter read goes to the new one.
    assert_eq!(store.pending_count().expect("count"), 1);
}

#[test]
fn chapters_read_before_joining_reach_the_room() {
    let (_dir, mut store) = store();
    for chapter in ["intro", "outbox", "intro"] {
        store
            .save(&Fact::ChapterRead(chapter.into()))
            .expect("save");
    }
    store
        .save(&Fact::DecisionAnswered {
            decision: "broker-down".into(),
            option: "retry".into(),
        })
        .expect("save");
    store.join(&url("ABCDEFGH"), "Ada").expect("join");
    let pending = store.pending_events(10, None).expect("pending");
    let kinds: Vec<&EventKind> = pending.iter().map(|q| &q.event.kind).collect();
    // Each chapter once; an answer given before joining is not a vote in this room.
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    let chapters: BTreeSet<&str> = kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::ChapterRead { chapter } => Some(chapter.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(chapters, BTreeSet::from(["intro", "outbox"]));
    // Re-joining the same session sends nothing twice.
    store.join(&url("ABCDEFGH"), "Ada L.").expect("rejoin");
    assert_eq!(store.pending_count().expect("count"), 2);
}

#[test]
fn a_fact_that_fails_leaves_no_event_behind() {
    let (_dir, mut store) = store();
    store.join(&url("ABCDEFGH"), "Ada").expect("join");
    store
        .conn
        .execute_batch(
            "CREATE TRIGGER refuse BEFORE INSERT ON chapter_read BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
        )
        .expect("trigger");
    assert!(store.save(&Fact::ChapterRead("intro".into())).is_err());
    assert_eq!(
        store.pending_count().expect("count"),
        0,
        "event and fact commit together"
    );
}

#[test]
fn a_failed_delivery_waits_for_its_backoff() {
    let (_dir, mut store) = store();
    store.join(&url("ABCDEFGH"), "Ada").expect("join");
    store.save(&Fact::OrderingSolved).expect("save");
    let ids: Vec<String> = store
        .pending_events(10, None)
        .expect("pending")
        .into_iter()
        .map(|q| q.event.id)
        .collect();
    store.mark_failed(&ids, "host down").expect("failed");
    assert!(
        store
            .pending_events(10, Some(now_ms()))
            .expect("due")
            .is_empty()
    );
    assert_eq!(store.pending_events(10, None).expect("all")[0].attempts, 1);
    store.mark_delivered(&ids).expect("delivered");
    assert_eq!(store.pending_count().expect("count"), 0);
    assert!(store.leave().expect("leave"));
    assert!(store.membership().expect("read").is_none());
}

#[test]
fn leaving_and_joining_the_same_session_again_is_the_same_trainee() {
    let (_dir, mut store) = store();
    let first = store.join(&url("ABCDEFGH"), "Ada").expect("join");
    assert!(store.leave().expect("leave"));
    assert!(store.membership().expect("read").is_none());
    let again = store.join(&url("ABCDEFGH"), "Ada").expect("rejoin");
    assert_eq!(
        (&again.trainee_id, &again.token),
        (&first.trainee_id, &first.token),
        "the host must see the same trainee, not a second row"
    );
    // Another session after a leave is another trainee; going back to the first is not.
    store.leave().expect("leave");
    let other = store.join(&url("ZZZZZZZZ"), "Ada").expect("other");
    assert_ne!(other.trainee_id, first.trainee_id);
    store.leave().expect("leave");
    let third = store.join(&url("ABCDEFGH"), "Ada").expect("back");
    assert_ne!(
        third.trainee_id, first.trainee_id,
        "only the last session left is kept"
    );
}

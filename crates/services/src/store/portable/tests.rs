//! An import replaces exactly what the file carries. The code lock, the rate limits and the mail
//! outbox survive; quiz results travel in version 2 and stay with version 1; unknown ids and
//! oversized files are refused before anything changes.

use super::*;
use crate::store::{NewCode, NewMail};
use content::{ContentSource, Lang};
use domain::Fact;
use domain::otp::Verdict;
use domain::outbox::MailKind;
use domain::quiz::Attempt;
use std::collections::BTreeSet;

struct Setup {
    dir: tempfile::TempDir,
    store: Store,
    content: Content,
}

fn mail(kind: MailKind, id: &str) -> NewMail {
    NewMail {
        kind,
        message_id: format!("<{id}@example.org>"),
        recipient: "ada@example.org".into(),
        cc: None,
        subject: "s".into(),
        text: "Code: {code}".into(),
        html: None,
    }
}

/// A learner with a read chapter, an answered quiz, a queued code mail and two wrong tries.
fn setup() -> Setup {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut store, _) = Store::open(&dir.path().join("progress.db")).expect("open");
    let content = content::load(&ContentSource::Embedded).expect("content");
    let course = content.course(Lang::En);
    store
        .save(&Fact::ChapterRead(course.chapters[0].id.clone()))
        .expect("save");
    let attempt = store
        .start_attempt(&Attempt::new(&course.quiz, 7))
        .expect("attempt");
    let question = &course.quiz.questions[0];
    let chosen = BTreeSet::from([question.options[0].id.clone()]);
    store
        .save_answer(attempt.id, &question.id, &chosen, false, None)
        .expect("answer");
    store
        .issue_code("ada@example.org", attempt.id, 100, |_| {
            Ok(NewCode {
                nonce: vec![1; 16],
                tag: vec![2; 32],
                mail: mail(MailKind::Code, "c1"),
            })
        })
        .expect("store")
        .expect("issued");
    for at in [110, 111] {
        let wrong = |_: &_| Verdict::Wrong { remaining: 3 };
        store
            .decide_code(
                "ada@example.org",
                at,
                false,
                &mail(MailKind::Report, "r"),
                wrong,
            )
            .expect("try");
    }
    Setup {
        dir,
        store,
        content,
    }
}

#[test]
fn importing_your_own_export_keeps_quiz_code_lock_rate_limits_and_outbox() {
    let Setup {
        dir,
        mut store,
        content,
    } = setup();
    let file = dir.path().join("mine.json");
    store.export(&file).expect("export");
    let history = store.otp_history("ada@example.org").expect("history");
    let mails = store.mails().expect("mails");
    let attempt = store.latest_attempt().expect("read").expect("attempt");

    let doc = store.import(&file, &content).expect("import");
    assert_eq!(doc.version, PORTABLE_VERSION);
    assert_eq!(
        store.otp_history("ada@example.org").expect("history"),
        history,
        "lock and limits"
    );
    assert_eq!(
        store.mails().expect("mails"),
        mails,
        "the undelivered mail is still queued"
    );
    let after = store
        .latest_attempt()
        .expect("read")
        .expect("quiz results survive");
    assert_eq!(after.attempt.answers, attempt.attempt.answers);
    assert_eq!(after.attempt.order, attempt.attempt.order);
}

#[test]
fn a_version_1_file_is_read_and_leaves_the_quiz_alone() {
    let Setup {
        dir,
        mut store,
        content,
    } = setup();
    let chapter = content.course(Lang::En).chapters[1].id.clone();
    let file = dir.path().join("v1.json");
    let v1 = format!(
        r#"{{"format": "queuelab-progress", "version": 1, "progress": {{"chapters_read": ["{chapter}"]}}}}"#
    );
    std::fs::write(&file, v1).expect("write");
    let doc = store.import(&file, &content).expect("import v1");
    assert!(doc.quiz.is_none());
    assert_eq!(
        store.load().expect("load").chapters_read,
        BTreeSet::from([chapter])
    );
    assert!(store.latest_attempt().expect("read").is_some(), "quiz kept");
    assert_eq!(
        store.otp_history("ada@example.org").expect("h").failures,
        vec![110, 111]
    );
}

#[test]
fn unknown_ids_are_named_and_nothing_changes() {
    let Setup {
        dir,
        mut store,
        content,
    } = setup();
    let before = store.load().expect("load");
    let file = dir.path().join("foreign.json");
    let text = r#"{"format": "queuelab-progress", "version": 2,
        "progress": {"chapters_read": ["no-such-chapter"], "decisions": {"no-such-decision": "x"}},
        "quiz": [{"id": 1, "seed": 1, "started_at": 1, "finished_at": null, "score": null,
                  "order": {}, "answers": [{"question": "no-such-question", "options": ["a"],
                  "correct": true, "answered_at": 1}]}]}"#;
    std::fs::write(&file, text).expect("write");
    let Err(err) = store.import(&file, &content) else {
        panic!("unknown ids must be refused");
    };
    let message = err.to_string();
    for id in ["no-such-chapter", "no-such-decision", "no-such-question"] {
        assert!(message.contains(id), "{message}");
    }
    assert_eq!(store.load().expect("load"), before);
}

/// An export written before decision 4 lost `purge` (and decisions 1 and 2 two options) still
/// names them: the import forgets those answers and keeps the rest, instead of bringing
/// `purge` back past migration 5 or refusing the whole file.
#[test]
fn an_old_export_is_imported_without_its_retired_answers() {
    let Setup {
        dir,
        mut store,
        content,
    } = setup();
    let file = dir.path().join("old.json");
    let text = r#"{"format": "queuelab-progress", "version": 1,
        "progress": {"decisions": {"dlq-37": "purge", "broker-down": "publish-first",
                                   "large-pdf": "split-chunks", "lost-ack": "recognise-receipt"}}}"#;
    std::fs::write(&file, text).expect("write");
    let doc = store
        .import(&file, &content)
        .expect("import the old export");
    let kept =
        std::collections::BTreeMap::from([("lost-ack".to_owned(), "recognise-receipt".to_owned())]);
    assert_eq!(doc.progress.decisions, kept);
    assert_eq!(store.load().expect("load").decisions, kept);
    // A retired option of another decision is still an unknown id.
    std::fs::write(
        &file,
        r#"{"format": "queuelab-progress", "version": 1,
            "progress": {"decisions": {"lost-ack": "purge"}}}"#,
    )
    .expect("write");
    let Err(err) = store.import(&file, &content) else {
        panic!("lost-ack never offered purge");
    };
    assert!(err.to_string().contains("lost-ack=purge"), "{err}");
}

#[test]
fn a_file_over_10_mb_is_refused() {
    let Setup {
        dir,
        mut store,
        content,
    } = setup();
    let file = dir.path().join("huge.json");
    let padding = " ".repeat(usize::try_from(MAX_IMPORT_BYTES).expect("fits"));
    std::fs::write(
        &file,
        format!("{{\"format\": \"queuelab-progress\"{padding}}}"),
    )
    .expect("write");
    let Err(err) = store.import(&file, &content) else {
        panic!("a huge file must be refused");
    };
    assert!(err.to_string().contains("larger than 10 MB"), "{err}");
}

#[test]
fn lab_results_travel_in_version_3_and_stay_with_version_2() {
    let Setup {
        dir,
        mut store,
        content,
    } = setup();
    let lab = content.labs[0].id.clone();
    store
        .record_lab_check(&lab, false, "duplicate-effect")
        .expect("check");
    store.record_lab_check(&lab, true, "").expect("check");
    store.record_lab_hint(&lab, 2).expect("hint");
    let before = store.lab_results().expect("labs");
    let file = dir.path().join("mine.json");
    store.export(&file).expect("export");
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(text.contains("\"labs\"") && text.contains(&lab), "{text}");

    // Another machine: the results arrive with the file.
    let (mut other, _) = Store::open(&dir.path().join("other.db")).expect("open");
    other.import(&file, &content).expect("import");
    let after = other.lab_results().expect("labs");
    assert_eq!(after[&lab].attempts, before[&lab].attempts);
    assert_eq!(after[&lab].solved_at, before[&lab].solved_at);
    assert_eq!(after[&lab].hints, 2);

    // A version 2 file says nothing about labs: they stay.
    let chapter = content.course(Lang::En).chapters[1].id.clone();
    let v2 = dir.path().join("v2.json");
    std::fs::write(
        &v2,
        format!(r#"{{"format": "queuelab-progress", "version": 2, "progress": {{"chapters_read": ["{chapter}"]}}, "quiz": []}}"#),
    )
    .expect("write");
    other.import(&v2, &content).expect("import v2");
    assert_eq!(other.lab_results().expect("labs"), after);

    // Labs in a version 2 file, or a lab the content does not know: refused, nothing changes.
    for (name, text, says) in [
        (
            "v2-labs.json",
            r#"{"format": "queuelab-progress", "version": 2, "progress": {}, "labs": []}"#.to_owned(),
            "version 2 file has no \"labs\"",
        ),
        (
            "unknown.json",
            r#"{"format": "queuelab-progress", "version": 3, "progress": {}, "labs": [{"id": "99-nope", "attempts": 1, "solved_at": null, "hints": 0}]}"#.to_owned(),
            "unknown lab id(s) 99-nope",
        ),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).expect("write");
        let err = other.import(&file, &content).expect_err(name).to_string();
        assert!(err.contains(says), "{name}: {err}");
        assert_eq!(other.lab_results().expect("labs"), after, "{name}");
    }
}

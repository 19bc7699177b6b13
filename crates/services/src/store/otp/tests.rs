//! The one-time-code and outbox tables: issue and accept in one transaction each, single use
//! across connections, retry bookkeeping, and "clear results" leaving nothing behind.

use super::super::outbox::NewMail;
use super::*;
use domain::otp::IssueDenied;
use domain::outbox::{MailKind, MailStatus};
use domain::quiz::Attempt;
use std::collections::BTreeSet;

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

fn new_code(id: &str) -> NewCode {
    NewCode {
        nonce: vec![1; 16],
        tag: vec![2; 32],
        mail: mail(MailKind::Code, id),
    }
}

#[test]
fn issue_accept_retry_and_clear() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("progress.db");
    let (mut store, _) = Store::open(&path).expect("open");
    let attempt = store.start_attempt(&Attempt::default()).expect("attempt");
    store
        .save_answer(
            attempt.id,
            "q1",
            &BTreeSet::from(["a".to_owned()]),
            true,
            Some(1),
        )
        .expect("answer");
    let (code_id, mail_id) = issue_deny_and_fail(&mut store, attempt.id);
    retry_bookkeeping(&mut store, &path, mail_id);
    let other = accept_once(&mut store, &path, code_id);
    // Failed reports come back with `mail retry`; code mails do not.
    let report_id = store.due_mails(150).expect("due")[0].id;
    store
        .mark_mail_failed(report_id, "gave up")
        .expect("failed");
    assert_eq!(
        store.report_mail_status().expect("status"),
        Some(MailStatus::Failed("gave up".into()))
    );
    assert_eq!(store.requeue_mails(300).expect("requeue"), 1);
    assert_eq!(store.due_mails(300).expect("due").len(), 1);

    store.clear().expect("clear");
    assert!(store.mails().expect("mails").is_empty());
    assert!(store.report_request().expect("request").is_none());
    assert_eq!(
        store.otp_history("ada@example.org").expect("h"),
        OtpHistory::default()
    );
    assert!(store.latest_attempt().expect("attempt").is_none());
    drop((store, other));
    let bytes = std::fs::read(&path).expect("db");
    assert!(
        !bytes
            .windows(15)
            .any(|w| w.eq_ignore_ascii_case(b"ada@example.org")),
        "the address is gone from the file after clear (VACUUM)"
    );
}

/// A code is issued, a second one within the cooldown denied without a mail, a wrong code
/// counted per address, case-insensitively. The code's and its mail's ids.
fn issue_deny_and_fail(store: &mut Store, attempt_id: i64) -> (i64, i64) {
    let (code_id, mail_id) = store
        .issue_code("Ada@Example.org", attempt_id, 100, |h| {
            assert!(h.codes.is_empty());
            Ok(new_code("c1"))
        })
        .expect("store")
        .expect("issued");
    let denied = store
        .issue_code("ada@example.org", attempt_id, 120, |h| {
            assert_eq!(
                h.codes.len(),
                1,
                "the history is per address, case-insensitive"
            );
            Err(IssueDenied::Cooldown { wait_secs: 40 })
        })
        .expect("store");
    assert_eq!(denied, Err(IssueDenied::Cooldown { wait_secs: 40 }));
    assert_eq!(
        store.mails().expect("mails").len(),
        1,
        "a denied code queues nothing"
    );
    let wrong = store
        .decide_code(
            "ada@example.org",
            130,
            false,
            &mail(MailKind::Report, "r0"),
            |_| Verdict::Wrong { remaining: 4 },
        )
        .expect("failure");
    assert_eq!(wrong, Verdict::Wrong { remaining: 4 });
    assert_eq!(
        store.otp_history("ADA@example.org").expect("h").failures,
        vec![130]
    );

    (code_id, mail_id)
}

/// Retry bookkeeping on the code mail: the lease keeps a second dispatcher off the row.
fn retry_bookkeeping(store: &mut Store, path: &std::path::Path, mail_id: i64) {
    assert_eq!(store.due_mails(100).expect("due").len(), 1);
    assert!(store.begin_mail_attempt(mail_id, 100).expect("begin"));
    let (mut rival, _) = Store::open(path).expect("a second dispatcher");
    assert!(
        !rival.begin_mail_attempt(mail_id, 101).expect("begin"),
        "the lease keeps a second dispatcher off the row"
    );
    assert!(rival.due_mails(101).expect("due").is_empty());
    drop(rival);
    store
        .mark_mail_retry(mail_id, 200, "451 later")
        .expect("retry");
    assert!(store.due_mails(150).expect("due").is_empty());
    assert_eq!(store.next_mail_due().expect("next"), Some(200));
    store.mark_mail_sent(mail_id, 200, "smtp").expect("sent");
    assert_eq!(store.next_mail_due().expect("next"), None);
}

/// Accepting is single use, also from a second connection (returned, still open).
fn accept_once(store: &mut Store, path: &std::path::Path, code_id: i64) -> Store {
    let (mut other, _) = Store::open(path).expect("second connection");
    let report = mail(MailKind::Report, "r1");
    let accept = |_: &OtpHistory| Verdict::Accepted { code_id };
    assert_eq!(
        store
            .decide_code("ada@example.org", 140, true, &report, accept)
            .expect("accept"),
        Verdict::Accepted { code_id }
    );
    assert_eq!(
        other
            .decide_code("ada@example.org", 141, true, &report, accept)
            .expect("again"),
        Verdict::AlreadyUsed
    );
    assert_eq!(
        store.report_mail_status().expect("status"),
        Some(MailStatus::Queued)
    );
    let request = store.report_request().expect("request").expect("some");
    assert!(request.confirmed);
    assert_eq!(request.address, "Ada@Example.org");

    other
}

/// Codes to many different addresses stop at the limit for all addresses.
#[test]
fn codes_across_all_addresses_are_limited_per_hour() {
    use domain::otp::{MAX_CODES_PER_WINDOW_ALL, WINDOW_SECS};
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut store, _) = Store::open(&dir.path().join("progress.db")).expect("open");
    let attempt = store.start_attempt(&Attempt::default()).expect("attempt");
    let issue = |store: &mut Store, n: usize, now: i64| {
        store
            .issue_code(&format!("learner{n}@example.org"), attempt.id, now, |_| {
                Ok(new_code(&format!("c{n}")))
            })
            .expect("store")
    };
    for n in 0..MAX_CODES_PER_WINDOW_ALL {
        assert!(issue(&mut store, n, 1_000 + n as i64).is_ok(), "code {n}");
    }
    let denied = issue(&mut store, 99, 1_020);
    assert_eq!(
        denied,
        Err(IssueDenied::MachineLimit {
            wait_secs: 1_000 + WINDOW_SECS - 1_020
        })
    );
    assert!(
        issue(&mut store, 100, 1_000 + WINDOW_SECS).is_ok(),
        "one slot frees when the oldest code leaves the hour"
    );
}

//! A real server's refusal reaches a German learner as a German sentence that quotes the server's
//! own words; the raw reason stays in the outbox row (and the log).

use super::fixture;
use super::server::{Mode, Smtp, dead_port};
use queuelab::content::{ContentSource, Lang, Strings, load};
use queuelab::domain::outbox::MailStatus;
use queuelab::domain::send_failure::explain;
use queuelab::services::mail::Outcome;
use queuelab::services::store::now_secs;

fn german() -> Strings {
    load(&ContentSource::Embedded)
        .expect("content")
        .course(Lang::De)
        .strings
        .clone()
}

#[test]
fn a_refused_address_and_a_refused_connection_are_said_in_german() {
    let de = german();
    let smtp = Smtp::start();
    smtp.set_mode(Mode::Permanent);
    let mut fx = fixture(None);
    let now = now_secs();
    fx.request_code(now);
    let outcomes = fx
        .smtp(smtp.port)
        .run_due(&mut fx.store, now)
        .expect("dispatch");
    let [Outcome::Failed { reason, .. }] = &outcomes[..] else {
        panic!("a 550 fails at once: {outcomes:?}");
    };
    let stored = fx.store.mails().expect("mails");
    assert_eq!(
        stored[0].status,
        MailStatus::Failed(reason.clone()),
        "raw in the row"
    );
    assert!(reason.contains("Mailbox unavailable"), "{reason}");
    let text = explain(reason, &de);
    assert_eq!(
        text,
        "Der Mailserver hat die Adresse abgelehnt (Code 550: „Mailbox unavailable“). Prüf die Adresse.",
        "{reason}"
    );

    // Nothing listens: the system's words are quoted in a German sentence.
    let mut fx = fixture(None);
    fx.request_code(now);
    let outcomes = fx
        .smtp(dead_port())
        .run_due(&mut fx.store, now)
        .expect("dispatch");
    let [Outcome::Retry { reason, .. }] = &outcomes[..] else {
        panic!("a refused connection is retried: {outcomes:?}");
    };
    let text = explain(reason, &de);
    assert!(
        text.starts_with("Der Mailserver nimmt keine Verbindung an („"),
        "{reason} -> {text}"
    );
    assert!(text.contains("mail.host und mail.port"), "{text}");

    // A 4xx at MAIL FROM: refused for now, with its code and words.
    let mut fx = fixture(None);
    smtp.set_mode(Mode::Temporary);
    fx.request_code(now);
    let outcomes = fx
        .smtp(smtp.port)
        .run_due(&mut fx.store, now)
        .expect("dispatch");
    let [Outcome::Retry { reason, .. }] = &outcomes[..] else {
        panic!("a 451 is retried: {outcomes:?}");
    };
    assert_eq!(
        explain(reason, &de),
        "Der Mailserver hat die Mail abgelehnt (Code 451: „Aborted: local error in processing“).",
        "{reason}"
    );
}

//! Header injection, codes that belong to another process, and the lock after wrong tries.

use super::server::{Fault, Mode, Smtp, faulty_server};
use super::{Fixture, LEARNER, fixture, header, queued_report};
use queuelab::domain::otp::{MAX_FAILURES, VALIDITY_SECS, Verdict};
use queuelab::domain::outbox::{DEFAULT_RETRY, MailKind, MailStatus};
use queuelab::services::config::{Mail, Security, Transport};
use queuelab::services::mail::{
    self, CodeVault, Dispatcher, FileTransport, Outcome, SmtpTransport,
};
use queuelab::services::store::{NewMail, OutboxMail, now_secs};
use std::time::Duration;

fn smtp_config(port: u16) -> Mail {
    Mail {
        transport: Transport::Smtp,
        host: Some("127.0.0.1".into()),
        port: Some(port),
        security: Security::None,
        from: Some("Queue Lab <lab@example.org>".into()),
        ..Mail::default()
    }
}

fn report_row(fx: &Fixture) -> OutboxMail {
    fx.store
        .mails()
        .expect("mails")
        .into_iter()
        .find(|m| m.mail.kind == MailKind::Report)
        .expect("report row")
}

fn row(subject: &str, recipient: &str, cc: Option<&str>) -> OutboxMail {
    OutboxMail {
        id: 1,
        mail: NewMail {
            kind: MailKind::Report,
            message_id: "<abc.queuelab@example.org>".into(),
            recipient: recipient.into(),
            cc: cc.map(str::to_owned),
            subject: subject.into(),
            text: "Body\r\n.\r\nRCPT TO:<eve@evil.org>\r\n".into(),
            html: Some("<p>x</p>".into()),
        },
        otp_code_id: None,
        created_at: 1_800_000_000,
        status: MailStatus::Queued,
        attempts: 0,
        next_attempt_at: 0,
        last_error: None,
        delivered_to: None,
    }
}

#[test]
fn header_injection_stays_encoded_and_bad_addresses_never_reach_the_wire() {
    let from = mail::from_mailbox(Some("Lab <lab@example.org>")).expect("from");
    let message = mail::build_message(
        &row("Report\r\nBcc: eve@evil.org\r\nX-Evil: 1", LEARNER, None),
        &from,
        None,
    )
    .expect("message");
    let raw = String::from_utf8(message.formatted()).expect("utf8");
    let headers: Vec<&str> = raw.lines().take_while(|l| !l.is_empty()).collect();
    assert!(
        !headers
            .iter()
            .any(|l| l.starts_with("Bcc:") || l.starts_with("X-Evil:")),
        "{headers:#?}"
    );
    assert_eq!(message.envelope().to().len(), 1, "only the learner");
    for bad in [
        "ada@example.org\r\nBcc: eve@evil.org",
        "ada@example.org, eve@evil.org",
        "ada@example.org>\r\nRCPT TO:<eve@evil.org",
    ] {
        assert!(mail::validate_address(bad).is_err(), "{bad:?}");
        assert!(
            mail::build_message(&row("s", bad, None), &from, None).is_err(),
            "{bad:?} must not become a recipient"
        );
        assert!(mail::build_message(&row("s", LEARNER, Some(bad)), &from, None).is_err());
    }
    // A line with a single dot in the body is dot-stuffed on the wire: the server sees one
    // mail to one recipient, with the fake command as body text.
    let smtp = Smtp::start();
    let config = Mail {
        transport: Transport::Smtp,
        host: Some("127.0.0.1".into()),
        port: Some(smtp.port),
        security: Security::None,
        from: Some("Lab <lab@example.org>".into()),
        ..Mail::default()
    };
    let transport = SmtpTransport::from_config(&config).expect("transport");
    let dotted = row("Report", LEARNER, None);
    let message = mail::build_message(&dotted, &from, None).expect("message");
    mail::Transport::send(&transport, &message, &dotted).expect("sent");
    let received = smtp.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].to, vec![LEARNER.to_owned()]);
    assert_eq!(header(&received[0].data, "To"), Some(LEARNER));
    assert!(received[0].data.contains("RCPT TO:<eve@evil.org>"));
}

#[test]
fn a_code_mail_without_its_code_waits_then_fails_and_is_never_sent_empty() {
    let mut fx = fixture(None);
    let now = now_secs();
    fx.request_code(now);
    // Another process: same store, its own (empty) vault.
    let other = Dispatcher::new(
        Box::new(FileTransport::new(&fx.dir.path().join("mail"))),
        fx.flow.from.clone(),
        CodeVault::shared(),
        DEFAULT_RETRY,
    );
    assert!(
        other
            .run_due(&mut fx.store, now + 1)
            .expect("run")
            .is_empty()
    );
    let outcomes = other
        .run_due(&mut fx.store, now + VALIDITY_SECS)
        .expect("run");
    assert!(
        matches!(
            &outcomes[..],
            [Outcome::Failed {
                kind: MailKind::Code,
                ..
            }]
        ),
        "{outcomes:?}"
    );
    assert!(!fx.dir.path().join("mail").exists(), "nothing was written");
}

#[test]
fn wrong_codes_lock_and_a_new_code_does_not_unlock() {
    let mut fx = fixture(None);
    let now = now_secs();
    fx.request_code(now);
    let report = fx.report();
    let mut last = Verdict::NoCode;
    for i in 0..MAX_FAILURES {
        // "000000" and "999999" cannot both be the code; pick one that is not.
        let guess = if i % 2 == 0 { "000000" } else { "999999" };
        last = fx
            .flow
            .confirm_code(&mut fx.store, LEARNER, guess, now + 1, false, &report)
            .expect("confirm");
        if matches!(last, Verdict::Accepted { .. }) {
            return; // a one-in-a-million hit: the lock cannot be tested with this code
        }
    }
    assert_eq!(last, Verdict::Wrong { remaining: 0 });
    let issued = fx
        .flow
        .request_code(
            &mut fx.store,
            &fx.course.strings,
            LEARNER,
            fx.attempt_id,
            now + 120,
        )
        .expect("store");
    assert!(issued.is_err(), "locked: no new code");
    let verdict = fx
        .flow
        .confirm_code(&mut fx.store, LEARNER, "123456", now + 121, false, &report)
        .expect("confirm");
    assert!(matches!(verdict, Verdict::Locked { .. }), "{verdict:?}");
}

/// A 5xx fails at once with the server's reason (no eight retries over an hour and a half) and
/// `mail retry` sends it once the cause is fixed; a TLS failure and a timeout are named as such,
/// not as "connection failure".
#[test]
fn permanent_errors_fail_at_once_and_tls_and_timeouts_are_named() {
    let mut fx = queued_report(now_secs());
    let smtp = Smtp::start();
    smtp.set_mode(Mode::Permanent);
    let now = now_secs() + 10;
    let outcomes = fx
        .smtp(smtp.port)
        .run_due(&mut fx.store, now)
        .expect("dispatch");
    let [Outcome::Failed { reason, .. }] = &outcomes[..] else {
        panic!("a 5xx should fail at once, got {outcomes:?}");
    };
    assert!(
        reason.starts_with("permanent server error") && reason.contains("550"),
        "{reason}"
    );
    let row = report_row(&fx);
    assert_eq!(row.status, MailStatus::Failed(reason.clone()));
    assert_eq!(row.attempts, 1, "no retries after a permanent refusal");

    // The cause is fixed; `mail retry` revives the report and it goes out once.
    smtp.set_mode(Mode::Accept);
    assert_eq!(fx.store.requeue_mails(now + 60).expect("requeue"), 1);
    let outcomes = fx
        .smtp(smtp.port)
        .run_due(&mut fx.store, now + 60)
        .expect("dispatch");
    assert!(
        matches!(outcomes[..], [Outcome::Sent { .. }]),
        "{outcomes:?}"
    );
    assert_eq!(smtp.received().len(), 1);

    // A refusal after the whole message (a content filter's 554) is permanent too. Each new
    // fixture queues its report at the real "now", so the clock is read again after it: on a
    // loaded machine the steps above can take longer than the ten seconds of slack.
    let mut fx = queued_report(now_secs());
    let now = now_secs() + 10;
    let port = faulty_server(Fault::RejectAfterData);
    let outcomes = fx.smtp(port).run_due(&mut fx.store, now).expect("dispatch");
    let [Outcome::Failed { reason, .. }] = &outcomes[..] else {
        panic!("a 554 should fail at once, got {outcomes:?}");
    };
    assert!(reason.contains("554"), "{reason}");

    // Implicit TLS against a plain-text server, and a server that never says hello.
    let mut fx = queued_report(now_secs());
    let now = now_secs() + 10;
    let tls = fx
        .smtp_with(smtp.port, Security::Tls)
        .run_due(&mut fx.store, now)
        .expect("dispatch");
    let [Outcome::Retry { reason, .. }] = &tls[..] else {
        panic!("{tls:?}");
    };
    assert!(reason.starts_with("TLS failure"), "{reason}");
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = silent.local_addr().expect("addr").port();
    let transport = SmtpTransport::from_config(&smtp_config(port))
        .expect("smtp")
        .with_deadline(Duration::from_secs(1));
    let dispatcher = Dispatcher::new(
        Box::new(transport),
        fx.flow.from.clone(),
        fx.vault.clone(),
        DEFAULT_RETRY,
    );
    let late = dispatcher
        .run_due(&mut fx.store, now + 3_600)
        .expect("dispatch");
    let [Outcome::Retry { reason, .. }] = &late[..] else {
        panic!("{late:?}");
    };
    assert!(reason.starts_with("timeout"), "{reason}");
    drop(silent);
}

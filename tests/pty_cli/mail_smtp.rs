//! Mail against a real SMTP server on loopback: the code mail and the report arrive with the
//! right MIME parts and headers; server down, 4xx, TLS and a dropped connection leave the mail
//! queued and it is later delivered exactly once; the code never reaches the database or log.

mod hardening;
mod language;
mod named;
pub mod server;
mod slow;

use queuelab::content::{ContentSource, Course, Lang, load};
use queuelab::domain::Progress;
use queuelab::domain::otp::Verdict;
use queuelab::domain::outbox::{DEFAULT_RETRY, MailKind, MailStatus};
use queuelab::domain::quiz::Attempt;
use queuelab::domain::report::{self, Report, ReportInput};
use queuelab::services::config::{Mail, Security, Transport};
use queuelab::services::mail::{
    self, CodeVault, Dispatcher, FileTransport, Outcome, ReportFlow, SmtpTransport,
};
use queuelab::services::store::now_secs;
use queuelab::services::{Store, log};
use server::{Fault, Mode, Smtp, dead_port, faulty_server};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

const LEARNER: &str = "ada@example.org";
const INSTRUCTOR: &str = "coach@example.org";

struct Fixture {
    dir: tempfile::TempDir,
    store: Store,
    course: Course,
    vault: Arc<CodeVault>,
    flow: ReportFlow,
    attempt_id: i64,
}

/// A fixture whose code was asked for and confirmed at `start`: its report waits in the
/// outbox.
fn queued_report(start: i64) -> Fixture {
    let mut fx = fixture(None);
    fx.request_code(start);
    fx.file()
        .run_due(&mut fx.store, start)
        .expect("code to file");
    let eml = std::fs::read_to_string(fx.dir.path().join("mail/000001-code.eml")).expect("eml");
    let report = fx.report();
    let verdict = fx
        .flow
        .confirm_code(
            &mut fx.store,
            LEARNER,
            &code_in(&eml),
            start + 5,
            false,
            &report,
        )
        .expect("confirm");
    assert!(matches!(verdict, Verdict::Accepted { .. }));
    fx
}

fn fixture(instructor: Option<&str>) -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut store, _) = Store::open(&dir.path().join("progress.db")).expect("store");
    let course = load(&ContentSource::Embedded)
        .expect("content")
        .course(Lang::En)
        .clone();
    let attempt = store
        .start_attempt(&Attempt::new(&course.quiz, 11))
        .expect("attempt");
    let asked = attempt.questions(&course.quiz);
    let n = asked.len();
    for (i, q) in asked.into_iter().enumerate() {
        let right: BTreeSet<String> = q
            .options
            .iter()
            .filter(|o| o.correct)
            .map(|o| o.id.clone())
            .collect();
        let finished = (i + 1 == n).then_some(n as u32);
        store
            .save_answer(attempt.id, &q.id, &right, true, finished)
            .expect("answer");
    }
    let vault = CodeVault::shared();
    let flow = ReportFlow {
        key: mail::load_or_create_key(&dir.path().join("otp.key")).expect("key"),
        vault: vault.clone(),
        from: mail::from_mailbox(Some("Queue Lab <lab@example.org>")).expect("from"),
        instructor_cc: instructor.map(str::to_owned),
    };
    Fixture {
        dir,
        store,
        course,
        vault,
        flow,
        attempt_id: attempt.id,
    }
}

impl Fixture {
    fn report(&self) -> Report {
        let stored = self
            .store
            .latest_finished_attempt()
            .expect("read")
            .expect("finished attempt");
        report::build(&ReportInput {
            course: &self.course,
            scenarios: &[],
            lang: Lang::En,
            workshop: "Queue Lab",
            date: "2026-11-30",
            progress: &Progress::default(),
            attempt: &stored.attempt,
            learner: None,
            labs: &[],
            lab_results: &std::collections::BTreeMap::new(),
        })
    }

    fn smtp(&self, port: u16) -> Dispatcher {
        self.smtp_with(port, Security::None)
    }

    fn smtp_with(&self, port: u16, security: Security) -> Dispatcher {
        let config = Mail {
            transport: Transport::Smtp,
            host: Some("127.0.0.1".into()),
            port: Some(port),
            security,
            from: Some("Queue Lab <lab@example.org>".into()),
            ..Mail::default()
        };
        let transport = SmtpTransport::from_config(&config).expect("smtp transport");
        Dispatcher::new(
            Box::new(transport),
            self.flow.from.clone(),
            self.vault.clone(),
            DEFAULT_RETRY,
        )
    }

    fn file(&self) -> Dispatcher {
        let transport = FileTransport::new(&self.dir.path().join("mail"));
        Dispatcher::new(
            Box::new(transport),
            self.flow.from.clone(),
            self.vault.clone(),
            DEFAULT_RETRY,
        )
    }

    fn request_code(&mut self, now: i64) {
        self.flow
            .request_code(
                &mut self.store,
                &self.course.strings,
                LEARNER,
                self.attempt_id,
                now,
            )
            .expect("store")
            .expect("a code may be sent");
    }
}

/// The six digits after "report: " in a code mail.
fn code_in(raw: &str) -> String {
    let start = raw.find("report: ").expect("code line") + "report: ".len();
    let code: String = raw[start..].chars().take(6).collect();
    assert!(code.bytes().all(|b| b.is_ascii_digit()), "{code:?}");
    code
}

fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    raw.lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
}

fn file_bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_default()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[test]
fn code_and_report_arrive_with_their_parts_and_the_code_is_stored_nowhere() {
    let smtp = Smtp::start();
    let mut fx = fixture(Some(INSTRUCTOR));
    log::init(&fx.dir.path().join("queuelab.log")).expect("log");
    let dispatcher = fx.smtp(smtp.port);
    let now = now_secs();
    fx.request_code(now);
    let sent = dispatcher.run_due(&mut fx.store, now).expect("dispatch");
    assert!(
        matches!(
            sent[..],
            [Outcome::Sent {
                kind: MailKind::Code,
                ..
            }]
        ),
        "{sent:?}"
    );
    let code_mail = smtp.received().pop().expect("code mail arrived");
    assert_eq!(
        code_mail.to,
        vec![LEARNER.to_owned()],
        "no copy of the code mail"
    );
    let raw = &code_mail.data;
    let code = code_in(raw);
    assert_code_mail_headers(raw, &fx.store);

    let report = fx.report();
    let verdict = fx
        .flow
        .confirm_code(&mut fx.store, LEARNER, &code, now + 30, true, &report)
        .expect("confirm");
    assert!(matches!(verdict, Verdict::Accepted { .. }));
    let again = fx
        .flow
        .confirm_code(&mut fx.store, LEARNER, &code, now + 31, true, &report)
        .expect("confirm again");
    assert_eq!(again, Verdict::AlreadyUsed, "single use");
    let sent = dispatcher
        .run_due(&mut fx.store, now + 31)
        .expect("dispatch");
    assert!(
        matches!(
            sent[..],
            [Outcome::Sent {
                kind: MailKind::Report,
                ..
            }]
        ),
        "{sent:?}"
    );
    let mails = smtp.received();
    assert_eq!(mails.len(), 2);
    let report_mail = &mails[1];
    let mut rcpt = report_mail.to.clone();
    rcpt.sort();
    assert_eq!(
        rcpt,
        vec![LEARNER.to_owned(), INSTRUCTOR.to_owned()],
        "copy with consent"
    );
    assert_report_mail_parts(&report_mail.data, &fx.store);

    // The code is in the mail only: not in the database, its WAL, nor the log.
    drop(fx.store);
    for file in ["progress.db", "progress.db-wal", "queuelab.log"] {
        let bytes = file_bytes(&fx.dir.path().join(file));
        assert!(!contains(&bytes, &code), "{file} holds the code");
    }
    assert!(contains(
        &file_bytes(&fx.dir.path().join("queuelab.log")),
        "sent via"
    ));
}

#[test]
fn down_4xx_tls_and_dropped_connections_keep_the_report_queued_then_deliver_it_once() {
    let mut fx = fixture(None);
    let start = now_secs();
    fx.request_code(start);
    fx.file()
        .run_due(&mut fx.store, start)
        .expect("code to file");
    let eml = std::fs::read_to_string(fx.dir.path().join("mail/000001-code.eml")).expect("eml");
    let code = code_in(&eml);
    let report = fx.report();
    let verdict = fx
        .flow
        .confirm_code(&mut fx.store, LEARNER, &code, start + 5, false, &report)
        .expect("confirm");
    assert!(matches!(verdict, Verdict::Accepted { .. }));

    let smtp = Smtp::start();
    let mut now = start + 10;
    for (name, mode, port, security) in [
        ("down", Mode::Accept, dead_port(), Security::None),
        ("4xx", Mode::Temporary, smtp.port, Security::None),
        (
            "drop",
            Mode::Accept,
            faulty_server(Fault::Drop),
            Security::None,
        ),
        // Implicit TLS against a plain-text server: the handshake fails.
        ("tls", Mode::Accept, smtp.port, Security::Tls),
    ] {
        smtp.set_mode(mode);
        now = retry_after(&mut fx, name, port, security, now);
    }
    assert!(smtp.received().is_empty(), "nothing accepted so far");
    smtp.set_mode(Mode::Accept);
    let outcomes = fx
        .smtp(smtp.port)
        .run_due(&mut fx.store, now)
        .expect("dispatch");
    assert!(
        matches!(
            outcomes[..],
            [Outcome::Sent {
                kind: MailKind::Report,
                ..
            }]
        ),
        "{outcomes:?}"
    );
    for later in [now + 1, now + 3_600, now + 86_400] {
        assert!(
            fx.smtp(smtp.port)
                .run_due(&mut fx.store, later)
                .expect("dispatch")
                .is_empty()
        );
    }
    let received = smtp.received();
    assert_eq!(received.len(), 1, "delivered exactly once");
    assert_eq!(
        received[0].to,
        vec![LEARNER.to_owned()],
        "no copy without consent"
    );
    assert!(header(&received[0].data, "Cc").is_none());
    let row = fx
        .store
        .mails()
        .expect("mails")
        .into_iter()
        .next()
        .expect("row");
    assert_eq!(row.status, MailStatus::Sent);
    assert_eq!(row.attempts, 5);
}

/// The code mail's headers: its stored Message-ID, the learner, the sender, the subject, plain
/// text and a date.
fn assert_code_mail_headers(raw: &str, store: &Store) {
    let stored = store.mails().expect("mails");
    assert_eq!(
        header(raw, "Message-ID"),
        Some(stored[0].mail.message_id.as_str())
    );
    assert_eq!(header(raw, "To"), Some(LEARNER));
    assert_eq!(header(raw, "From"), Some("\"Queue Lab\" <lab@example.org>"));
    assert_eq!(
        header(raw, "Subject"),
        Some("Your queuelab confirmation code")
    );
    assert!(header(raw, "Content-Type").is_some_and(|c| c.starts_with("text/plain")));
    assert!(header(raw, "Date").is_some());
}

/// The report mail: a copy to the instructor, both parts, its own Message-ID.
fn assert_report_mail_parts(raw: &str, store: &Store) {
    assert_eq!(header(raw, "Cc"), Some(INSTRUCTOR));
    assert_eq!(header(raw, "Subject"), Some("Your queuelab report"));
    assert!(header(raw, "Content-Type").is_some_and(|c| c.starts_with("multipart/alternative")));
    assert!(raw.contains("Content-Type: text/plain; charset=utf-8"));
    assert!(raw.contains("Content-Type: text/html; charset=utf-8"));
    let ids: BTreeSet<_> = store
        .mails()
        .expect("mails")
        .iter()
        .map(|m| m.mail.message_id.clone())
        .collect();
    assert_eq!(ids.len(), 2, "each mail has its own Message-ID");
}

/// One failed try (`name`) through the server at `port`: a retry with a backoff, the report
/// still queued and not due before the backoff ends. When the next try is due.
fn retry_after(fx: &mut Fixture, name: &str, port: u16, security: Security, now: i64) -> i64 {
    let outcomes = fx
        .smtp_with(port, security)
        .run_due(&mut fx.store, now)
        .expect("dispatch");
    let [
        Outcome::Retry {
            next_at, reason, ..
        },
    ] = &outcomes[..]
    else {
        panic!("{name}: expected a retry, got {outcomes:?}");
    };
    assert!(*next_at > now, "{name}: backoff");
    assert!(!reason.is_empty());
    let report_row = fx
        .store
        .mails()
        .expect("mails")
        .into_iter()
        .next()
        .expect("row");
    assert_eq!(
        report_row.status,
        MailStatus::Queued,
        "{name}: still queued"
    );
    assert!(
        fx.smtp(port)
            .run_due(&mut fx.store, now)
            .expect("dispatch")
            .is_empty(),
        "{name}: not due before the backoff ends"
    );
    *next_at
}

//! A server that answers one byte at a time. The per-read timeout never fires, so only the overall
//! send deadline (shorter than the outbox lease) ends the first send. A second dispatcher that
//! finds the lease expired then sends, and the server gets one report.

use super::queued_report;
use queuelab::domain::outbox::{DEFAULT_RETRY, MailKind, MailStatus};
use queuelab::services::Store;
use queuelab::services::config::{Mail, Security, Transport};
use queuelab::services::mail::{Dispatcher, Outcome, SmtpTransport};
use queuelab::services::store::{MAIL_LEASE_SECS, now_secs};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The gap between two bytes of every reply on the first connection.
const DRIBBLE: Duration = Duration::from_millis(300);

/// An SMTP responder whose first connection answers one byte every `DRIBBLE`; later ones answer
/// at once. Counts messages it accepted (a complete DATA with its 250 written).
/// Also says when the slow first conversation has ended (the client hung up, or it finished).
fn dribbling_server() -> (u16, Arc<AtomicUsize>, Arc<AtomicBool>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let delivered = Arc::new(AtomicUsize::new(0));
    let slow_ended = Arc::new(AtomicBool::new(false));
    let (count, ended) = (Arc::clone(&delivered), Arc::clone(&slow_ended));
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().flatten().enumerate() {
            let (count, ended) = (Arc::clone(&count), Arc::clone(&ended));
            std::thread::spawn(move || {
                converse(stream, n == 0, &count);
                if n == 0 {
                    ended.store(true, Ordering::SeqCst);
                }
            });
        }
    });
    (port, delivered, slow_ended)
}

fn reply(stream: &mut TcpStream, text: &[u8], slow: bool) -> bool {
    if !slow {
        return stream.write_all(text).is_ok();
    }
    for byte in text {
        std::thread::sleep(DRIBBLE);
        if stream.write_all(&[*byte]).is_err() {
            return false;
        }
    }
    true
}

fn converse(mut stream: TcpStream, slow: bool, delivered: &AtomicUsize) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    if !reply(&mut stream, b"220 slow.test ESMTP\r\n", slow) {
        return;
    }
    let (mut in_data, mut line) = (false, String::new());
    while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
        let upper = line.to_ascii_uppercase();
        let answer: &[u8] = if in_data {
            if line == ".\r\n" {
                in_data = false;
                b"250 ok queued\r\n"
            } else {
                b""
            }
        } else if upper.starts_with("EHLO") {
            b"250 slow.test\r\n"
        } else if upper.starts_with("DATA") {
            in_data = true;
            b"354 go ahead\r\n"
        } else if upper.starts_with("QUIT") {
            let _ = reply(&mut stream, b"221 bye\r\n", slow);
            return;
        } else {
            b"250 ok\r\n"
        };
        if !answer.is_empty() && !reply(&mut stream, answer, slow) {
            return;
        }
        if answer.starts_with(b"250 ok queued") {
            delivered.fetch_add(1, Ordering::SeqCst);
        }
        line.clear();
    }
}

fn dispatcher(port: u16, deadline: Duration) -> Dispatcher {
    let config = Mail {
        transport: Transport::Smtp,
        host: Some("127.0.0.1".into()),
        port: Some(port),
        security: Security::None,
        from: Some("Queue Lab <lab@example.org>".into()),
        ..Mail::default()
    };
    let transport = SmtpTransport::from_config(&config)
        .expect("smtp")
        .with_deadline(deadline);
    let from = queuelab::services::mail::from_mailbox(config.from.as_deref()).expect("from");
    Dispatcher::new(
        Box::new(transport),
        from,
        queuelab::services::mail::CodeVault::shared(),
        DEFAULT_RETRY,
    )
}

#[test]
fn a_server_answering_one_byte_at_a_time_gets_the_report_exactly_once() {
    let start = now_secs();
    let mut fx = queued_report(start);

    let (port, delivered, slow_ended) = dribbling_server();
    let db = fx.store.path().to_path_buf();
    // The first dispatcher meets the dribbling connection; its send must end by its deadline.
    let first = std::thread::spawn(move || {
        let (mut store, _) = Store::open(&db).expect("second connection");
        dispatcher(port, Duration::from_secs(2))
            .run_due(&mut store, start + 10)
            .expect("dispatch")
    });
    std::thread::sleep(Duration::from_millis(500));
    // Meanwhile `mail retry` runs at a moment the first lease has expired (the clock is a
    // parameter, so no test waits two minutes): it sends on a fast connection.
    fx.store
        .requeue_mails(start + 10 + MAIL_LEASE_SECS)
        .expect("requeue");
    let second = dispatcher(port, Duration::from_secs(30))
        .run_due(&mut fx.store, start + 11 + MAIL_LEASE_SECS)
        .expect("dispatch");
    assert!(
        matches!(
            second[..],
            [Outcome::Sent {
                kind: MailKind::Report,
                ..
            }]
        ),
        "{second:?}"
    );
    let first = first.join().expect("first dispatcher");
    let [Outcome::Retry { reason, .. }] = &first[..] else {
        panic!("the slow send should end with a retry, got {first:?}");
    };
    assert!(reason.starts_with("timeout"), "{reason}");
    // The aborted conversation never completes later: wait until the server sees it end (a
    // sender that kept going would finish it in about 25 s and count a second delivery).
    for _ in 0..600 {
        if slow_ended.load(Ordering::SeqCst) {
            break;
        }
        std::thread::sleep(DRIBBLE / 3);
    }
    assert!(
        slow_ended.load(Ordering::SeqCst),
        "the slow conversation never ended"
    );
    assert_eq!(
        delivered.load(Ordering::SeqCst),
        1,
        "the report reached the server once"
    );
    let row = fx
        .store
        .mails()
        .expect("mails")
        .into_iter()
        .find(|m| m.mail.kind == MailKind::Report)
        .expect("row");
    assert_eq!(row.status, MailStatus::Sent);
}

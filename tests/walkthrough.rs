//! The whole journey in the real binary (pseudo-terminal), mail through a real SMTP server on
//! loopback: fresh data directory -> read a chapter -> answer a decision -> solve the ordering
//! game from the content's order -> run a scenario -> finish the quiz -> confirm the address with
//! the code from the mail -> the report arrives. Then a second pass is killed (SIGKILL) in the
//! middle of the quiz retake, restarted, and finished: every saved fact is still there and the
//! second report arrives too.

#[path = "support/pty.rs"]
#[allow(dead_code)] // shared helper; this test does not read the raw output
mod pty;
#[path = "mail_smtp/server.rs"]
#[allow(dead_code)] // the fault modes serve the mail tests
mod server;

use pty::{Session, WAIT};
use queuelab::content::{ContentSource, Lang, load};
use rusqlite::Connection;
use server::{Received, Smtp};
use std::path::Path;
use std::time::{Duration, Instant};

const COLS: u16 = 100;
const ROWS: u16 = 30;
const FIRST: &str = "ada@example.org";
/// The second pass uses its own address: a new code for the first one would wait out the
/// 60-second cooldown, and the test must not depend on the clock.
const SECOND: &str = "bob@example.org";

fn start(data: &Path, config: &Path) -> Session {
    let config = config.to_str().expect("utf-8 path");
    Session::start(data, &["--lang", "en", "--config", config], COLS, ROWS)
}

fn type_text(s: &mut Session, text: &str) {
    for c in text.chars() {
        s.send(&c.to_string());
    }
}

/// Waits until the server holds at least `n` mails and returns them.
fn wait_for_mails(smtp: &Smtp, n: usize, s: &Session) -> Vec<Received> {
    let start = Instant::now();
    while start.elapsed() < WAIT {
        let mails = smtp.received();
        if mails.len() >= n {
            return mails;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!(
        "the SMTP server got {} of {n} mails; screen:\n{}",
        smtp.received().len(),
        s.screen()
    );
}

fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    raw.lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
}

/// The six digits after "report: " in a code mail.
fn code_in(raw: &str) -> String {
    let start = raw.find("report: ").expect("code line") + "report: ".len();
    let code: String = raw[start..].chars().take(6).collect();
    assert!(code.bytes().all(|b| b.is_ascii_digit()), "{code:?}");
    code
}

/// The number the game shows in front of the still open card `label` ("3 [  ] Broker - ...").
fn card_number(screen: &str, label: &str) -> String {
    let needle = format!(" [  ] {label} - ");
    let line = screen
        .lines()
        .find(|l| l.contains(&needle))
        .unwrap_or_else(|| panic!("no open card {label:?} on screen:\n{screen}"));
    let before = &line[..line.find(&needle).expect("found above")];
    let digits: String = before.chars().filter(char::is_ascii_digit).collect();
    assert_eq!(digits.len(), 1, "one card number in {line:?}");
    digits
}

/// Answers quiz questions `from..=to` with the first option.
fn answer(s: &mut Session, from: usize, to: usize) {
    for n in from..=to {
        s.wait_for(&format!("Question {n} of 10"));
        s.send("1");
        s.send("\r");
        s.wait_for("Enter: continue");
        s.send("\r");
    }
}

/// From the quiz result: asks for the report, confirms `address` with the mailed code, and
/// returns the report mail the server received (mail number `seen + 2`).
fn confirm_and_receive(s: &mut Session, smtp: &Smtp, address: &str, seen: usize) -> Received {
    s.wait_for("Your result");
    s.send("m");
    s.wait_for("Your report is saved at");
    type_text(s, address);
    s.send("\r");
    let mails = wait_for_mails(smtp, seen + 1, s);
    let code_mail = &mails[seen];
    assert_eq!(code_mail.to, vec![address.to_owned()]);
    assert_eq!(
        header(&code_mail.data, "Subject"),
        Some("Your queuelab confirmation code")
    );
    let code = code_in(&code_mail.data);
    s.wait_for("A 6-digit code is on its way");
    type_text(s, &code);
    assert!(!s.screen().contains(&code), "the code is masked on screen");
    s.send("\r");
    let mails = wait_for_mails(smtp, seen + 2, s);
    s.wait_for(&format!("Report sent to {address}"));
    mails[seen + 1].clone()
}

fn count(db: &Connection, sql: &str) -> i64 {
    db.query_row(sql, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The facts of the first pass, as saved in progress.db.
fn assert_first_pass_saved(data: &Path) {
    let db = Connection::open(data.join("progress.db")).expect("open progress.db");
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity check");
    assert_eq!(check, "ok");
    for (sql, want) in [
        (
            "SELECT count(*) FROM chapter_read WHERE chapter_id = 'friday-incident'",
            1,
        ),
        (
            "SELECT count(*) FROM decision_answer WHERE decision_id = 'broker-down'",
            1,
        ),
        (
            "SELECT count(*) FROM ordering_record WHERE solved = 1 AND attempts = 1 AND mistakes = 0",
            1,
        ),
        ("SELECT count(*) FROM scenario_run", 1),
        (
            "SELECT count(*) FROM quiz_attempt
             WHERE id = (SELECT min(id) FROM quiz_attempt) AND finished_at IS NOT NULL",
            1,
        ),
        (
            "SELECT count(*) FROM quiz_answer WHERE attempt_id = (SELECT min(id) FROM quiz_attempt)",
            10,
        ),
    ] {
        assert_eq!(count(&db, sql), want, "{sql}");
    }
}

fn smtp_config(dir: &Path, port: u16) -> std::path::PathBuf {
    let path = dir.join("workshop.toml");
    std::fs::write(
        &path,
        format!(
            "[workshop]\nname = \"Queue Lab\"\n\n[mail]\ntransport = \"smtp\"\nhost = \"127.0.0.1\"\n\
             port = {port}\nsecurity = \"none\"\nfrom = \"Queue Lab <lab@example.org>\"\n"
        ),
    )
    .expect("write config");
    path
}

#[test]
fn the_whole_journey_survives_a_kill_in_the_second_pass() {
    let smtp = Smtp::start();
    let data = tempfile::tempdir().expect("tempdir");
    let etc = tempfile::tempdir().expect("tempdir");
    let config = smtp_config(etc.path(), smtp.port);
    let content = load(&ContentSource::Embedded).expect("embedded content");
    let steps = &content.course(Lang::En).ordering.steps;
    let mut s = start(data.path(), &config);

    // Read chapter 1 to its end.
    s.wait_for("Start with chapter 1");
    s.send("2");
    s.wait_for("[new]");
    s.send("\r");
    s.wait_for("Chapter 1 of 16");
    s.send("G");
    s.wait_for("Chapters read 1/16");
    s.send("q");
    s.wait_for("[read]");

    // Decision 1 sits in chapter 3.
    s.send("3\r");
    s.wait_for("Chapter 3 of 16");
    s.send("1");
    s.wait_for("Decisions 1/4");
    // The first q leaves the focused decision card, the second the reader.
    s.send("q");
    s.send("q");
    s.wait_for("1-9 jump to number");
    s.send("q");
    s.wait_for("Continue where I left off");

    // The ordering game: the content lists the steps in the right order; the screen shows
    // each card's number.
    s.send("4");
    s.wait_for("Progress 0/7");
    for (done, step) in steps.iter().enumerate() {
        s.wait_for(&format!("Progress {done}/7"));
        let number = card_number(&s.screen(), &step.label);
        s.send(&number);
    }
    s.wait_for("Progress 7/7");
    s.wait_for("attempts 1, mistakes 0");
    s.send("q");
    s.wait_for("Ordering game: solved");

    // A simulator scenario, played until events happen.
    s.send("5");
    s.wait_for("Run files (sqlite3)");
    s.send("++++");
    s.send(" ");
    s.wait_for("playing");
    s.wait_for("event 2");
    s.send("q");
    s.wait_for("Simulator scenarios run: 1/12");

    // The quiz, then the report through the SMTP server.
    s.send("7");
    answer(&mut s, 1, 10);
    let report = confirm_and_receive(&mut s, &smtp, FIRST, 0);
    assert_eq!(report.to, vec![FIRST.to_owned()]);
    assert_eq!(
        header(&report.data, "Subject"),
        Some("Queue Lab: your queuelab report")
    );
    assert!(
        header(&report.data, "Content-Type")
            .is_some_and(|c| c.starts_with("multipart/alternative"))
    );
    s.send("\x1b");
    s.wait_for("Your result");
    s.send("q");
    s.wait_for("Report: sent");
    assert_first_pass_saved(data.path());

    // Second pass: retake the quiz and die (SIGKILL) after three answers.
    s.send("7");
    s.wait_for("Your result");
    s.send("r");
    answer(&mut s, 1, 3);
    s.wait_for("Question 4 of 10");
    s.signal("KILL");
    let _ = s.wait_exit();
    {
        let db = Connection::open(data.path().join("progress.db")).expect("open");
        assert_eq!(
            count(
                &db,
                "SELECT count(*) FROM quiz_answer WHERE attempt_id = (SELECT max(id) FROM quiz_attempt)"
            ),
            3,
            "each retake answer was saved the moment it was given"
        );
        assert_eq!(count(&db, "SELECT count(*) FROM quiz_attempt"), 2);
    }
    assert_first_pass_saved(data.path());

    // Restart: Home shows the old facts and the retake in progress; finish it.
    let mut s = start(data.path(), &config);
    s.wait_for("in progress (3/10)");
    let home = s.screen();
    for fact in [
        "Chapters read: 1/16",
        "Decisions: 1/4",
        "Ordering game: solved",
        "Simulator scenarios run: 1/12",
    ] {
        assert!(home.contains(fact), "{fact:?} after the restart:\n{home}");
    }
    s.send("7");
    answer(&mut s, 4, 10);
    let second = confirm_and_receive(&mut s, &smtp, SECOND, 2);
    assert_eq!(second.to, vec![SECOND.to_owned()]);
    s.send("\x1b");
    s.send("q");
    s.wait_for("Report: sent");
    s.send("\x03");
    assert!(s.wait_exit(), "clean exit");

    assert_first_pass_saved(data.path());
    let db = Connection::open(data.path().join("progress.db")).expect("open");
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM quiz_attempt WHERE finished_at IS NOT NULL"
        ),
        2
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM quiz_answer WHERE attempt_id = (SELECT max(id) FROM quiz_attempt)"
        ),
        10
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM mail_outbox WHERE status = 'sent'"
        ),
        4,
        "two codes and two reports, each sent once"
    );
    assert_eq!(
        smtp.received().len(),
        4,
        "nothing sent twice after the kill"
    );
}

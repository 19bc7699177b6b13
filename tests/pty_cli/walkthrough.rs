//! The whole journey in the real binary (pseudo-terminal), mail through a real SMTP server on
//! loopback: fresh data directory -> read a chapter -> answer a decision -> solve the ordering
//! game from the content's order -> run a scenario -> finish the quiz -> confirm the address with
//! the code from the mail -> the report arrives. Then a second pass is killed (SIGKILL) in the
//! middle of the quiz retake and again after the code mail went out but before the code was
//! typed; each restart finds every saved fact, the second report arrives, nothing is sent twice.

mod mail;
use crate::mail_smtp::server;
use crate::support::course::chapters_read;
use crate::support::pty;

use mail::{code_in, header, plain_text, wait_for_mails};
use pty::{Session, WAIT};
use queuelab::content::{ContentSource, Lang, OrderingStep, load};
use rusqlite::Connection;
use server::{Received, Smtp};
use std::path::Path;
use std::time::{Duration, Instant};

const COLS: u16 = 100;
const ROWS: u16 = 30;
/// Each report request uses its own address: a new code for an address that got one less than
/// 60 seconds ago waits out the cooldown, and the test must not depend on the clock.
const FIRST: &str = "ada@example.org";
const SECOND: &str = "bob@example.org";
const THIRD: &str = "cy@example.org";

fn start(data: &Path, config: &Path) -> Session {
    let config = config.to_str().expect("utf-8 path");
    Session::start(data, &["--lang", "en", "--config", config], COLS, ROWS)
}

fn type_text(s: &mut Session, text: &str) {
    for c in text.chars() {
        s.send(&c.to_string());
    }
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

/// From the quiz result: asks for a report to `address` and returns the code from the mail the
/// server received (mail number `seen + 1`).
fn request_code(s: &mut Session, smtp: &Smtp, address: &str, seen: usize) -> String {
    s.wait_for("Your result");
    s.send("m");
    s.wait_for("Your report is saved at");
    type_text(s, address);
    s.send("\r");
    let mails = wait_for_mails(smtp, seen + 1, s);
    assert_eq!(mails.len(), seen + 1, "only the code mail went out");
    let code_mail = &mails[seen];
    assert_eq!(code_mail.to, vec![address.to_owned()]);
    assert_eq!(
        header(&code_mail.data, "Subject"),
        Some("Your queuelab confirmation code")
    );
    s.wait_for("A 6-digit code is on its way");
    code_in(&code_mail.data)
}

/// Types the code and returns the report the server received (mail number `seen + 1`).
fn confirm(s: &mut Session, smtp: &Smtp, address: &str, code: &str, seen: usize) -> Received {
    type_text(s, code);
    assert!(!s.screen().contains(code), "the code is masked on screen");
    s.send("\r");
    let mails = wait_for_mails(smtp, seen + 1, s);
    s.wait_for(&format!("Report sent to {address}"));
    let report = mails[seen].clone();
    assert_eq!(report.to, vec![address.to_owned()]);
    assert_eq!(
        header(&report.data, "Subject"),
        Some("Your queuelab report")
    );
    assert!(
        header(&report.data, "Content-Type")
            .is_some_and(|c| c.starts_with("multipart/alternative"))
    );
    report
}

/// The report tells what this learner did: the score of the latest attempt as saved, the
/// decision, the ordering game and the scenario.
fn assert_report_content(report: &Received, data: &Path) {
    let db = Connection::open(data.join("progress.db")).expect("open");
    let score = count(
        &db,
        "SELECT score FROM quiz_attempt WHERE finished_at IS NOT NULL ORDER BY id DESC LIMIT 1",
    );
    let text = plain_text(&report.data);
    for line in [
        format!("Quiz: {score} of 10, level "),
        "Solved (attempts: 1, wrong picks: 0).".to_owned(),
        "- Happy path (happy-path)".to_owned(),
        "- Decision 2: An 18 MB contract: not answered".to_owned(),
    ] {
        assert!(text.contains(&line), "{line:?} in the report:\n{text}");
    }
    assert!(
        text.lines()
            .any(|l| l.starts_with("- Decision 1: ") && l.ends_with("(right)")),
        "decision 1 right in the report:\n{text}"
    );
}

/// Waits until progress.db marks the code mail to `address` sent (so a kill cannot fall
/// between the server's acceptance and the app's note of it).
fn wait_until_code_marked_sent(data: &Path, address: &str) {
    let start = Instant::now();
    while start.elapsed() < WAIT {
        if let Ok(db) = Connection::open(data.join("progress.db")) {
            let sent: i64 = db
                .query_row(
                    "SELECT count(*) FROM mail_outbox
                     WHERE kind = 'code' AND recipient = ?1 AND status = 'sent'",
                    [address],
                    |r| r.get(0),
                )
                .unwrap_or(0);
            if sent == 1 {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the code mail to {address} was never marked sent");
}

/// Answers saved in the latest quiz attempt.
const LATEST_ANSWERS: &str =
    "SELECT count(*) FROM quiz_answer WHERE attempt_id = (SELECT max(id) FROM quiz_attempt)";
/// Finished quiz attempts.
const FINISHED_ATTEMPTS: &str = "SELECT count(*) FROM quiz_attempt WHERE finished_at IS NOT NULL";

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
        // Jumping to the end with G is not reading: no read mark.
        (
            "SELECT count(*) FROM chapter_read WHERE chapter_id = 'friday-incident'",
            0,
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

/// The first pass through everything: chapter 1 jumped to its end, decision 1 answered, the
/// ordering game solved, a scenario played, the quiz and its report sent through the server.
fn first_pass(s: &mut Session, smtp: &Smtp, data: &std::path::Path, steps: &[OrderingStep]) {
    // Jump to the end of chapter 1: that alone is not reading it.
    s.wait_for("Start with chapter 1");
    s.send("2");
    s.wait_for("[new]");
    s.send("\r");
    s.wait_for("Chapter 1 of 16");
    s.send("G");
    s.wait_for("100%");
    s.send("q");
    s.wait_for(" 1  [started]");

    // Decision 1 sits in chapter 3; its right answer is option 2 (the outbox).
    s.send("3\r");
    s.wait_for("Chapter 3 of 16");
    s.send("2");
    s.wait_for("Decisions 1/4");
    // One q leaves the reader, focused decision card or not.
    s.send("q");
    s.wait_for("1-9 number (Enter confirms)");
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
    s.wait_for("attempts 1, mistakes in this deal 0");
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
    s.wait_for(&scenarios_run_one());

    // The quiz, then the report through the SMTP server.
    s.send("7");
    answer(s, 1, 10);
    let code = request_code(s, smtp, FIRST, 0);
    let report = confirm(s, smtp, FIRST, &code, 1);
    assert_report_content(&report, data);
    s.send("\x1b");
    s.wait_for("Your result");
    s.send("q");
    s.wait_for("Report: sent");
    assert_first_pass_saved(data);
}

/// At the end: both attempts finished, five mails sent once each (three codes, two reports),
/// two codes used, nothing sent twice after the kills.
fn assert_every_mail_once(data: &Path, smtp: &Smtp) {
    assert_first_pass_saved(data);
    let db = Connection::open(data.join("progress.db")).expect("open");
    assert_eq!(count(&db, FINISHED_ATTEMPTS), 2);
    assert_eq!(count(&db, LATEST_ANSWERS), 10);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM mail_outbox WHERE status = 'sent'"
        ),
        5,
        "three codes and two reports, each sent once"
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM otp_code WHERE used_at IS NOT NULL"
        ),
        2
    );
    let received = smtp.received();
    assert_eq!(received.len(), 5, "nothing sent twice after the kills");
    let to_second = received.iter().filter(|m| m.to == [SECOND]).count();
    assert_eq!(to_second, 1, "the unconfirmed address got its code only");
}

#[test]
fn the_whole_journey_survives_kills_in_the_second_pass() {
    let smtp = Smtp::start();
    let data = tempfile::tempdir().expect("tempdir");
    let etc = tempfile::tempdir().expect("tempdir");
    let config = smtp_config(etc.path(), smtp.port);
    let content = load(&ContentSource::Embedded).expect("embedded content");
    let steps = &content.course(Lang::En).ordering.steps;
    let mut s = start(data.path(), &config);

    first_pass(&mut s, &smtp, data.path(), steps);

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
            count(&db, LATEST_ANSWERS),
            3,
            "each retake answer was saved the moment it was given"
        );
        assert_eq!(count(&db, "SELECT count(*) FROM quiz_attempt"), 2);
    }
    assert_first_pass_saved(data.path());

    // Restart: Home shows the old facts and the retake in progress; finish it, ask for a
    // report, and die again once the code mail is out but before the code is typed.
    let mut s = start(data.path(), &config);
    s.wait_for("in progress (3/10)");
    let home = s.screen();
    let scenarios = scenarios_run_one();
    let chapters = chapters_read(0);
    for fact in [
        chapters.as_str(),
        "Decisions: 1/4",
        "Ordering game: solved",
        scenarios.as_str(),
    ] {
        assert!(home.contains(fact), "{fact:?} after the restart:\n{home}");
    }
    s.send("7");
    answer(&mut s, 4, 10);
    let _lost_code = request_code(&mut s, &smtp, SECOND, 2);
    wait_until_code_marked_sent(data.path(), SECOND);
    s.signal("KILL");
    let _ = s.wait_exit();
    {
        let db = Connection::open(data.path().join("progress.db")).expect("open");
        assert_eq!(count(&db, LATEST_ANSWERS), 10);
        assert_eq!(count(&db, FINISHED_ATTEMPTS), 2);
        assert_eq!(
            count(
                &db,
                "SELECT count(*) FROM mail_outbox WHERE kind = 'report'"
            ),
            1,
            "no report without a confirmed code"
        );
    }

    // Restart once more: the code died with the process (it exists only in memory), so the
    // learner asks again and finishes.
    let mut s = start(data.path(), &config);
    s.wait_for("Continue where I left off");
    s.send("7");
    let code = request_code(&mut s, &smtp, THIRD, 3);
    let report = confirm(&mut s, &smtp, THIRD, &code, 4);
    assert_report_content(&report, data.path());
    s.send("\x1b");
    s.send("q");
    s.wait_for("Report: sent");
    s.send("\x03");
    assert!(s.wait_exit(), "clean exit");

    assert_every_mail_once(data.path(), &smtp);
}

/// Home's simulator line after one scenario was run, out of every scenario the content has.
fn scenarios_run_one() -> String {
    let content =
        queuelab::content::load(&queuelab::content::ContentSource::Embedded).expect("content");
    format!("Simulator scenarios run: 1/{}", content.scenarios.len())
}

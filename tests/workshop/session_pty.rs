//! A whole workshop session in real pseudo-terminals: the host's dashboard, two trainee TUIs —
//! Ada joins with the code alone (DNS-SD), Bob types HOST:PORT CODE after a wrong host and a
//! wrong code were refused with his text kept — and two command-line trainees, Cleo in English
//! and Dora in German; a vote with feedback held on both kinds of client, a second vote from
//! both, the reveal, a stuck signal acknowledged by picking its row, Cleo leaving, Dora
//! rejoining under her full name, and Ada leaving and joining again as the same row. The
//! dashboard's header and rows, `host status` and the export agree at each step.

use crate::host_pty::pty::Session;
use crate::host_pty::start_dashboard;
use crate::support::{command_in, command_saved_lang, free_port, free_udp_port, run};
use queuelab::content::{ContentSource, Lang, load};
use queuelab::services::discovery::PORT_ENV;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

/// The word after `prefix` on the screen (the code, HOST:PORT, the check digits).
fn after<'a>(screen: &'a str, prefix: &str) -> Option<&'a str> {
    let at = screen.find(prefix)? + prefix.len();
    screen[at..].split_whitespace().next()
}

/// A command-line trainee's command with `input` on stdin; stdout. The language is the one
/// chosen when joining (no `--lang`).
fn cli(data: &Path, args: &[&str], input: &str) -> String {
    let mut child = command_saved_lang(data, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("ends");
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `host status` as text: the line with the room's counts and each trainee's line.
fn status(dir: &Path, url: &str, key: &str) -> String {
    let out = run(dir, &["host", "status", "--url", url, "--key", key], "");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A trainee's line of `host status`.
fn row<'a>(status: &'a str, name: &str) -> &'a str {
    status
        .lines()
        .find(|l| l.trim_start().starts_with(name))
        .unwrap_or_else(|| panic!("{name} in {status}"))
}

/// A trainee TUI in English at 100x30 that finds sessions on the test's own DNS-SD port.
fn trainee(data: &std::path::Path, mdns: &str) -> Session {
    Session::start_with_env(data, &["--lang", "en"], &[(PORT_ENV, mdns)], 100, 30)
}

/// Types the join line on Home, confirms the check digits and gives the name.
fn join(tui: &mut Session, line: &str, digits: &str, name: &str) {
    tui.send("w");
    tui.wait_for("The code from the projector");
    tui.send(line);
    tui.send("\r");
    tui.wait_for(&format!("Check digits of this host: {digits}"));
    tui.send("y");
    tui.wait_for("Your name");
    tui.send(name);
    tui.send("\r");
    tui.wait_for("Workshop: Room 9");
}

/// What the join screen shows the instructor: the code, the check digits, the join URL; and the
/// instructor key, read from the header with `v` and hidden again.
struct Room {
    code: String,
    digits: String,
    url: String,
    key: String,
}

/// Opens the join screen (`3`) and reads the code, the check digits and the URL, then the key.
fn read_the_join_screen(host: &mut Session) -> Room {
    host.send("3");
    host.wait_for("Check digits");
    let join_screen = host.screen();
    let code = after(&join_screen, " queuelab join ")
        .unwrap_or_else(|| panic!("the code alone, the session is advertised: {join_screen}"))
        .to_owned();
    // The check digits stand on the line under their label, in three groups of four.
    let digits = join_screen
        .lines()
        .skip_while(|l| !l.contains("Check digits (trainees compare them)"))
        .nth(1)
        .and_then(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .last()
        })
        .expect("the check digits")
        .to_owned();
    assert_eq!(digits.len(), 14, "{join_screen}");
    let url = join_screen
        .split_whitespace()
        .find(|w| w.starts_with("https://") && w.contains("/join?"))
        .expect("the join URL")
        .to_owned();
    host.send("v");
    host.wait_for(" key ");
    let key = host
        .screen()
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().last())
        .expect("the key in the header")
        .to_owned();
    host.send("v");

    Room {
        code,
        digits,
        url,
        key,
    }
}

/// Bob tries a host where nothing listens, then a code this host never issued; each is refused
/// with the reason and his text stays for the next try; then he joins.
fn bob_is_refused_twice_then_joins(bob: &mut Session, code: &str, port: u16, digits: &str) {
    let nobody = format!("127.0.0.1:{} {code}", free_port());
    bob.send("w");
    bob.send(&nobody);
    bob.send("\r");
    bob.wait_for("Not joined: nothing answered at 127.0.0.1:");
    assert!(
        bob.screen().contains(&format!("> {nobody}")),
        "{}",
        bob.screen()
    );
    bob.send("\x1b");
    let last = if code.ends_with('A') { "B" } else { "A" };
    let wrong = format!("127.0.0.1:{port} {}{last}", &code[..code.len() - 1]);
    bob.send("w");
    bob.send(&wrong);
    bob.send("\r");
    // A mistyped code is said first, before any check digits are shown.
    bob.wait_for("wrong join code");
    assert!(!bob.screen().contains("Check digits"), "{}", bob.screen());
    assert!(
        bob.screen().contains(&format!("> {wrong}")),
        "{}",
        bob.screen()
    );
    assert!(!bob.screen().contains("Your name"), "{}", bob.screen());
    bob.send("\x1b");
    join(bob, &format!("127.0.0.1:{port} {code}"), digits, "Bob");
}

/// Cleo leaves (her row stays), Dora joins again under her full name (the same row, renamed),
/// Ada leaves and joins again (one row, not two).
fn leave_and_join_again(
    host: &mut Session,
    ada: &mut Session,
    dir: &Path,
    room: &Room,
    cli_trainees: [&Path; 2],
    short: &str,
) {
    let [cleo, dora] = cli_trainees;
    let Room {
        code,
        digits,
        url,
        key,
    } = room;
    // Cleo leaves: gone from the room, her row stays with her answers.
    let said = cli(cleo, &["leave"], "");
    assert!(said.contains("left the workshop"), "{said}");
    host.wait_for("3 in the room · 3 active · 1 stuck");
    let text = status(dir, url, key);
    assert!(text.contains("(3 in the room · 3 active)"), "{text}");
    assert!(row(&text, "Cleo").contains("left"), "{text}");
    // Dora joins again under her full name: the same row, renamed.
    let said = cli(
        dora,
        &[
            "join",
            short,
            code,
            "--check-digits",
            digits,
            "--name",
            "Dora Schmidt",
        ],
        "",
    );
    assert!(said.contains("als Dora Schmidt."), "{said}");
    host.wait_for("Dora Schmidt");
    let text = status(dir, url, key);
    assert!(
        text.contains("trainees: 4 (3 in the room · 3 active)"),
        "{text}"
    );
    assert!(row(&text, "Dora Schmidt").contains("active"), "{text}");

    // Ada leaves and joins again: one row, not two.
    ada.send("\x1b");
    ada.wait_for("Workshop: Room 9");
    ada.send("w");
    ada.wait_for("Leave the workshop?");
    ada.send("y");
    ada.wait_for("Left the workshop");
    join(ada, code, digits, "Ada");
    host.wait_for("3 in the room · 3 active · 1 stuck");
    let room = host.screen();
    assert_eq!(room.matches("Ada").count(), 1, "one row for Ada: {room}");
    assert_eq!(room.matches("Dora").count(), 1, "one row for Dora: {room}");
    let cleo_row = room
        .lines()
        .find(|l| l.contains("Cleo"))
        .expect("Cleo's row");
    assert!(cleo_row.contains(" left "), "{room}");
}

/// The export after the session says who is active and who left.
fn export_says_who_left(dir: &Path) {
    let out_dir = dir.join("export");
    let out = run(
        &dir.join("host"),
        &["host", "export", "--out", out_dir.to_str().expect("utf8")],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let csv = std::fs::read_to_string(out_dir.join("summary.csv")).expect("csv");
    for (name, presence) in [
        ("Ada", "active"),
        ("Bob", "active"),
        ("Cleo", "left"),
        ("Dora Schmidt", "active"),
    ] {
        let line = csv
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name}: {csv}"));
        assert!(
            line.contains(&format!(",{presence},")) || line.contains(&format!(",{presence}")),
            "{name}: {csv}"
        );
    }
}

/// The instructor sends the room to the decision's chapter; all four vote with feedback held;
/// a second vote (Bob keeps his answer); the reveal shows both rounds.
fn two_rounds_and_the_reveal(
    host: &mut Session,
    tuis: [&mut Session; 2],
    cli_trainees: [&Path; 2],
    chapter: usize,
    decision: &queuelab::content::Decision,
) {
    let [ada, bob] = tuis;
    let [cleo, dora] = cli_trainees;
    host.send(&format!("c{chapter}\r"));
    for (tui, answer) in [(&mut *ada, "1"), (&mut *bob, "2")] {
        tui.wait_for(&format!("Instructor: open chapter {chapter}"));
        tui.send("F");
        tui.wait_for(&decision.title);
        tui.send(answer);
        tui.wait_for("Answer saved");
        let screen = tui.screen();
        assert!(
            !screen.contains("Right.") && !screen.contains("Not quite."),
            "held until the reveal: {screen}"
        );
    }
    let said = cli(cleo, &["decide", "--plain", "1"], "2\n");
    assert!(said.contains("Answer saved"), "{said}");
    assert!(
        !said.contains("Right.") && !said.contains("Not quite."),
        "{said}"
    );
    let said = cli(dora, &["decide", "--plain", "1"], "1\n");
    assert!(
        said.contains("Antwort gespeichert"),
        "German without --lang: {said}"
    );
    assert!(
        !said.contains("Richtig.") && !said.contains("Nicht ganz."),
        "{said}"
    );
    host.send("2");
    host.wait_for("answers: 4 ·");
    // After the discussion: a second vote. Ada, Cleo and Dora answer again, Bob keeps his.
    host.send("w1\r");
    host.wait_for("Second vote opened: Decision 1: The broker is down.");
    for tui in [&mut *ada, &mut *bob] {
        tui.wait_for("second vote on Decision 1");
        tui.wait_for("· Second vote");
    }
    ada.send("4");
    ada.wait_for("Second vote saved");
    let said = cli(cleo, &["decide", "--plain", "1"], "4\n");
    assert!(said.contains("Second vote saved"), "{said}");
    let said = cli(dora, &["decide", "--plain", "1"], "3\n");
    assert!(said.contains("Antwort der 2. Runde gespeichert"), "{said}");
    let said = cli(cleo, &["decide", "--plain", "1"], "1\n");
    assert!(said.contains("Second vote already given"), "once: {said}");
    host.wait_for("answers: 4, second vote: 3");
    // The reveal: right/wrong for everybody, both rounds in the banner, each count first.
    host.send("r1\r");
    for tui in [&mut *ada, &mut *bob] {
        tui.wait_for("first→second vote [1] 2→0 · [2] 2→0");
        tui.wait_for("[3] 0→1 · [4] 0→2");
    }
}

/// Bob is stuck; the instructor picks his row with the arrows and acknowledges it.
fn bob_stuck_and_seen(host: &mut Session, bob: &mut Session) {
    bob.send("\x1b");
    bob.send("!");
    host.send("1");
    host.wait_for("1 stuck");
    host.send("a");
    host.wait_for(" 2. Bob · active · STUCK");
    host.send("\x1b[B");
    host.send("\x1b[B");
    host.wait_for(" > 2. Bob");
    host.send("\r");
    host.wait_for("Acknowledged Bob's stuck signal");
    bob.wait_for("The instructor has seen that you are stuck");
}

#[test]
fn a_session_in_a_real_room_from_joining_to_the_second_vote_and_back() {
    let content = load(&ContentSource::Embedded).expect("content");
    let course = content.course(Lang::En);
    let decision = &course.decisions[0];
    let chapter = 1 + course
        .chapters
        .iter()
        .position(|c| c.id == decision.chapter)
        .expect("the decision's chapter");
    let dir = tempfile::tempdir().expect("tempdir");
    let mdns = free_udp_port().to_string();
    let port = free_port();
    let mut host = start_dashboard(
        &dir.path().join("host"),
        port,
        "Room 9",
        &[(PORT_ENV, &mdns)],
    );
    let room = read_the_join_screen(&mut host);
    let Room {
        code,
        digits,
        url,
        key,
    } = &room;
    let (code, digits, url, key) = (code.as_str(), digits.as_str(), url.as_str(), key.as_str());

    // Ada: the code alone, found on the network.
    let mut ada = trainee(&dir.path().join("ada"), &mdns);
    ada.wait_for("workshop");
    join(&mut ada, code, digits, "Ada");

    let mut bob = trainee(&dir.path().join("bob"), &mdns);
    bob.wait_for("workshop");
    bob_is_refused_twice_then_joins(&mut bob, code, port, digits);
    // Cleo and Dora on the command line; Dora chose German when joining.
    let (cleo, dora) = (dir.path().join("cleo"), dir.path().join("dora"));
    let short = format!("127.0.0.1:{port}");
    for (data, lang, name) in [(&cleo, "en", "Cleo"), (&dora, "de", "Dora")] {
        let out = command_in(
            lang,
            data,
            &[
                "join",
                &short,
                code,
                "--check-digits",
                digits,
                "--name",
                name,
            ],
        )
        .output()
        .expect("join runs");
        assert!(out.status.success(), "{out:?}");
    }
    host.send("1");
    host.wait_for("4 in the room · 4 active · 0 stuck");
    let text = status(dir.path(), url, key);
    assert!(text.contains("(4 in the room · 4 active)"), "{text}");

    two_rounds_and_the_reveal(
        &mut host,
        [&mut ada, &mut bob],
        [&cleo, &dora],
        chapter,
        decision,
    );
    bob_stuck_and_seen(&mut host, &mut bob);

    leave_and_join_again(
        &mut host,
        &mut ada,
        dir.path(),
        &room,
        [&cleo, &dora],
        &short,
    );
    for mut tui in [ada, bob] {
        tui.send("q");
    }
    host.send("q");
    host.wait_for("Stop the session");
    host.send("\r");
    assert!(host.wait_exit(), "q ends the host cleanly");
    export_says_who_left(dir.path());
}

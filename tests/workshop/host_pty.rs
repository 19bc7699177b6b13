//! `queuelab host` without `--headless` in a real pseudo-terminal: the dashboard appears, a
//! trainee who joins shows up in the room, a reveal goes out from the keyboard, and q stops the
//! session and restores the terminal.

use crate::support::{free_port, run};

#[path = "../pty_cli/support/pty.rs"]
#[allow(dead_code)]
pub(crate) mod pty;

/// `queuelab host` with its dashboard in a 200x50 pseudo-terminal, in English, on loopback at
/// `port`, named `name`, with `env` set; returned once the empty room shows.
pub(crate) fn start_dashboard(
    data: &std::path::Path,
    port: u16,
    name: &str,
    env: &[(&str, &str)],
) -> pty::Session {
    let port = port.to_string();
    let args = [
        "--lang",
        "en",
        "host",
        "--bind",
        "127.0.0.1",
        "--port",
        &port,
        "--name",
        name,
    ];
    let host = pty::Session::start_with_env(data, &args, env, 200, 50);
    host.wait_for("0 in the room · 0 active · 0 stuck");
    host
}

/// The join URL on the Join section (wide enough that it is one line).
fn join_url(screen: &str) -> Option<String> {
    screen
        .split_whitespace()
        .find(|w| w.starts_with("https://") && w.contains("/join?"))
        .map(str::to_owned)
}

/// With macOS's terminal wait (`select(2)`); the other dashboard tests run with `poll(2)`.
#[test]
fn the_dashboard_shows_a_trainee_who_joins_and_q_stops_the_session() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("host");
    let mut host = start_dashboard(&data, free_port(), "Room 7", pty::SELECT_WAIT);
    // The header names the session and the day it started.
    let header = host.screen();
    let dated = header.lines().next().is_some_and(|line| {
        line.trim_start()
            .strip_prefix("Room 7 · ")
            .and_then(|rest| rest.get(..10))
            .is_some_and(|date| date.len() == 10 && date.as_bytes()[4] == b'-')
    });
    assert!(dated, "{header}");
    assert!(host.in_alternate_screen());
    host.send("3");
    host.wait_for("Join URL");
    let url = join_url(&host.screen()).expect("the join URL is on the Join section");
    let out = run(
        &dir.path().join("pia"),
        &["join", &url, "--name", "Pia"],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    host.send("1");
    host.wait_for("1 in the room · 1 active · 0 stuck");
    host.wait_for("Pia");
    let out = run(&dir.path().join("pia"), &["stuck", "the", "map"], "");
    assert!(out.status.success(), "{out:?}");
    // Screen, since when (the minutes depend on the machine's pace), then the words.
    host.wait_for("on command line · since ");
    // The words are the trainee's: only the private view shows them, and says it is private.
    host.wait_for("wrote something (p shows it)");
    assert!(!host.screen().contains("the map"), "{}", host.screen());
    host.send("p");
    host.wait_for("PRIVATE, not for the projector: what stuck trainees wrote");
    host.wait_for(" min: \"the map\"");
    // The instructor acknowledges it; the room shows that, and the key help lists `a`.
    host.send("aPia\r");
    host.wait_for("Acknowledged Pia's stuck signal");
    host.wait_for(" min · acknowledged: \"the map\"");
    host.send("r1\r");
    host.wait_for("Revealed to the room: Decision 1");
    host.send("2");
    host.wait_for("revealed to the room");
    host.send("q");
    host.wait_for("Stop the session");
    host.send("\r");
    assert!(host.wait_exit(), "q ends the host cleanly");
    assert!(!host.in_alternate_screen(), "the terminal is restored");
    let screen = host.screen();
    assert!(screen.contains("session stopped"), "{screen}");
    assert!(screen.contains(&format!("join: {url}")), "{screen}");
    assert!(
        !screen.contains("instructor key:"),
        "the terminal may be on the projector: no key after stopping: {screen}"
    );
}

/// The dashboard covers the terminal, so a warning printed before it would be gone: a data
/// folder other users can read is named above the room, inside the dashboard.
#[test]
fn a_shared_data_folder_is_warned_about_inside_the_dashboard() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("host");
    std::fs::create_dir_all(&data).expect("dir");
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut host = start_dashboard(&data, free_port(), "Room 8", &[]);
    host.wait_for("! Other users of this computer can read");
    let screen = host.screen();
    assert!(screen.contains("host.db"), "the files are named: {screen}");
    assert!(
        screen.contains("0 in the room · 0 active · 0 stuck"),
        "the room is still shown below it: {screen}"
    );
    host.send("q");
    host.wait_for("Stop the session");
    host.send("\r");
    assert!(host.wait_exit(), "q ends the host cleanly");
}

#[test]
fn a_pacing_command_reaches_a_trainee_tui_as_a_banner_and_one_key_follows_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = crate::support::Host::start(&dir.path().join("host"), free_port(), &[]);
    let trainee = dir.path().join("tia");
    let out = run(&trainee, &["join", &host.url, "--name", "Tia"], "");
    assert!(out.status.success(), "{out:?}");
    let mut tui = pty::Session::start(&trainee, &["--lang", "en"], 100, 30);
    tui.wait_for("host reachable");
    let pace = |args: &[&str]| {
        let mut all = vec!["host", "pace", "--url", &host.url, "--key", &host.key];
        all.extend_from_slice(args);
        let out = run(&dir.path().join("instructor"), &all, "");
        assert!(out.status.success(), "{out:?}");
    };
    pace(&["chapter", "3"]);
    tui.wait_for("Instructor: open chapter 3");
    let title = queuelab::content::load(&queuelab::content::ContentSource::Embedded)
        .expect("content")
        .course(queuelab::content::Lang::En)
        .chapters[2]
        .title
        .clone();
    tui.send("F");
    tui.wait_for(&title);
    assert!(
        !tui.screen().contains("Instructor:"),
        "followed, the banner is gone"
    );
    pace(&["reveal", "1"]);
    tui.wait_for("room [1] 0");
    tui.send("X");
    assert!(!tui.screen().contains("Instructor:"), "dismissed");
    tui.send("q");
    tui.send("q");
    host.kill();
}

#[test]
fn home_joins_a_workshop_by_typing_host_port_code_and_leaves_with_the_same_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = crate::support::Host::start(&dir.path().join("host"), free_port(), &[]);
    let mut tui = pty::Session::start(&dir.path().join("ute"), &["--lang", "en"], 100, 30);
    tui.wait_for("workshop");
    tui.send("w");
    tui.wait_for("The code from the projector");
    let wrong = host.url.replace("code=", "code=X");
    tui.send(&wrong);
    tui.send("\r");
    // Refused before any name is asked.
    tui.wait_for("wrong join code");
    assert!(
        tui.screen().contains("> https://127.0.0.1:"),
        "the typed URL stays for another try:\n{}",
        tui.screen()
    );
    assert!(!tui.screen().contains("Your name"), "{}", tui.screen());
    tui.send("\x1b");
    // A well-formed short code this host never issued: the host is asked first, so the code is
    // refused before any check digits or the name are asked.
    let other_code = {
        let (address, code) = host.short.split_once(' ').expect("HOST:PORT CODE");
        let last = if code.ends_with('A') { "B" } else { "A" };
        format!("{address} {}{last}", &code[..code.len() - 1])
    };
    tui.send("w");
    tui.send(&other_code);
    tui.send("\r");
    tui.wait_for("wrong join code");
    assert!(!tui.screen().contains("Check digits"), "{}", tui.screen());
    assert!(!tui.screen().contains("Your name"), "{}", tui.screen());
    tui.send("\x1b");
    // The short line from the projector: digits compared, code taken, then the name.
    tui.send("w");
    tui.send(&host.short);
    tui.send("\r");
    tui.wait_for(&format!("Check digits of this host: {}", host.digits));
    tui.send("y");
    tui.wait_for("Session “Room 1” takes this code.");
    tui.wait_for("Your name");
    tui.send("Ute\r");
    tui.wait_for("You joined the workshop");
    tui.wait_for("Workshop: Room 1");
    let status = host.status(&dir.path().join("instructor"));
    assert_eq!(status["trainees"][0]["name"], "Ute", "{status}");
    tui.send("w");
    tui.wait_for("Leave the workshop?");
    tui.send("y");
    tui.wait_for("Left the workshop");
    assert!(!tui.screen().contains("Workshop: Room 1"));
    host.kill();
}

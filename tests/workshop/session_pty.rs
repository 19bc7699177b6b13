//! A whole workshop session in real pseudo-terminals (issue 25's "done when"): the host's
//! dashboard, two trainee TUIs — Ada joins with the code alone (DNS-SD), Bob types HOST:PORT
//! CODE after a wrong host and a wrong code were refused with his text kept — a vote with
//! feedback held, a second vote, the reveal, a stuck signal acknowledged, and Ada leaving and
//! joining again as the same row.

use crate::host_pty::pty::Session;
use crate::host_pty::start_dashboard;
use crate::support::{free_port, free_udp_port};
use queuelab::content::{ContentSource, Lang, load};
use queuelab::services::discovery::PORT_ENV;

/// The word after `prefix` on the screen (the code, HOST:PORT, the check digits).
fn after<'a>(screen: &'a str, prefix: &str) -> Option<&'a str> {
    let at = screen.find(prefix)? + prefix.len();
    screen[at..].split_whitespace().next()
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
    host.send("3");
    host.wait_for("Check digits");
    let join_screen = host.screen();
    let code = after(&join_screen, " queuelab join ")
        .unwrap_or_else(|| panic!("the code alone, the session is advertised: {join_screen}"))
        .to_owned();
    // The check digits stand on the line under their label, in two groups of four.
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
    assert_eq!(digits.len(), 9, "{join_screen}");

    // Ada: the code alone, found on the network.
    let mut ada = trainee(&dir.path().join("ada"), &mdns);
    ada.wait_for("workshop");
    join(&mut ada, &code, &digits, "Ada");

    // Bob: first a host where nothing listens, then a code this host never issued; each is
    // refused with the reason and his text stays for the next try.
    let mut bob = trainee(&dir.path().join("bob"), &mdns);
    bob.wait_for("workshop");
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
    bob.wait_for(&format!("Check digits of this host: {digits}"));
    bob.send("y");
    bob.wait_for("wrong join code");
    assert!(
        bob.screen().contains(&format!("> {wrong}")),
        "{}",
        bob.screen()
    );
    assert!(!bob.screen().contains("Your name"), "{}", bob.screen());
    bob.send("\x1b");
    join(
        &mut bob,
        &format!("127.0.0.1:{port} {code}"),
        &digits,
        "Bob",
    );
    host.send("1");
    host.wait_for("2 in the room · 2 active · 0 stuck");

    // The instructor sends the room to the decision's chapter; both vote, feedback held.
    host.send(&format!("c{chapter}\r"));
    for (tui, answer) in [(&mut ada, "1"), (&mut bob, "2")] {
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
    // After the discussion: a second vote. Ada answers again, Bob keeps his.
    host.send("w1\r");
    host.wait_for("Second vote opened: Decision 1.");
    for tui in [&mut ada, &mut bob] {
        tui.wait_for("second vote on Decision 1");
        tui.wait_for("· Second vote");
    }
    ada.send("4");
    ada.wait_for("Second vote saved");
    host.send("2");
    host.wait_for("answers: 2, second vote: 1");
    // The reveal: right/wrong for everybody, both rounds in the banner.
    host.send("r1\r");
    for tui in [&mut ada, &mut bob] {
        tui.wait_for("revealed, the room in the first vote: [1] 1");
        let right = decision
            .options
            .iter()
            .position(|o| o.correct)
            .expect("right");
        tui.wait_for(&format!("[{}] 1", right + 1));
    }
    // Bob is stuck; the instructor acknowledges it and Bob's screen says so.
    bob.send("\x1b");
    bob.send("!");
    host.send("1");
    host.wait_for("1 stuck");
    host.send("aBob\r");
    host.wait_for("Acknowledged Bob's stuck signal");
    bob.wait_for("The instructor has seen that you are stuck");

    // Ada leaves and joins again: one row, not two.
    ada.send("\x1b");
    ada.wait_for("Workshop: Room 9");
    ada.send("w");
    ada.wait_for("Leave the workshop?");
    ada.send("y");
    ada.wait_for("Left the workshop");
    join(&mut ada, &code, &digits, "Ada");
    host.wait_for("2 in the room · 2 active · 1 stuck");
    let room = host.screen();
    assert_eq!(room.matches("Ada").count(), 1, "one row for Ada: {room}");
    for mut tui in [ada, bob] {
        tui.send("q");
    }
    host.send("q");
    assert!(host.wait_exit(), "q ends the host cleanly");
}

//! `queuelab decide --plain [N]` follows the room as the reader does: while the instructor holds
//! right/wrong it only says the answer is saved; N answers decision N whatever came before; an
//! answered decision with no vote open says so and changes nothing; an open second vote is
//! answered as the second vote, once; after the reveal the verdict shows. The language chosen
//! when joining stays for later commands.

use crate::support::{Host, command_in, command_saved_lang, free_port, run};
use queuelab::content::key;
use queuelab::content::{ContentSource, Decision, Lang};
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

/// `decide --plain N` (every decision for an empty N) with the answer lines; stdout.
fn decide(data: &Path, n: &str, input: &str) -> String {
    let mut args = vec!["decide", "--plain"];
    if !n.is_empty() {
        args.push(n);
    }
    let out = run(data, &args, input);
    assert!(
        out.status.success(),
        "decide {n}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `host pace ... WHAT K`.
fn pace(host: &Host, data: &Path, what: &str, k: &str) {
    // A sentence in the instructor's language, never the wire format.
    let said = host.pace(data, what, k);
    assert!(!said.contains("{\""), "{said}");
    assert!(said.contains("Decision 1"), "{said}");
}

/// After delivery: decisions 1 and 3 answered on the host, decision 2 not.
fn first_round_reached_the_host(host: &Host, ada: &Path, dir: &Path, d: [&Decision; 3]) {
    let [d1, d2, d3] = d;
    let out = run(ada, &["join"], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("waiting: 0"));
    let view = host.status(dir);
    let row = &view["trainees"][0];
    assert_eq!(
        row["decisions"][&d1.id],
        d1.options[1].id.as_str(),
        "{view}"
    );
    assert_eq!(
        row["decisions"][&d3.id],
        d3.options[0].id.as_str(),
        "{view}"
    );
    assert!(row["decisions"].get(&d2.id).is_none(), "{view}");
}

/// After delivery: the first answer kept, the second vote counted beside it, once.
fn second_vote_reached_the_host(host: &Host, ada: &Path, dir: &Path, d1: &Decision) {
    let out = run(ada, &["join"], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("waiting: 0"));
    let view = host.status(dir);
    let row = &view["trainees"][0];
    assert_eq!(
        row["decisions"][&d1.id],
        d1.options[1].id.as_str(),
        "{view}"
    );
    assert_eq!(
        row["second_votes"][&d1.id],
        d1.options[2].id.as_str(),
        "{view}"
    );
    assert_eq!(view["second_votes"][&d1.id][&d1.options[2].id], 1, "{view}");
    assert_eq!(view["second_votes"][&d1.id][&d1.options[3].id], 0, "{view}");
}

#[test]
fn the_command_line_votes_as_the_room_does() {
    let content = queuelab::content::load(&ContentSource::Embedded).expect("content");
    let course = content.course(Lang::En);
    let (d1, d2, d3) = (
        &course.decisions[0],
        &course.decisions[1],
        &course.decisions[2],
    );
    let s = &course.strings;
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let ada = dir.path().join("ada");
    let out = run(&ada, &["join", &host.url, "--name", "Ada"], "");
    assert!(out.status.success());

    // The first vote, feedback held: saved, no verdict, no explanation.
    let text = decide(&ada, "1", "2\n");
    assert!(text.contains(s.get(key::decide::HELD)), "{text}");
    for verdict in [key::decision::CORRECT, key::decision::WRONG] {
        assert!(!text.contains(s.get(verdict)), "held: {text}");
    }
    assert!(!text.contains(&d1.explanation), "held: {text}");

    // Decision 3 can be answered before decision 2.
    let text = decide(&ada, "3", "1\n");
    assert!(text.contains(s.get(key::decide::HELD)), "{text}");
    // Asked again with no vote open: said so, nothing changes.
    let text = decide(&ada, "1", "3\n");
    assert!(
        text.contains(&format!("Already answered: 2. {}", d1.options[1].text)),
        "{text}"
    );
    assert!(text.contains("no vote is open"), "{text}");
    first_round_reached_the_host(&host, &ada, dir.path(), [d1, d2, d3]);

    // The second vote: asked again, counted as the second vote, once.
    pace(&host, dir.path(), "second-vote", "1");
    let text = decide(&ada, "1", "3\n");
    assert!(text.contains(s.get(key::decide::SECOND_OPEN)), "{text}");
    assert!(
        text.contains(&format!("Your first answer: 2. {}", d1.options[1].text)),
        "{text}"
    );
    assert!(text.contains(s.get(key::decide::HELD_SECOND)), "{text}");
    let text = decide(&ada, "1", "4\n");
    assert!(text.contains(s.get(key::decide::SECOND_ALREADY)), "{text}");
    // Without a number the run walks only what is open: decision 2 is asked, 1 and 3 are not.
    let text = decide(&ada, "", "");
    assert!(text.contains(&d2.situation), "{text}");
    assert!(!text.contains(&d1.situation), "{text}");
    second_vote_reached_the_host(&host, &ada, dir.path(), d1);

    // After the reveal the verdict on the trainee's answer (the newest, here the second vote)
    // and the explanation show; nothing is asked.
    pace(&host, dir.path(), "reveal", "1");
    let text = decide(&ada, "1", "1\n");
    assert!(text.contains(&d1.explanation), "{text}");
    assert!(
        text.contains(&format!("Already answered: 3. {}", d1.options[2].text)),
        "{text}"
    );
    let verdict = if d1.options[2].correct {
        key::decision::CORRECT
    } else {
        key::decision::WRONG
    };
    assert!(text.contains(s.get(verdict)), "{text}");
    assert!(text.contains("no vote is open"), "{text}");

    // A number that is no decision is refused with the range.
    let out = run(&ada, &["decide", "--plain", "9"], "");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("choose 1 to 4"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_language_chosen_when_joining_stays_for_later_commands() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let data = dir.path().join("ben");
    let out = command_in("de", &data, &["join", &host.url, "--name", "Ben"])
        .output()
        .expect("join runs");
    assert!(out.status.success());
    for args in [&["decide", "--plain", "1"][..], &["join"][..]] {
        let mut child = command_saved_lang(&data, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"1\n")
            .expect("written");
        let out = child.wait_with_output().expect("ends");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("Entscheidung 1 von") || text.contains("Sitzung"),
            "German without --lang: {text}"
        );
        assert!(!text.contains("Decision 1 of"), "{text}");
    }
}

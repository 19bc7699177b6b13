//! A device that saw the join code on the projector runs a session of its own under that code
//! and advertises it on the LAN, so it answers `queuelab join CODE` first. The trainee sees its
//! check digits, says no, and the search goes on to the real session, which it joins.

use crate::support::{Host, command_in, folder_with_code, free_port, free_udp_port};
use queuelab::services::discovery::PORT_ENV;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

/// The code on the projector, which the fake copies.
const CODE: &str = "K7Q2M9X";

/// The next line the trainee prints that starts with `prefix`, without it.
fn line_after(lines: &mpsc::Receiver<String>, prefix: &str, said: &mut String) -> String {
    loop {
        let line = lines
            .recv_timeout(Duration::from_mins(2))
            .unwrap_or_else(|_| panic!("no line {prefix:?} in: {said}"));
        said.push_str(&line);
        said.push('\n');
        if let Some(rest) = line.strip_prefix(prefix) {
            return rest.to_owned();
        }
    }
}

#[test]
fn a_fake_session_that_answers_first_is_passed_over_after_no_and_the_real_one_joined() {
    let _serial = super::one_attack_at_a_time();
    let dir = tempfile::tempdir().expect("tempdir");
    let mdns = free_udp_port().to_string();
    let env = [(PORT_ENV, mdns.as_str())];
    let (fake_dir, real_dir) = (dir.path().join("fake"), dir.path().join("real"));
    folder_with_code(&fake_dir, CODE);
    folder_with_code(&real_dir, CODE);

    // The fake is on the network first, with a look-alike name.
    let fake = Host::start_with("en", &fake_dir, free_port(), &["--name", "Room l"], &env);
    let mut trainee = command_in(
        "en",
        &dir.path().join("ada"),
        &["join", CODE, "--name", "Ada"],
    )
    .env(PORT_ENV, &mdns)
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("join runs");
    let stdout = trainee.stdout.take().expect("stdout");
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut said = String::new();
    let shown = line_after(&lines, "Check digits of this host: ", &mut said);
    assert_eq!(shown, fake.digits, "the fake answered first: {said}");

    // The real session comes up while the trainee compares; its digits are the projector's.
    let real = Host::start_with("en", &real_dir, free_port(), &["--name", "Room 1"], &env);
    assert_ne!(
        real.digits, fake.digits,
        "another certificate, other digits"
    );
    let mut answer = trainee.stdin.take().expect("stdin");
    answer.write_all(b"n\n").expect("no to the fake");
    answer.flush().expect("flushed");
    let next = line_after(&lines, "Check digits of this host: ", &mut said);
    assert!(
        said.contains("looking for another session that takes this code"),
        "{said}"
    );
    assert_eq!(
        next, real.digits,
        "the real session is offered next: {said}"
    );
    answer.write_all(b"y\n").expect("yes to the real one");
    drop(answer);
    let out = trainee.wait_with_output().expect("join ends");
    said.extend(lines.iter().map(|line| line + "\n"));
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("Joined Room 1"), "{said}");
    assert!(real.status(&real_dir).to_string().contains("Ada"));
    assert!(
        !fake.status(&fake_dir).to_string().contains("Ada"),
        "nothing but the code ever reached the fake"
    );
}

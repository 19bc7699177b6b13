//! Joining with the code alone: hosts advertise their sessions by DNS-SD on the LAN (here on
//! loopback, on a multicast DNS port of the test's own), `queuelab join CODE` finds the one whose
//! host takes the code, shows its check digits and joins; a code no host takes, a network without
//! sessions and a host started with `--no-discovery` are refusals with the reason, a non-zero exit
//! and nothing recorded.

use crate::support::{Host, command_in, free_port, free_udp_port};
use queuelab::services::discovery::PORT_ENV;
use std::path::Path;
use std::process::Output;

/// `queuelab join ARGS` in `lang` with the multicast DNS port `mdns`.
fn join(lang: &str, data: &Path, mdns: u16, args: &[&str]) -> Output {
    let mut all = vec!["join"];
    all.extend_from_slice(args);
    command_in(lang, data, &all)
        .env(PORT_ENV, mdns.to_string())
        .output()
        .expect("join runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn code_of(host: &Host) -> &str {
    host.short.split(' ').nth(1).expect("HOST:PORT CODE")
}

fn not_joined(data: &Path) {
    let out = command_in("en", data, &["join"])
        .output()
        .expect("join runs");
    assert!(
        text(&out.stdout).contains("not joined"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn the_code_alone_finds_the_session_that_takes_it_among_several() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mdns = free_udp_port();
    let port = mdns.to_string();
    let env = [(PORT_ENV, port.as_str())];
    let room_a = Host::start_with(
        "en",
        &dir.path().join("a"),
        free_port(),
        &["--name", "Room A"],
        &env,
    );
    let room_b = Host::start_with(
        "en",
        &dir.path().join("b"),
        free_port(),
        &["--name", "Room B"],
        &env,
    );
    assert_ne!(code_of(&room_a), code_of(&room_b));

    let data = dir.path().join("ada");
    let out = join(
        "en",
        &data,
        mdns,
        &[
            code_of(&room_b),
            "--name",
            "Ada",
            "--check-digits",
            &room_b.digits,
        ],
    );
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    let address = room_b.short.split(' ').next().expect("address");
    assert!(
        said.contains(&format!("Found the session at {address}.")),
        "{said}"
    );
    assert!(
        said.contains(&format!("Check digits of this host: {}", room_b.digits)),
        "{said}"
    );
    assert!(said.contains("Joined Room B"), "{said}");
    let status = room_b.status(&dir.path().join("b"));
    assert!(status.to_string().contains("Ada"), "{status}");
    let other = room_a.status(&dir.path().join("a"));
    assert!(!other.to_string().contains("Ada"), "{other}");

    // A well-formed code that neither host takes is refused, in the learner's language.
    let data = dir.path().join("bo");
    let out = join("de", &data, mdns, &["WRNGXY7", "--name", "Bo"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("falscher Beitrittscode"),
        "{}",
        text(&out.stderr)
    );
    not_joined(&data);
}

#[test]
fn no_session_on_the_network_is_a_refusal_that_names_the_fallback() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A host that does not advertise, on a port of its own: nothing to be found.
    let mdns = free_udp_port();
    let port = mdns.to_string();
    let quiet = Host::start_with(
        "en",
        &dir.path().join("host"),
        free_port(),
        &["--no-discovery"],
        &[(PORT_ENV, port.as_str())],
    );
    for (lang, reason) in [
        ("en", "no workshop session answered on this network"),
        (
            "de",
            "In diesem Netz hat keine Workshop-Sitzung geantwortet",
        ),
    ] {
        let data = dir.path().join(lang);
        let out = join(lang, &data, mdns, &[code_of(&quiet), "--name", "Ada"]);
        assert!(!out.status.success());
        let said = text(&out.stderr);
        assert!(
            said.contains(reason) && said.contains("HOST:PORT CODE"),
            "{said}"
        );
        not_joined(&data);
    }
}

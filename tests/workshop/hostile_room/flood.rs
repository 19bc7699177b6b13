//! A device with the join code registers hundreds of fake trainees from ten loopback addresses.
//! The dashboard's summary shows the burst; the instructor locks the room (new trainees refused
//! in their language, a trainee already in the room goes on, the lock survives a restart) and
//! removes every trainee who never sent an event in one action.

use crate::support::{Host, command_in, free_port, run};
use queuelab::domain::workshop::JoinUrl;
use queuelab::services::tls::pinned_client_config;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;

/// Fake trainees per address, and addresses (127.0.0.2 ...).
const PER_ADDRESS: usize = 30;
const ADDRESSES: u8 = 10;

/// `POST /api/events` with `body` from the loopback address `from`, over TLS pinned to the
/// host's certificate: (status, body).
fn post_from(from: Ipv4Addr, url: &JoinUrl, body: &serde_json::Value) -> (u16, String) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .expect("runtime");
    let target: SocketAddr = url.authority().parse().expect("loopback address");
    let tcp = runtime
        .block_on(async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(IpAddr::V4(from), 0))?;
            socket.connect(target).await
        })
        .expect("connected")
        .into_std()
        .expect("std stream");
    tcp.set_nonblocking(false).expect("blocking");
    let config = pinned_client_config(&url.fingerprint).expect("tls");
    let name = rustls::pki_types::ServerName::try_from(url.host.clone()).expect("name");
    let conn = rustls::ClientConnection::new(config, name).expect("tls connection");
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let body = body.to_string();
    let head = format!(
        "POST /api/events HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        url.authority(),
        body.len()
    );
    tls.write_all(head.as_bytes()).expect("written");
    tls.write_all(body.as_bytes()).expect("written");
    let mut raw = Vec::new();
    let _ = tls.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_owned();
    (status, body)
}

/// A registration with no event: what a fake trainee sends.
fn fake(url: &JoinUrl, n: usize) -> serde_json::Value {
    serde_json::json!({
        "code": url.code, "trainee": format!("{:032x}", 0xF000_0000_usize + n),
        "token": format!("fake-token-{n:010}"), "name": format!("Fake {n}"), "events": [],
    })
}

fn summary(host: &Host, dir: &Path) -> serde_json::Value {
    host.status(dir)
}

fn host_cmd(host: &Host, dir: &Path, args: &[&str], input: &str) -> String {
    let mut all = vec!["host"];
    all.extend_from_slice(args);
    all.extend(["--url", &host.url]);
    let mut cmd = command_in("en", dir, &all);
    cmd.env("QUEUELAB_INSTRUCTOR_KEY", &host.key)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input");
    let out = child.wait_with_output().expect("ends");
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    said
}

/// Ten addresses register thirty fake trainees each, at the same time; each is accepted.
fn flood(url: &JoinUrl) {
    std::thread::scope(|scope| {
        for a in 0..ADDRESSES {
            scope.spawn(move || {
                let from = Ipv4Addr::new(127, 0, 0, 2 + a);
                for i in 0..PER_ADDRESS {
                    let (status, body) =
                        post_from(from, url, &fake(url, usize::from(a) * 1000 + i));
                    assert_eq!(status, 200, "{from}: {body}");
                }
            });
        }
    });
}

#[test]
fn a_flood_from_ten_addresses_is_seen_locked_out_and_removed_in_one_action() {
    let _serial = super::one_attack_at_a_time();
    let dir = tempfile::tempdir().expect("tempdir");
    let (data, port) = (dir.path().join("host"), free_port());
    let instructor = dir.path().join("instructor");
    let host = Host::start(&data, port, &[]);
    let url = JoinUrl::parse(&host.url).expect("url");
    // Ada joined before the flood and has done something.
    let ada = dir.path().join("ada");
    let joined = run(&ada, &["join", &host.url, "--name", "Ada"], "");
    assert!(joined.status.success(), "{joined:?}");
    let stuck = run(&ada, &["stuck", "before the flood"], "");
    assert!(stuck.status.success(), "{stuck:?}");

    // The flood: ten addresses register thirty fake trainees each, at the same time.
    flood(&url);
    let total = PER_ADDRESS * usize::from(ADDRESSES);
    let view = summary(&host, &instructor);
    let door = &view["door"];
    assert!(
        door["joins_last_minute"].as_u64() >= Some(total as u64),
        "{door}"
    );
    assert_eq!(door["burst"], true, "{door}");
    assert_eq!(door["silent"].as_u64(), Some(total as u64), "{door}");

    // The instructor locks the room: a new trainee is refused with the reason, in German too.
    let said = host_cmd(&host, &instructor, &["lock"], "");
    assert!(said.contains("locked"), "{said}");
    let (status, body) = post_from(Ipv4Addr::new(127, 0, 0, 40), &url, &fake(&url, 99_999));
    assert_eq!(status, 403, "{body}");
    let bob = command_in(
        "de",
        &dir.path().join("bob"),
        &["join", &host.url, "--name", "Bob"],
    )
    .output()
    .expect("join runs");
    assert!(!bob.status.success());
    let refusal = String::from_utf8_lossy(&bob.stderr);
    assert!(
        refusal.contains("für neue Teilnehmende geschlossen"),
        "{refusal}"
    );
    // Ada's own client goes on: her token is known.
    let solved = run(&ada, &["stuck", "still here"], "");
    assert!(solved.status.success(), "{solved:?}");
    assert!(
        String::from_utf8_lossy(&solved.stdout).contains("instructor"),
        "{solved:?}"
    );

    // Remove the silent: the count first, then all of them at once; Ada stays.
    let said = host_cmd(&host, &instructor, &["kick", "--silent"], "y\n");
    assert!(
        said.contains(&format!("{total} trainee(s) never sent an event")),
        "{said}"
    );
    assert!(
        said.contains(&format!("removed {total} trainee(s)")),
        "{said}"
    );
    let view = summary(&host, &instructor);
    let names: Vec<&str> = view["trainees"]
        .as_array()
        .expect("trainees")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["Ada"], "{view}");
    let (status, _) = post_from(Ipv4Addr::new(127, 0, 0, 2), &url, &fake(&url, 0));
    assert_eq!(status, 403, "a removed fake's client is refused");

    // The lock survives a restart; unlocking lets a new trainee in.
    host.kill();
    let host = Host::start(&data, port, &[]);
    let (status, _) = post_from(Ipv4Addr::new(127, 0, 0, 41), &url, &fake(&url, 100_000));
    assert_eq!(status, 403, "still locked after the restart");
    host_cmd(&host, &instructor, &["unlock"], "");
    let (status, body) = post_from(Ipv4Addr::new(127, 0, 0, 41), &url, &fake(&url, 100_000));
    assert_eq!(status, 200, "{body}");
}

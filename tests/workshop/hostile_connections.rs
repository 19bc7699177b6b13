//! Connection slots taken without the join code: 150 idle TCP connections, then 140 connections
//! that drip a body, while an honest trainee's six requests are made beside them with the trainee's
//! own delivery deadline. The tests assert that every honest request succeeds and that the dripping
//! connections are closed by the host; they assert nothing about speed.

use crate::support::{Host, free_port};
use queuelab::domain::workshop::JoinUrl;
use queuelab::services::trainee::client::{deadline_in, request};
use rustls::pki_types::ServerName;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The attackers' address. Loopback is a whole network (127.0.0.0/8), so binding the attackers'
/// sockets to 127.0.0.2 gives them an address of their own, as a second machine in the room
/// has, while the honest trainee connects from 127.0.0.1: the host's per-address cap then
/// separates them exactly as on a LAN, with the host's real default limits.
const ATTACKER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
/// The deadline the trainee's workshop worker gives one delivery (`DELIVERY_MS`).
const TRAINEE_DEADLINE_MS: u64 = 5_000;
/// Long enough that only a host that never closes a dripping connection runs into it.
const PATIENCE: Duration = Duration::from_secs(25);

fn host(dir: &std::path::Path) -> (Host, JoinUrl) {
    let host = Host::start(&dir.join("host"), free_port(), &[]);
    let url = JoinUrl::parse(&host.url).expect("url");
    (host, url)
}

/// A TCP connection from [`ATTACKER`] to the host.
fn connect_from_attacker(runtime: &tokio::runtime::Runtime, url: &JoinUrl) -> Option<TcpStream> {
    let target = SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, url.port));
    let stream = runtime
        .block_on(async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::V4(SocketAddrV4::new(ATTACKER, 0)))?;
            socket.connect(target).await
        })
        .ok()?
        .into_std()
        .ok()?;
    stream.set_nonblocking(false).ok()?;
    Some(stream)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .expect("runtime")
}

/// Six requests of an honest trainee (registration with an empty batch), one after another,
/// each with the trainee's real deadline; the statuses or errors.
fn honest_requests(url: &JoinUrl) -> Vec<Result<u16, String>> {
    (0..6)
        .map(|i| {
            let body = serde_json::json!({
                "code": url.code, "trainee": format!("{:032x}", 0xabc0 + i),
                "token": format!("honest-token-{i:08}"), "name": format!("Honest {i}"),
                "events": [],
            });
            let bytes = serde_json::to_vec(&body).expect("json");
            request(
                url,
                "POST",
                "/api/events",
                None,
                &bytes,
                deadline_in(TRAINEE_DEADLINE_MS),
            )
            .map(|reply| reply.status)
        })
        .collect()
}

#[test]
fn idle_connections_from_one_address_do_not_lock_out_an_honest_trainee() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_host, url) = host(dir.path());
    let runtime = runtime();
    let idle: Vec<TcpStream> = (0..150)
        .filter_map(|_| connect_from_attacker(&runtime, &url))
        .collect();
    assert!(idle.len() >= 100, "only {} idle connections", idle.len());
    let results = honest_requests(&url);
    assert!(
        results.iter().all(|r| r == &Ok(200)),
        "beside {} idle connections: {results:?}",
        idle.len()
    );
    drop(idle);
}

#[test]
fn connections_dripping_a_body_do_not_lock_out_an_honest_trainee_and_are_closed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_host, url) = host(dir.path());
    let runtime = runtime();
    let config =
        queuelab::services::tls::pinned_client_config(&url.fingerprint).expect("client config");
    // All attackers connect first; then each, on its own thread, finishes the TLS handshake,
    // sends a head announcing a large body and drips it a byte every 200 ms until the host
    // closes the connection. The host closes the ones over the address's share at once.
    let streams: Vec<TcpStream> = (0..140)
        .filter_map(|_| connect_from_attacker(&runtime, &url))
        .collect();
    let started = Arc::new(AtomicUsize::new(0));
    let total = streams.len();
    let drippers: Vec<_> = streams
        .into_iter()
        .map(|tcp| {
            let (config, started, port) = (config.clone(), Arc::clone(&started), url.port);
            std::thread::spawn(move || drip(tcp, config, port, &started))
        })
        .collect();
    let settle = Instant::now() + Duration::from_secs(10);
    while started.load(Ordering::SeqCst) < total && Instant::now() < settle {
        std::thread::sleep(Duration::from_millis(20));
    }
    let results = honest_requests(&url);
    let outcomes: Vec<Drip> = drippers
        .into_iter()
        .map(|t| t.join().expect("dripper"))
        .collect();
    let dripped = outcomes.iter().filter(|o| **o != Drip::Refused).count();
    assert!(
        dripped > 0,
        "no dripping connection got through the handshake"
    );
    assert!(
        results.iter().all(|r| r == &Ok(200)),
        "beside {dripped} dripping connections: {results:?}"
    );
    assert!(
        !outcomes.contains(&Drip::StillOpen),
        "the host closes every connection that drips its body"
    );
}

/// How one dripping connection ended.
#[derive(Debug, PartialEq, Eq)]
enum Drip {
    /// The handshake or the head failed (closed over the address's share).
    Refused,
    /// The host closed it while it dripped.
    Closed,
    /// Still open after [`PATIENCE`].
    StillOpen,
}

fn drip(
    tcp: TcpStream,
    config: Arc<rustls::ClientConfig>,
    port: u16,
    started: &AtomicUsize,
) -> Drip {
    let begun = Instant::now();
    let _ = tcp.set_write_timeout(Some(Duration::from_secs(2)));
    let _ = tcp.set_read_timeout(Some(Duration::from_secs(2)));
    let name = ServerName::try_from("127.0.0.1").expect("name");
    let conn = rustls::ClientConnection::new(config, name).expect("tls");
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let head = format!(
        "POST /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{{"
    );
    let headed = tls.write_all(head.as_bytes()).and_then(|()| tls.flush());
    started.fetch_add(1, Ordering::SeqCst);
    if headed.is_err() {
        return Drip::Refused;
    }
    while begun.elapsed() < PATIENCE {
        if tls.write_all(b" ").and_then(|()| tls.flush()).is_err() {
            return Drip::Closed;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Drip::StillOpen
}

//! Ten other addresses each hold 64 idle TCP connections to the host (connected, nothing sent):
//! an honest trainee's requests still get through within their 2 s deadline, because a full
//! host makes room by closing a connection of the address that holds the most.

use crate::support::{Host, free_port};
use queuelab::domain::workshop::JoinUrl;
use queuelab::services::trainee::client;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// Idle connections per address, and addresses (127.0.0.2 ...).
const PER_ADDRESS: usize = 64;
const ADDRESSES: u8 = 10;

#[test]
fn idle_connections_from_ten_addresses_leave_an_honest_trainee_under_the_deadline() {
    let _serial = super::one_attack_at_a_time();
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let url = JoinUrl::parse(&host.url).expect("url");
    let target: SocketAddr = url.authority().parse().expect("loopback address");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let idle: Vec<tokio::net::TcpStream> = runtime.block_on(async {
        let mut idle = Vec::new();
        for a in 0..ADDRESSES {
            for _ in 0..PER_ADDRESS {
                let socket = tokio::net::TcpSocket::new_v4().expect("socket");
                socket
                    .bind(SocketAddr::new(
                        IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + a)),
                        0,
                    ))
                    .expect("bind");
                if let Ok(stream) = socket.connect(target).await {
                    idle.push(stream);
                }
            }
        }
        idle
    });
    assert!(idle.len() >= 600, "only {} idle connections", idle.len());
    // The kernel queues the attack's connections before the host has accepted them; the host
    // takes them in order, so a request sent right after them waits behind that queue once (a
    // trainee's next poll comes 3 s later). The first answer may take that long; from then on
    // every request must meet the trainee's deadline.
    let first = client::send(
        &url,
        "GET",
        "/api/hello",
        Some(&url.code),
        b"",
        client::deadline_in(30_000),
    )
    .map(|reply| reply.status);
    assert_eq!(
        first.ok(),
        Some(200),
        "the host never answered beside the idle connections"
    );
    // The honest trainee: ten requests in a row, each with the trainee's 2 s deadline.
    let results: Vec<Result<u16, String>> = (0..10)
        .map(|_| {
            client::send(
                &url,
                "GET",
                "/api/hello",
                Some(&url.code),
                b"",
                client::deadline_in(2_000),
            )
            .map(|reply| reply.status)
            .map_err(|e| e.to_string())
        })
        .collect();
    assert!(
        results.iter().all(|r| *r == Ok(200)),
        "beside {} idle connections: {results:?}",
        idle.len()
    );
    drop(idle);
}

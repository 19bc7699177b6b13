use super::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

const PAGE: &str = "<!DOCTYPE html><title>map</title>";

/// Sends a raw request line (the test is the client; the server side is hyper's parser).
fn fetch(addr: SocketAddr, method: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    answer
}

#[test]
fn serves_the_map_on_loopback_and_refuses_everything_else() {
    let server = ShareServer::start((Ipv4Addr::LOCALHOST, 0).into(), PAGE.to_owned())
        .expect("bind loopback");
    let addr = server.local_addr();
    assert_ne!(addr.port(), 0);
    for path in ["/", "/map.html", "/?utm=x"] {
        let answer = fetch(addr, "GET", path);
        assert!(answer.starts_with("HTTP/1.1 200"), "{path}: {answer}");
        assert!(answer.ends_with(PAGE), "{path}: {answer}");
        assert!(answer.contains("Content-Security-Policy: default-src 'none'"));
    }
    for path in ["/etc/passwd", "/../map.html", "/map.htm", "/favicon.ico"] {
        let answer = fetch(addr, "GET", path);
        assert!(answer.starts_with("HTTP/1.1 404"), "{path}: {answer}");
        assert!(!answer.contains(PAGE));
    }
    let answer = fetch(addr, "POST", "/");
    assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
    assert!(answer.contains("Allow: GET, HEAD"), "{answer}");
    let answer = fetch(addr, "HEAD", "/");
    assert!(
        answer.starts_with("HTTP/1.1 200") && !answer.contains(PAGE),
        "{answer}"
    );
    // `stop` joins the server thread; whether the port refuses afterwards is not asserted,
    // because a parallel test may be handed the same free port at once.
    server.stop();
}

#[test]
fn a_taken_port_is_a_clear_error() {
    let first = ShareServer::start((Ipv4Addr::LOCALHOST, 0).into(), PAGE.to_owned())
        .expect("bind loopback");
    let Err(err) = ShareServer::start(first.local_addr(), PAGE.to_owned()) else {
        panic!("second bind on the same port succeeded");
    };
    assert!(err.to_string().contains("pick another port"), "{err}");
}

#[test]
fn urls_carry_ip_and_port() {
    assert_eq!(
        url_for(IpAddr::V4(Ipv4Addr::new(192, 168, 1, 20)), 8737),
        "http://192.168.1.20:8737/"
    );
    if let Some(ip) = lan_ip() {
        assert!(!ip.is_loopback() && !ip.is_unspecified());
    }
}

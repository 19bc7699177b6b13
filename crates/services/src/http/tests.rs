use super::*;
use hyper::StatusCode;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::time::Duration;

/// Echoes the method, path and body length, so a test sees what reached the handler.
struct Echo;

impl Handler for Echo {
    async fn handle(&self, request: Request, _peer: SocketAddr) -> Response {
        let text = format!(
            "{} {} {}",
            request.method(),
            request.uri().path(),
            request.body().len()
        );
        Response::new(hyper::body::Bytes::from(text))
    }
}

fn exchange(addr: SocketAddr, raw: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    stream.write_all(raw).expect("send");
    let mut answer = Vec::new();
    // A reset after the answer (the server closing a refused request) still leaves the answer.
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn start(limits: Limits) -> Server {
    Server::start((Ipv4Addr::LOCALHOST, 0).into(), limits, Echo).expect("bind loopback")
}

#[test]
fn the_handler_sees_method_path_and_body() {
    let server = start(Limits::default());
    let answer = exchange(
        server.local_addr(),
        b"POST /api/x HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with("POST /api/x 5"), "{answer}");
    let answer = exchange(
        server.local_addr(),
        b"HEAD / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
    );
    assert!(
        answer.starts_with("HTTP/1.1 200") && !answer.contains("HEAD /"),
        "{answer}"
    );
    server.stop();
}

#[test]
fn a_body_over_the_limit_is_refused_with_413() {
    let server = start(Limits {
        max_body_bytes: 16,
        ..Limits::default()
    });
    let body = "x".repeat(17);
    let raw = format!(
        "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 17\r\nConnection: close\r\n\r\n{body}"
    );
    let answer = exchange(server.local_addr(), raw.as_bytes());
    assert!(
        answer.starts_with(&format!(
            "HTTP/1.1 {}",
            StatusCode::PAYLOAD_TOO_LARGE.as_u16()
        )),
        "{answer}"
    );
}

#[test]
fn a_head_over_the_limit_is_refused_with_431() {
    let server = start(Limits {
        max_header_bytes: 1024,
        ..Limits::default()
    });
    let raw = format!(
        "GET / HTTP/1.1\r\nHost: t\r\nX-Big: {}\r\n\r\n",
        "a".repeat(4096)
    );
    let answer = exchange(server.local_addr(), raw.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
}

#[test]
fn a_taken_port_names_the_address() {
    let first = start(Limits::default());
    let Err(err) = Server::start(first.local_addr(), Limits::default(), Echo) else {
        panic!("second bind on the same port succeeded");
    };
    assert!(
        err.to_string().contains(&first.local_addr().to_string()),
        "{err}"
    );
}

/// Refuses every request by its head, as a rate limit does.
struct Refuse;

impl Handler for Refuse {
    async fn handle(&self, _request: Request, _peer: SocketAddr) -> Response {
        Response::new(hyper::body::Bytes::from_static(b"handled"))
    }

    fn admit(&self, _head: &hyper::http::request::Parts, _peer: SocketAddr) -> Option<Response> {
        Some(text_response(StatusCode::TOO_MANY_REQUESTS, "slow down\n"))
    }
}

#[test]
fn a_refusal_by_the_head_comes_without_waiting_for_the_body() {
    let server =
        Server::start((Ipv4Addr::LOCALHOST, 0).into(), Limits::default(), Refuse).expect("bind");
    // The body is announced and never sent: only a server that answers from the head replies
    // (the exchange reads for 10 s; reading the body would wait for the 30 s request timeout).
    let answer = exchange(
        server.local_addr(),
        b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n",
    );
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(
        answer.to_lowercase().contains("connection: close"),
        "{answer}"
    );
    server.stop();
}

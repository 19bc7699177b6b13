//! Hostile HTTP clients against the map server on 127.0.0.1: a client that pipelines and never
//! reads, a huge header, many slow connections, idle keep-alive connections. Each test is about
//! what the server does (serve others, refuse, close), never about how fast.

use crate::support::cli::spawn_share;
use queuelab::services::http::Limits;
use queuelab::services::share::ShareServer;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Long enough that only a server that never closes runs into it.
const PATIENCE: Duration = Duration::from_secs(30);

fn short_limits() -> Limits {
    Limits {
        max_connections: 8,
        header_read_timeout: Duration::from_millis(800),
        idle_timeout: Duration::from_millis(800),
        write_timeout: Duration::from_millis(800),
        ..Limits::default()
    }
}

fn start(page_bytes: usize, limits: Limits) -> ShareServer {
    let page = format!(
        "<!DOCTYPE html><title>map</title>{}",
        "x".repeat(page_bytes)
    );
    ShareServer::start_with((Ipv4Addr::LOCALHOST, 0).into(), page, limits).expect("bind loopback")
}

fn get(addr: SocketAddr) -> String {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("read the answer");
    String::from_utf8_lossy(&answer).into_owned()
}

/// Reads until the server closes; true when it did within `PATIENCE`.
fn closed_by_server(stream: &mut TcpStream) -> bool {
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let mut sink = vec![0_u8; 64 * 1024];
    loop {
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn a_client_that_pipelines_and_never_reads_does_not_block_another() {
    let server = start(200 * 1024, short_limits());
    let addr = server.local_addr();
    let mut hog = TcpStream::connect(addr).expect("connect");
    let hog_writer = {
        let mut hog = hog.try_clone().expect("clone");
        std::thread::spawn(move || {
            let request = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n");
            // Thousands of pipelined requests whose 200 KB answers are never read; the write
            // fails once the server gives up on this connection.
            for _ in 0..5000 {
                if hog.write_all(request.as_bytes()).is_err() {
                    return;
                }
            }
        })
    };
    // Give the hog time to fill every socket buffer between it and the server.
    std::thread::sleep(Duration::from_millis(300));
    let answer = get(addr);
    assert!(
        answer.starts_with("HTTP/1.1 200") && answer.contains("<title>map</title>"),
        "{answer:.200}"
    );
    // The server drops the connection whose answers are never read (write timeout).
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    hog.set_read_timeout(Some(Duration::from_millis(1)))
        .expect("timeout");
    while started.elapsed() < PATIENCE && !hog_writer.is_finished() {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        hog_writer.is_finished(),
        "the never-reading client was never disconnected"
    );
    let _ = hog_writer.join();
    assert!(closed_by_server(&mut hog));
}

#[test]
fn many_slow_connections_are_bounded_and_closed() {
    let limits = short_limits();
    let server = start(64, limits);
    let addr = server.local_addr();
    let mut slow: Vec<TcpStream> = (0..100)
        .map(|_| {
            let mut s = TcpStream::connect(addr).expect("connect");
            // Half a request head, then nothing (a slow-loris client).
            s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").expect("send");
            s
        })
        .collect();
    for _ in 0..20 {
        assert!(
            server.active_connections() <= limits.max_connections,
            "{}",
            server.active_connections()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    for (i, s) in slow.iter_mut().enumerate() {
        assert!(closed_by_server(s), "slow connection {i} still open");
    }
    let answer = get(addr);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:.200}");
}

#[test]
fn idle_keep_alive_connections_are_closed() {
    let server = start(64, short_limits());
    let addr = server.local_addr();
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(stream, "GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").expect("send");
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut status = String::new();
    reader.read_line(&mut status).expect("status line");
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    // Keep-alive: the server would wait for the next request; it must close the idle connection.
    assert!(closed_by_server(&mut stream), "idle connection stayed open");
}

/// The peak resident memory of a process in kB (Linux).
#[cfg(target_os = "linux")]
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM line")
}

#[cfg(target_os = "linux")]
#[test]
fn a_huge_header_is_refused_without_memory_growth() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = spawn_share(dir.path(), Stdio::null());
    let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let host_port = lines
        .map_while(Result::ok)
        .find_map(|l| {
            l.strip_prefix("On this machine: http://")
                .map(|u| u.trim_end_matches('/').to_owned())
        })
        .expect("local URL printed");
    let before = peak_kb(child.id());
    let mut stream = TcpStream::connect(&host_port).expect("connect");
    stream.set_write_timeout(Some(PATIENCE)).expect("timeout");
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Huge: ")
        .expect("send");
    let chunk = vec![b'a'; 1024 * 1024];
    let mut sent_mb = 0;
    // Up to 256 MB of one header; the server must stop reading long before.
    while sent_mb < 256 && stream.write_all(&chunk).is_ok() {
        sent_mb += 1;
    }
    let mut answer = Vec::new();
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let _ = stream.read_to_end(&mut answer);
    let after = peak_kb(child.id());
    let _ = child.kill();
    let _ = child.wait();
    let answer = String::from_utf8_lossy(&answer);
    assert!(sent_mb < 256, "the server read 256 MB of header");
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 431"),
        "{answer:.200}"
    );
    assert!(
        after - before < 16 * 1024,
        "peak memory grew from {before} kB to {after} kB"
    );
}

//! `queuelab share` end to end: prints the URL, serves the map on loopback, refuses other paths
//! and stops cleanly on SIGINT (what Ctrl+C sends).

use crate::support::cli::spawn_share;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

fn get(host_port: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(host_port).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host_port}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    answer
}

#[cfg(unix)]
#[test]
fn share_serves_the_map_and_stops_on_ctrl_c() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = spawn_share(dir.path(), Stdio::piped());
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut printed = Vec::new();
    let host_port = loop {
        let line = lines
            .next()
            .expect("share printed its URL before ending")
            .expect("utf-8");
        printed.push(line.clone());
        if line == "Press Ctrl+C to stop." {
            break printed
                .iter()
                .find_map(|l| l.strip_prefix("On this machine: http://"))
                .expect("local URL printed")
                .trim_end_matches('/')
                .to_owned();
        }
    };
    assert!(host_port.starts_with("127.0.0.1:"), "{printed:?}");
    let page = get(&host_port, "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("Quick-reference map") && page.contains("</html>"));
    assert!(get(&host_port, "/secret").starts_with("HTTP/1.1 404"));

    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = child.wait().expect("share ends");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(status.success(), "exit {status:?}, output {rest:?}");
    assert!(rest.iter().any(|l| l == "Stopped sharing."), "{rest:?}");
    assert!(TcpStream::connect(&host_port).is_err(), "port still open");
}

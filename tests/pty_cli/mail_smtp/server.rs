//! SMTP servers on loopback for the tests: a real one (mailin-embedded) whose replies can be
//! switched to 4xx or 5xx, and a tiny responder that drops the connection mid-conversation.

use mailin_embedded::{Handler, Response, Server, response};
use std::io::{BufRead, BufReader, Write};
use std::net::{IpAddr, TcpListener};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

/// How the mailin server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Mode {
    /// Accept every mail.
    Accept = 0,
    /// 451 at MAIL FROM.
    Temporary = 1,
    /// 550 at RCPT TO.
    Permanent = 2,
}

/// A mail the server accepted.
#[derive(Debug, Clone)]
pub struct Received {
    /// Envelope recipients.
    pub to: Vec<String>,
    /// The raw message.
    pub data: String,
}

#[derive(Clone)]
struct Collect {
    mode: Arc<AtomicU8>,
    inbox: Arc<Mutex<Vec<Received>>>,
    to: Vec<String>,
    buf: Vec<u8>,
}

impl Handler for Collect {
    fn mail(&mut self, _ip: IpAddr, _domain: &str, _from: &str) -> Response {
        if self.mode.load(Ordering::SeqCst) == Mode::Temporary as u8 {
            return response::INTERNAL_ERROR;
        }
        response::OK
    }

    fn rcpt(&mut self, _to: &str) -> Response {
        if self.mode.load(Ordering::SeqCst) == Mode::Permanent as u8 {
            return response::NO_MAILBOX;
        }
        response::OK
    }

    fn data_start(&mut self, _domain: &str, _from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.to = to.to_vec();
        self.buf.clear();
        response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let data = String::from_utf8_lossy(&self.buf).into_owned();
        if let Ok(mut inbox) = self.inbox.lock() {
            inbox.push(Received {
                to: self.to.clone(),
                data,
            });
        }
        response::OK
    }
}

/// A running mailin server on 127.0.0.1. Its serve loop has no stop call, so the thread ends
/// with the test process; "server down" is tested with a port nobody listens on.
pub struct Smtp {
    /// The port it listens on.
    pub port: u16,
    mode: Arc<AtomicU8>,
    inbox: Arc<Mutex<Vec<Received>>>,
}

impl Smtp {
    /// Starts a server on a free port.
    pub fn start() -> Smtp {
        Smtp::start_on(0)
    }

    /// Starts a server on `port` (0: a free one); a test brings a server up late on a port it
    /// configured while nothing listened there.
    pub fn start_on(port: u16) -> Smtp {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind the port");
        let port = listener.local_addr().expect("local addr").port();
        let mode = Arc::new(AtomicU8::new(Mode::Accept as u8));
        let inbox = Arc::new(Mutex::new(Vec::new()));
        let handler = Collect {
            mode: mode.clone(),
            inbox: inbox.clone(),
            to: Vec::new(),
            buf: Vec::new(),
        };
        let mut server = Server::new(handler);
        server.with_name("mx.test").with_tcp_listener(listener);
        std::thread::spawn(move || {
            let _ = server.serve();
        });
        Smtp { port, mode, inbox }
    }

    /// Switches how it answers.
    pub fn set_mode(&self, mode: Mode) {
        self.mode.store(mode as u8, Ordering::SeqCst);
    }

    /// Mails accepted so far.
    pub fn received(&self) -> Vec<Received> {
        self.inbox.lock().expect("inbox lock").clone()
    }
}

/// A port on 127.0.0.1 where nothing listens (connection refused).
pub fn dead_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("addr").port()
}

/// How the scripted responder misbehaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Close the connection at MAIL FROM, without a reply.
    Drop,
    /// Take the whole message, then refuse it with 554 (a content filter's answer).
    RejectAfterData,
}

/// A minimal SMTP responder on a free port that misbehaves as `fault` says.
pub fn faulty_server(fault: Fault) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut writer = stream.try_clone().expect("clone stream");
            let mut reader = BufReader::new(stream);
            let _ = writer.write_all(b"220 fault.test ESMTP\r\n");
            let mut in_data = false;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                let upper = line.to_ascii_uppercase();
                let reply: &[u8] = if in_data {
                    if line == ".\r\n" {
                        in_data = false;
                        b"554 5.7.1 rejected by the test\r\n"
                    } else {
                        b""
                    }
                } else if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                    b"250 fault.test\r\n"
                } else if upper.starts_with("MAIL") && fault == Fault::Drop {
                    break; // hang up without a reply
                } else if upper.starts_with("DATA") {
                    in_data = true;
                    b"354 go ahead\r\n"
                } else if upper.starts_with("QUIT") {
                    let _ = writer.write_all(b"221 bye\r\n");
                    break;
                } else {
                    b"250 ok\r\n"
                };
                if !reply.is_empty() && writer.write_all(reply).is_err() {
                    break;
                }
                line.clear();
            }
        }
    });
    port
}

//! The transport under [`crate::HostClient`]: a small blocking HTTPS/1.1 client, one request per
//! connection, the host pinned by its certificate fingerprint, every step bounded by the
//! caller's deadline, every request naming its protocol. The host's routes and bodies are
//! [`crate::HostClient`]'s; [`send`] and [`request`] carry raw requests (scripts, tests).

use domain::workshop::JoinUrl;
use domain::workshop::wire::{PROTOCOL, PROTOCOL_HEADER};
use rustls::pki_types::ServerName;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// Largest response the client reads (the summary of a big room fits easily).
const MAX_RESPONSE: u64 = 4 * 1024 * 1024;

/// An answer from the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as text (the host's error messages are one line of text).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).trim().to_owned()
    }
}

/// Why a request got no answer from the host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// Nothing answered before the deadline (no route, refused, silent).
    #[error("{0}")]
    Unreachable(String),
    /// A host answered with another certificate than the pinned one.
    #[error("{0}")]
    Certificate(String),
    /// Anything else (set-up, a malformed or too large answer).
    #[error("{0}")]
    Other(String),
}

/// Sends one raw request to the host of `url` and reads the reply before `deadline`; the
/// reason of a failure as text.
pub fn request(
    url: &JoinUrl,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: &[u8],
    deadline: Instant,
) -> Result<Reply, String> {
    send(url, method, path, bearer, body, deadline).map_err(|e| e.to_string())
}

/// Connects to `host:port` before `deadline` (the name resolved, the first address).
fn connect(address: &str, deadline: Instant) -> Result<TcpStream, RequestError> {
    let late = || RequestError::Unreachable(format!("the host {address} did not answer in time"));
    let left = deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
        .ok_or_else(late)?;
    let addr = address
        .to_socket_addrs()
        .map_err(|e| RequestError::Unreachable(format!("cannot resolve {address}: {e}")))?
        .next()
        .ok_or_else(|| RequestError::Unreachable(format!("no address for {address}")))?;
    TcpStream::connect_timeout(&addr, left)
        .map_err(|e| RequestError::Unreachable(format!("cannot reach the host {address}: {e}")))
}

/// An I/O error on the TLS stream, sorted: a refused certificate, a deadline, or a failure.
fn classify(e: &std::io::Error, address: &str) -> RequestError {
    let tls = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>());
    if matches!(tls, Some(rustls::Error::InvalidCertificate(_))) {
        RequestError::Certificate(format!(
            "the host {address} has another certificate than the one pinned for this session"
        ))
    } else if is_timeout(e) {
        RequestError::Unreachable(format!("the host {address} did not answer in time"))
    } else {
        RequestError::Other(format!("talking to the host {address} failed: {e}"))
    }
}

/// Connects to `host:port` and completes a TLS handshake that accepts any certificate, only to
/// learn its fingerprint (nothing is sent over this connection).
pub fn observe_certificate(
    host: &str,
    port: u16,
    deadline: Instant,
) -> Result<String, RequestError> {
    let address = domain::workshop::join_url::authority(host, port);
    let tcp = connect(&address, deadline)?;
    let (config, seen) = crate::tls::observing_client_config().map_err(RequestError::Other)?;
    let name = ServerName::try_from(host.to_owned())
        .map_err(|e| RequestError::Other(format!("bad host name {host:?}: {e}")))?;
    let mut conn = rustls::ClientConnection::new(config, name)
        .map_err(|e| RequestError::Other(format!("TLS set-up failed: {e}")))?;
    let mut io = Bounded { tcp, deadline };
    while conn.is_handshaking() {
        conn.complete_io(&mut io)
            .map_err(|e| classify(&e, &address))?;
    }
    let fingerprint = seen
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    fingerprint
        .ok_or_else(|| RequestError::Other(format!("the host {address} sent no certificate")))
}

/// [`request`], with the reason sorted.
pub fn send(
    url: &JoinUrl,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: &[u8],
    deadline: Instant,
) -> Result<Reply, RequestError> {
    send_as(url, PROTOCOL, method, path, bearer, body, deadline)
}

/// [`send`] as a client of `protocol` (a host refuses a protocol it does not speak; this is
/// how a test or a tool asks as another build).
pub fn send_as(
    url: &JoinUrl,
    protocol: u32,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: &[u8],
    deadline: Instant,
) -> Result<Reply, RequestError> {
    let tcp = connect(&url.authority(), deadline)?;
    let config = crate::tls::pinned_client_config(&url.fingerprint).map_err(RequestError::Other)?;
    let name = ServerName::try_from(url.host.clone())
        .map_err(|e| RequestError::Other(format!("bad host name {:?}: {e}", url.host)))?;
    let conn = rustls::ClientConnection::new(config, name)
        .map_err(|e| RequestError::Other(format!("TLS set-up failed: {e}")))?;
    // Every read and write below (the TLS handshake included, which rustls runs inside the
    // first write) waits at most until the one deadline: a host that accepts TCP and then
    // stays silent costs the caller its deadline, never more.
    let mut tls = rustls::StreamOwned::new(conn, Bounded { tcp, deadline });
    // Every request names its protocol: the host refuses one it does not speak.
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n{PROTOCOL_HEADER}: {protocol}\r\n",
        url.authority(),
        body.len()
    );
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    if let Some(key) = bearer {
        head = head + "Authorization: Bearer " + key + "\r\n";
    }
    head.push_str("\r\n");
    let io = |e: std::io::Error| classify(&e, &url.authority());
    tls.write_all(head.as_bytes()).map_err(io)?;
    tls.write_all(body).map_err(io)?;
    tls.flush().map_err(io)?;
    let mut raw = Vec::new();
    loop {
        let mut chunk = [0u8; 8192];
        match tls.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
            // A peer that closes without close_notify after a complete response is common.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !raw.is_empty() => break,
            Err(e) => return Err(io(e)),
        }
        if raw.len() as u64 > MAX_RESPONSE {
            return Err(RequestError::Other(format!(
                "the host {} sent too large an answer",
                url.authority()
            )));
        }
        if response_complete(&raw) {
            break;
        }
    }
    parse(&raw).ok_or_else(|| {
        RequestError::Other(format!(
            "the host {} sent a malformed answer",
            url.authority()
        ))
    })
}

/// A TCP stream whose every read and write ends at one deadline (a timeout error past it).
struct Bounded {
    tcp: TcpStream,
    deadline: Instant,
}

impl Bounded {
    fn left(&self) -> std::io::Result<Duration> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::TimedOut))
    }
}

impl Read for Bounded {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.left()?;
        self.tcp.set_read_timeout(Some(left))?;
        self.tcp.read(buf)
    }
}

impl Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let left = self.left()?;
        self.tcp.set_write_timeout(Some(left))?;
        self.tcp.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.tcp.flush()
    }
}

/// A socket timeout shows as `WouldBlock` on Unix and `TimedOut` elsewhere.
fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
    )
}

/// Whether the head and the announced body length have arrived.
fn response_complete(raw: &[u8]) -> bool {
    let Some(end) = find_head_end(raw) else {
        return false;
    };
    content_length(&raw[..end]).is_some_and(|len| raw.len() >= end + 4 + len)
}

fn find_head_end(raw: &[u8]) -> Option<usize> {
    raw.windows(4).position(|w| w == b"\r\n\r\n")
}

fn content_length(head: &[u8]) -> Option<usize> {
    String::from_utf8_lossy(head).lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse().ok())?
    })
}

fn parse(raw: &[u8]) -> Option<Reply> {
    let end = find_head_end(raw)?;
    let head = String::from_utf8_lossy(&raw[..end]);
    let status = head.split(' ').nth(1)?.parse().ok()?;
    let mut body = raw[end + 4..].to_vec();
    if let Some(len) = content_length(&raw[..end]) {
        body.truncate(len);
    }
    Some(Reply { status, body })
}

/// A deadline `millis` from now.
pub fn deadline_in(millis: u64) -> Instant {
    Instant::now() + Duration::from_millis(millis)
}

/// How long one mail request to the host may take. The host queues the mail and answers after
/// at most its first-attempt patience (1.5 s) plus its own work, so a few seconds cover a busy
/// host on a crowded Wi-Fi; a host that is gone costs the trainee 10 s, not half a minute.
pub const MAIL_REQUEST_MS: u64 = 10_000;

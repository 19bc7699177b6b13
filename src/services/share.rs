//! `queuelab share`: serves the phone map on the local network. Read-only: one page, GET and HEAD
//! only, on its own thread so neither the CLI nor the TUI loop ever blocks on a client.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use thiserror::Error;
use tiny_http::{Header, Method, Request, Response, Server};

/// The paths that serve the map; everything else is 404.
pub const MAP_PATHS: [&str; 2] = ["/", "/map.html"];
/// The page needs inline CSS and nothing else: forbid every fetch, script and frame.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/// A private address used only to ask the routing table which interface faces the LAN. Connecting
/// a UDP socket sends no packet.
const ROUTE_PROBE: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::new(10, 254, 254, 254)), 9);

/// Why sharing could not start.
#[derive(Debug, Error)]
pub enum ShareError {
    /// The port is taken or not allowed.
    #[error(
        "cannot listen on {addr}: {reason}; pick another port ([share] port in the config or --port)"
    )]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The reason.
        reason: String,
    },
}

/// A running map server; stops when dropped.
pub struct ShareServer {
    server: Arc<Server>,
    stopping: Arc<AtomicBool>,
    addr: SocketAddr,
    thread: Option<JoinHandle<()>>,
}

impl ShareServer {
    /// Listens on `addr` (port 0 picks a free one) and serves `page` from a background thread.
    pub fn start(addr: SocketAddr, page: String) -> Result<ShareServer, ShareError> {
        let bind_error = |reason: String| ShareError::Bind { addr, reason };
        let server = Server::http(addr).map_err(|e| bind_error(e.to_string()))?;
        let bound = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| bind_error("not an IP listener".to_owned()))?;
        let server = Arc::new(server);
        let stopping = Arc::new(AtomicBool::new(false));
        let thread = {
            let (server, stopping) = (Arc::clone(&server), Arc::clone(&stopping));
            std::thread::Builder::new()
                .name("queuelab-share".to_owned())
                .spawn(move || serve(&server, &stopping, &page))
                .map_err(|e| bind_error(e.to_string()))?
        };
        Ok(ShareServer {
            server,
            stopping,
            addr: bound,
            thread: Some(thread),
        })
    }

    /// The address actually bound (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops serving and waits for the server thread.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            // A panic in the server thread only ends sharing; nothing to recover here.
            let _ = thread.join();
        }
    }
}

impl Drop for ShareServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn serve(server: &Server, stopping: &AtomicBool, page: &str) {
    while !stopping.load(Ordering::SeqCst) {
        // recv fails on unblock (stop) and on a broken client connection (keep serving).
        if let Ok(request) = server.recv() {
            // A client that hangs up mid-response is its own problem, not the server's.
            let _ = answer(request, page);
        }
    }
}

fn answer(request: Request, page: &str) -> std::io::Result<()> {
    let path = request.url().split(['?', '#']).next().unwrap_or_default();
    let (status, body, content_type) = if !matches!(request.method(), Method::Get | Method::Head) {
        (405, "method not allowed\n", "text/plain; charset=utf-8")
    } else if MAP_PATHS.contains(&path) {
        (200, page, "text/html; charset=utf-8")
    } else {
        (404, "not found\n", "text/plain; charset=utf-8")
    };
    let mut response = Response::from_string(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Content-Security-Policy", CSP))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("Referrer-Policy", "no-referrer"))
        .with_header(header("Cache-Control", "no-cache"));
    if status == 405 {
        response = response.with_header(header("Allow", "GET, HEAD"));
    }
    request.respond(response)
}

fn header(name: &str, value: &str) -> Header {
    // Header::from_bytes only fails on non-ASCII bytes; all names and values here are constants.
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("constant ASCII header")
}

/// The address other devices on the LAN reach this machine at, asked from the routing table
/// without sending anything; `None` when there is no non-loopback route.
pub fn lan_ip() -> Option<IpAddr> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect(ROUTE_PROBE).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// `http://ip:port/` for a bound address.
pub fn url_for(ip: IpAddr, port: u16) -> String {
    format!("http://{}/", SocketAddr::new(ip, port))
}

#[cfg(test)]
mod tests;

//! `queuelab share`: serves the phone map on the local network. Read-only: one page, GET and HEAD
//! only, on the bounded HTTP server (its own thread and runtime), so neither the CLI nor the TUI
//! loop ever waits on a client, and a hostile client cannot stall the others.

use super::http::{self, Handler, Limits, Request, Response};
use hyper::body::Bytes;
use hyper::header::{self, HeaderValue};
use hyper::{Method, StatusCode};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use thiserror::Error;

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

/// A running map server; stops when dropped (without waiting for open connections).
pub struct ShareServer {
    server: http::Server,
}

impl ShareServer {
    /// Listens on `addr` (port 0 picks a free one) and serves `page` with the default limits.
    pub fn start(addr: SocketAddr, page: String) -> Result<ShareServer, ShareError> {
        ShareServer::start_with(addr, page, Limits::default())
    }

    /// Like [`ShareServer::start`] with explicit limits (tests use short timeouts).
    pub fn start_with(
        addr: SocketAddr,
        page: String,
        limits: Limits,
    ) -> Result<ShareServer, ShareError> {
        let page = MapPage {
            page: Bytes::from(page),
        };
        match http::Server::start(addr, limits, page) {
            Ok(server) => Ok(ShareServer { server }),
            Err(http::HttpError::Bind { addr, reason }) => Err(ShareError::Bind { addr, reason }),
            Err(e @ http::HttpError::Thread(_)) => Err(ShareError::Bind {
                addr,
                reason: e.to_string(),
            }),
        }
    }

    /// The address actually bound (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// Connections open right now (bounded by the limits).
    pub fn active_connections(&self) -> usize {
        self.server.active_connections()
    }

    /// Stops serving and waits for the server thread (at most the shutdown grace period).
    pub fn stop(self) {
        self.server.stop();
    }
}

/// The one page this server knows.
struct MapPage {
    page: Bytes,
}

impl Handler for MapPage {
    async fn handle(&self, request: Request, _peer: SocketAddr) -> Response {
        let path = request.uri().path();
        let mut response = if !matches!(*request.method(), Method::GET | Method::HEAD) {
            let mut r = http::text_response(StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n");
            r.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
            r
        } else if MAP_PATHS.contains(&path) {
            let mut r = Response::new(self.page.clone());
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
            r
        } else {
            http::text_response(StatusCode::NOT_FOUND, "not found\n")
        };
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
        headers.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        headers.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    }
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

//! The host on the shared HTTP server stack: TLS with the host's own certificate as the
//! connection acceptor, and the API as the handler. SQLite work runs on tokio's blocking pool so
//! a slow disk never stalls other connections.

use super::HostState;
use super::api::{ApiRequest, ApiResponse, MAX_BODY};
use crate::http::{self, Accept, Handler, HttpError, Limits, Request, Response, Server};
use crate::store::now_ms;
use domain::workshop::wire::PROTOCOL_HEADER;
use hyper::body::Bytes;
use hyper::header::{self, HeaderValue};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// Runs the TLS handshake on each accepted connection.
pub struct TlsAccept(pub TlsAcceptor);

impl Accept for TlsAccept {
    type Io = TlsStream<TcpStream>;
    async fn accept(&self, tcp: TcpStream) -> std::io::Result<Self::Io> {
        self.0.accept(tcp).await
    }
}

/// Carries requests to the session's API.
pub struct HostHandler(pub Arc<HostState>);

impl Handler for HostHandler {
    async fn handle(&self, request: Request, peer: SocketAddr) -> Response {
        let state = Arc::clone(&self.0);
        let answer = tokio::task::spawn_blocking(move || {
            let bearer = request
                .headers()
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "));
            let cookie = request
                .headers()
                .get_all(header::COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .find_map(super::login::from_cookie_header);
            state.route(
                &ApiRequest {
                    method: request.method().as_str(),
                    path: request.uri().path(),
                    query: request.uri().query().unwrap_or(""),
                    bearer,
                    cookie,
                    body: request.body(),
                    peer: peer.ip(),
                },
                now_ms(),
            )
        })
        .await;
        let Ok(answer) = answer else {
            return http::text_response(
                hyper::StatusCode::INTERNAL_SERVER_ERROR,
                "internal error\n",
            );
        };
        to_response(answer)
    }

    fn admit(&self, head: &hyper::http::request::Parts, peer: SocketAddr) -> Option<Response> {
        if let Err(refused) = self.0.admit(peer.ip(), now_ms()) {
            return Some(to_response(refused));
        }
        // A client of another protocol is refused before its body is read.
        let protocol = head
            .headers
            .get(PROTOCOL_HEADER)
            .map(|v| v.to_str().unwrap_or(""));
        HostState::version_refusal(protocol).map(to_response)
    }
}

/// The API's answer as an HTTP response with the host's security headers.
fn to_response(answer: ApiResponse) -> Response {
    let mut response = Response::new(Bytes::from(answer.body));
    *response.status_mut() = hyper::StatusCode::from_u16(answer.status)
        .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(answer.content_type),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(super::export::CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    for (name, value) in answer.headers {
        // Names are the API's own constants and values its own text; one that is not a valid
        // header is left out rather than sent broken.
        if let (Ok(name), Ok(value)) = (
            header::HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&value),
        ) {
            headers.insert(name, value);
        }
    }
    response
}

/// Starts serving `state` over TLS on `addr`.
pub fn start(
    addr: SocketAddr,
    state: Arc<HostState>,
    tls: Arc<rustls::ServerConfig>,
) -> Result<Server, HttpError> {
    let limits = Limits {
        max_body_bytes: MAX_BODY,
        // A room of trainees, each with a short-lived connection, plus the projector.
        max_connections: 128,
        // Half the slots per address: a class of 40 behind one NAT address fits, and one
        // address holding its share (idle, or dripping a body) leaves the rest to others.
        max_connections_per_address: 64,
        ..Limits::default()
    };
    Server::start_with(
        addr,
        limits,
        TlsAccept(TlsAcceptor::from(tls)),
        HostHandler(state),
    )
}

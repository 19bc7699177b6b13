//! A bounded HTTP/1.1 server on tokio + hyper, shared by everything queuelab serves (the LAN map
//! today, the workshop host later). It caps connections with a semaphore, limits header and body
//! size, closes connections that send headers too slowly, stay idle, stall a write or take too long
//! for one request, and serves every connection on its own task, so one hostile client never
//! blocks another. It runs on its own thread and runtime: the TUI loop never waits on a client.

mod activity;
mod connection;
mod limits;
mod listener;

pub use limits::Limits;
pub use listener::serve;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::{Semaphore, watch};

/// A request whose body has been read completely (within [`Limits::max_body_bytes`]).
pub type Request = hyper::Request<hyper::body::Bytes>;
/// A complete response; the server adds `Content-Length` and drops the body for HEAD.
pub type Response = hyper::Response<hyper::body::Bytes>;

/// Answers requests. Implemented by each site the server carries (map page, JSON API, ...).
pub trait Handler: Send + Sync + 'static {
    /// Answers one request from `peer`; runs under [`Limits::request_timeout`].
    fn handle(&self, request: Request, peer: SocketAddr) -> impl Future<Output = Response> + Send;

    /// Looks at a request's head before its body is read: Some(answer) refuses it (a rate
    /// limit, say) without reading the body. Admits everything unless a site says otherwise.
    fn admit(&self, _head: &hyper::http::request::Parts, _peer: SocketAddr) -> Option<Response> {
        None
    }
}

/// Turns an accepted TCP stream into the stream HTTP is spoken on (plain, or TLS for the host).
pub trait Accept: Send + Sync + 'static {
    /// The stream after the handshake.
    type Io: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    /// Runs the handshake; bounded by [`Limits::handshake_timeout`].
    fn accept(&self, tcp: TcpStream) -> impl Future<Output = std::io::Result<Self::Io>> + Send;
}

/// Plain HTTP: the TCP stream as it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlainTcp;

impl Accept for PlainTcp {
    type Io = TcpStream;
    async fn accept(&self, tcp: TcpStream) -> std::io::Result<TcpStream> {
        Ok(tcp)
    }
}

/// Why a server could not start.
#[derive(Debug, Error)]
pub enum HttpError {
    /// The address could not be bound (port taken, not allowed, no such interface).
    #[error("cannot listen on {addr}: {reason}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The operating system's reason.
        reason: String,
    },
    /// The server thread or its runtime could not be started.
    #[error("cannot start the HTTP server thread: {0}")]
    Thread(String),
}

/// A server running on its own thread and tokio runtime; stops (without waiting) when dropped.
pub struct Server {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    slots: Arc<Semaphore>,
    max_connections: usize,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves plain HTTP on `addr` (port 0 picks a free one) with `handler`.
    pub fn start<H: Handler>(
        addr: SocketAddr,
        limits: Limits,
        handler: H,
    ) -> Result<Server, HttpError> {
        Server::start_with(addr, limits, PlainTcp, handler)
    }

    /// Serves on `addr`, running `acceptor` on each connection first (e.g. a TLS handshake).
    pub fn start_with<H: Handler, A: Accept>(
        addr: SocketAddr,
        limits: Limits,
        acceptor: A,
        handler: H,
    ) -> Result<Server, HttpError> {
        let bind_error = |e: std::io::Error| HttpError::Bind {
            addr,
            reason: e.to_string(),
        };
        // Bound here, not on the thread, so a taken port is an error the caller sees at once.
        let listener = std::net::TcpListener::bind(addr).map_err(bind_error)?;
        listener.set_nonblocking(true).map_err(bind_error)?;
        let bound = listener.local_addr().map_err(bind_error)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| HttpError::Thread(e.to_string()))?;
        let (stop, stopped) = watch::channel(false);
        let slots = Arc::new(Semaphore::new(limits.max_connections));
        let max_connections = limits.max_connections;
        let thread = {
            let slots = Arc::clone(&slots);
            std::thread::Builder::new()
                .name("queuelab-http".to_owned())
                .spawn(move || {
                    runtime.block_on(async move {
                        match tokio::net::TcpListener::from_std(listener) {
                            Ok(listener) => {
                                let stopped = wait_for_stop(stopped);
                                listener::serve_with_slots(
                                    listener, limits, acceptor, handler, slots, stopped,
                                )
                                .await;
                            }
                            Err(e) => {
                                crate::log::warn(&format!("HTTP server on {bound}: {e}"));
                            }
                        }
                    });
                })
                .map_err(|e| HttpError::Thread(e.to_string()))?
        };
        Ok(Server {
            addr: bound,
            stop,
            slots,
            max_connections,
            thread: Some(thread),
        })
    }

    /// The address actually bound (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Connections being served right now (never more than [`Limits::max_connections`]).
    pub fn active_connections(&self) -> usize {
        self.max_connections - self.slots.available_permits()
    }

    /// Stops accepting, lets open requests finish within [`Limits::shutdown_grace`], and waits
    /// for the server thread.
    pub fn stop(mut self) {
        let _ = self.stop.send(true);
        if let Some(thread) = self.thread.take() {
            // A panic on the server thread only ends serving; nothing to recover here.
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    /// Signals the stop without waiting: the listener closes at once, open connections finish
    /// within the grace period on the server's own thread (a UI dropping it never blocks).
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

async fn wait_for_stop(mut stopped: watch::Receiver<bool>) {
    // An Err means the sender is gone: the owner dropped the server, so stop as well.
    let _ = stopped.wait_for(|stop| *stop).await;
}

/// A plain response with `status` and a short text body.
pub fn text_response(status: hyper::StatusCode, body: &'static str) -> Response {
    let mut response = Response::new(hyper::body::Bytes::from_static(body.as_bytes()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests;

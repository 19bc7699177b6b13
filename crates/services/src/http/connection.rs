//! Serving one accepted connection: handshake, HTTP/1.1 with limits, a watchdog for idle and
//! stalled writes, and a graceful end when the server stops.

use super::activity::{Activity, Verdict, Watched};
use super::{Accept, Handler, Limits, Request, Response, text_response};
use http_body_util::{BodyExt, Full, Limited};
use hyper::StatusCode;
use hyper::body::{Bytes, Incoming};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::watch;

/// Serves `tcp` until the client leaves, a limit ends it, or `stopped` turns true.
pub(super) async fn serve_connection<H: Handler, A: Accept>(
    tcp: TcpStream,
    peer: SocketAddr,
    limits: Limits,
    acceptor: Arc<A>,
    handler: Arc<H>,
    mut stopped: watch::Receiver<bool>,
) {
    let Ok(Ok(io)) = tokio::time::timeout(limits.handshake_timeout, acceptor.accept(tcp)).await
    else {
        return;
    };
    let activity = Activity::new();
    let io = TokioIo::new(Watched::new(io, Arc::clone(&activity)));
    let service = hyper::service::service_fn(move |request| {
        let handler = Arc::clone(&handler);
        async move { Ok::<_, Infallible>(answer(request, peer, &limits, handler.as_ref()).await) }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        // Header names as people read them in `curl -v`; case carries no meaning in HTTP/1.1.
        .title_case_headers(true)
        .header_read_timeout(limits.header_read_timeout)
        .max_header_size(limits.max_header_bytes)
        .max_headers(limits.max_headers)
        // Bounds the read buffer too, so pipelined requests cannot pile up in memory.
        .max_buf_size(limits.max_header_bytes.max(8192) + limits.max_body_bytes.min(64 * 1024));
    let connection = builder.serve_connection(io, service);
    tokio::pin!(connection);
    let watchdog = watchdog(&activity, limits);
    tokio::pin!(watchdog);
    let mut stopping = false;
    loop {
        tokio::select! {
            // Errors are the client's (reset, bad request, header timeout): nothing to report.
            _ = connection.as_mut() => return,
            () = watchdog.as_mut() => return,
            changed = stopped.changed(), if !stopping => {
                stopping = true;
                if changed.is_err() || *stopped.borrow() {
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// Resolves when the connection has idled or stalled a write past its limit.
async fn watchdog(activity: &Activity, limits: Limits) {
    let mut tick = tokio::time::interval(limits.watchdog_tick());
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if activity.verdict(limits.idle_timeout, limits.write_timeout) != Verdict::Alive {
            return;
        }
    }
}

/// Asks the handler to admit the request by its head (a refusal costs no body read), reads the
/// body within its size, time and rate limits, then asks the handler, all within the request
/// timeout.
async fn answer<H: Handler>(
    request: hyper::Request<Incoming>,
    peer: SocketAddr,
    limits: &Limits,
    handler: &H,
) -> hyper::Response<Full<Bytes>> {
    let work = async {
        let (parts, body) = request.into_parts();
        if let Some(refused) = handler.admit(&parts, peer) {
            return closing(refused);
        }
        match read_body(body, limits).await {
            Ok(body) => handler.handle(Request::from_parts(parts, body), peer).await,
            Err(BodyError::TooLarge) => {
                text_response(StatusCode::PAYLOAD_TOO_LARGE, "request body too large\n")
            }
            Err(BodyError::TooSlow) => closing(text_response(
                StatusCode::REQUEST_TIMEOUT,
                "request body too slow\n",
            )),
            Err(BodyError::Unreadable) => {
                text_response(StatusCode::BAD_REQUEST, "request body could not be read\n")
            }
        }
    };
    let response: Response = tokio::time::timeout(limits.request_timeout, work)
        .await
        .unwrap_or_else(|_| text_response(StatusCode::REQUEST_TIMEOUT, "request took too long\n"));
    response.map(Full::new)
}

/// `response` with `Connection: close`: the body (if any) was not read, so the connection
/// cannot carry another request.
fn closing(mut response: Response) -> Response {
    response.headers_mut().insert(
        hyper::header::CONNECTION,
        hyper::header::HeaderValue::from_static("close"),
    );
    response
}

/// Why a body was not read.
enum BodyError {
    TooLarge,
    TooSlow,
    Unreadable,
}

/// Reads the body frame by frame. Each frame must come before the body deadline and before the
/// bytes so far fall below the minimum rate: after `received` bytes the client has until
/// `grace + received / rate` since the start for the next frame.
async fn read_body(body: Incoming, limits: &Limits) -> Result<Bytes, BodyError> {
    let start = tokio::time::Instant::now();
    let end = start + limits.body_timeout;
    let rate = limits.min_body_bytes_per_sec.max(1);
    let mut body = Limited::new(body, limits.max_body_bytes);
    let mut data = Vec::new();
    loop {
        let allowed = limits.body_grace + Duration::from_secs_f64(data.len() as f64 / rate as f64);
        let deadline = (start + allowed).min(end);
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => return Err(BodyError::TooSlow),
            Ok(None) => return Ok(Bytes::from(data)),
            Ok(Some(Err(e))) if e.is::<http_body_util::LengthLimitError>() => {
                return Err(BodyError::TooLarge);
            }
            Ok(Some(Err(_))) => return Err(BodyError::Unreadable),
            Ok(Some(Ok(frame))) => frame,
        };
        if let Ok(chunk) = frame.into_data() {
            data.extend_from_slice(&chunk);
        }
    }
}

//! The bounds every connection is served under.

use std::time::Duration;

/// Limits for one server. The defaults suit a workshop LAN: a room of phones and laptops, small
/// pages and small JSON bodies.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections served at once; further clients wait in the kernel's accept queue.
    pub max_connections: usize,
    /// Request line plus headers, in bytes; larger ones get 431 and the connection closes.
    pub max_header_bytes: usize,
    /// Number of header fields.
    pub max_headers: usize,
    /// Request body, in bytes; larger ones get 413.
    pub max_body_bytes: usize,
    /// Time for a client to send a complete request head (and for a TLS handshake).
    pub header_read_timeout: Duration,
    /// A connection on which no byte moves in either direction for this long is closed.
    pub idle_timeout: Duration,
    /// A write the client does not read for this long closes the connection.
    pub write_timeout: Duration,
    /// Reading the body plus producing the response; past it the client gets 408.
    pub request_timeout: Duration,
    /// On stop, open requests get this long to finish before their connections are dropped.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 64,
            max_header_bytes: 16 * 1024,
            max_headers: 64,
            max_body_bytes: 64 * 1024,
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(2),
        }
    }
}

impl Limits {
    /// How often a connection's watchdog looks at its activity clock.
    pub(super) fn watchdog_tick(&self) -> Duration {
        (self.idle_timeout.min(self.write_timeout) / 4)
            .clamp(Duration::from_millis(10), Duration::from_secs(1))
    }
}

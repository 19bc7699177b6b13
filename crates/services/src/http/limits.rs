//! The bounds every connection is served under.

use std::time::Duration;

/// Limits for one server. The defaults suit a workshop LAN: a room of phones and laptops, small
/// pages and small JSON bodies.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections served at once; further clients wait in the kernel's accept queue.
    pub max_connections: usize,
    /// Connections one client address may hold at once; past it a new one is closed at once,
    /// so one address cannot take every slot (a class behind one NAT address still fits).
    pub max_connections_per_address: usize,
    /// Request line plus headers, in bytes; larger ones get 431 and the connection closes.
    pub max_header_bytes: usize,
    /// Number of header fields.
    pub max_headers: usize,
    /// Request body, in bytes; larger ones get 413.
    pub max_body_bytes: usize,
    /// Time for a client to finish the connection's handshake (TLS for the host): a client
    /// that connects and says nothing gives its slot back after this.
    pub handshake_timeout: Duration,
    /// Time for a client to send a complete request head.
    pub header_read_timeout: Duration,
    /// Time for a client to send a complete request body.
    pub body_timeout: Duration,
    /// Slowest body a client may send, in bytes per second, once [`Limits::body_grace`] is
    /// over: a client dripping a body a byte at a time loses its slot long before
    /// [`Limits::body_timeout`].
    pub min_body_bytes_per_sec: u64,
    /// How long a body may arrive slower than [`Limits::min_body_bytes_per_sec`] at first.
    pub body_grace: Duration,
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
            max_connections_per_address: 64,
            max_header_bytes: 16 * 1024,
            max_headers: 64,
            max_body_bytes: 64 * 1024,
            handshake_timeout: Duration::from_secs(3),
            header_read_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            // A LAN sends a JSON batch in one go; 4 KiB/s is far below any real client.
            min_body_bytes_per_sec: 4 * 1024,
            body_grace: Duration::from_secs(2),
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

//! A stream wrapper that records when bytes last moved and since when a write has been stuck, so
//! a watchdog can close connections that idle or that a client stops reading.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Marks "no write is waiting" in `write_blocked_since`.
const NOT_BLOCKED: u64 = u64::MAX;

/// The shared clock of one connection (milliseconds since the connection was accepted).
#[derive(Debug)]
pub(super) struct Activity {
    start: Instant,
    last_progress: AtomicU64,
    write_blocked_since: AtomicU64,
}

/// What the watchdog concluded.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Keep serving.
    Alive,
    /// No byte moved for the idle timeout.
    Idle,
    /// A write waited for the client longer than the write timeout.
    WriteStalled,
}

impl Activity {
    pub(super) fn new() -> Arc<Activity> {
        Arc::new(Activity {
            start: Instant::now(),
            last_progress: AtomicU64::new(0),
            write_blocked_since: AtomicU64::new(NOT_BLOCKED),
        })
    }

    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX - 1)
    }

    fn progressed(&self) {
        self.last_progress.store(self.now(), Ordering::Relaxed);
    }

    fn write_blocked(&self) {
        let now = self.now();
        // Only the first pending poll of a stuck write starts its clock.
        let _ = self.write_blocked_since.compare_exchange(
            NOT_BLOCKED,
            now,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    fn write_moved(&self) {
        self.write_blocked_since
            .store(NOT_BLOCKED, Ordering::Relaxed);
        self.progressed();
    }

    /// Judges the connection against the two timeouts.
    pub(super) fn verdict(&self, idle: Duration, write: Duration) -> Verdict {
        let now = self.now();
        let blocked = self.write_blocked_since.load(Ordering::Relaxed);
        if blocked != NOT_BLOCKED && now.saturating_sub(blocked) >= millis(write) {
            return Verdict::WriteStalled;
        }
        if now.saturating_sub(self.last_progress.load(Ordering::Relaxed)) >= millis(idle) {
            return Verdict::Idle;
        }
        Verdict::Alive
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The connection's stream, reporting every byte moved to its [`Activity`].
pub(super) struct Watched<T> {
    io: T,
    activity: Arc<Activity>,
}

impl<T> Watched<T> {
    pub(super) fn new(io: T, activity: Arc<Activity>) -> Watched<T> {
        Watched { io, activity }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.io).poll_read(cx, buf);
        if matches!(poll, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.progressed();
        }
        poll
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write(cx, data);
        self.note_write(&poll);
        poll
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.note_write(&poll);
        poll
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_flush(cx);
        if poll.is_pending() {
            self.activity.write_blocked();
        }
        poll
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

impl<T> Watched<T> {
    fn note_write(&self, poll: &Poll<io::Result<usize>>) {
        match poll {
            Poll::Pending => self.activity.write_blocked(),
            Poll::Ready(Ok(n)) if *n > 0 => self.activity.write_moved(),
            Poll::Ready(_) => {}
        }
    }
}

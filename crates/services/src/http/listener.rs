//! The accept loop: one task per connection, at most `max_connections` at once, and a clean stop.

use super::connection::serve_connection;
use super::{Accept, Handler, Limits};
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

/// Serves `listener` on the current tokio runtime until `shutdown` resolves, then lets open
/// requests finish within [`Limits::shutdown_grace`]. For callers that run their own runtime.
pub async fn serve<H: Handler, A: Accept>(
    listener: TcpListener,
    limits: Limits,
    acceptor: A,
    handler: H,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    serve_with_slots(listener, limits, acceptor, handler, slots, shutdown).await;
}

pub(super) async fn serve_with_slots<H: Handler, A: Accept>(
    listener: TcpListener,
    limits: Limits,
    acceptor: A,
    handler: H,
    slots: Arc<Semaphore>,
    shutdown: impl Future<Output = ()>,
) {
    let (acceptor, handler) = (Arc::new(acceptor), Arc::new(handler));
    let (stop, stopped) = watch::channel(false);
    let mut connections = JoinSet::new();
    let per_address = Arc::new(Mutex::new(HashMap::new()));
    tokio::pin!(shutdown);
    loop {
        // A slot first, then accept: past the limit clients wait in the kernel's queue instead
        // of costing a task, a buffer and a file descriptor each.
        let permit = tokio::select! {
            () = shutdown.as_mut() => break,
            permit = Arc::clone(&slots).acquire_owned() => permit,
        };
        let Ok(permit) = permit else { break };
        let accepted = tokio::select! {
            () = shutdown.as_mut() => break,
            accepted = listener.accept() => accepted,
        };
        // Finished connections are reaped here so the set does not grow with the server's age.
        while connections.try_join_next().is_some() {}
        let Ok((tcp, peer)) = accepted else {
            // Out of file descriptors or a connection reset before accept: try again shortly.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            continue;
        };
        // Over its address's share: closed at once, the slot goes back to the room.
        let Some(held) = PerAddress::take(&per_address, peer.ip(), limits) else {
            drop(tcp);
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let (acceptor, handler, stopped) =
            (Arc::clone(&acceptor), Arc::clone(&handler), stopped.clone());
        connections.spawn(async move {
            serve_connection(tcp, peer, limits, acceptor, handler, stopped).await;
            drop(held);
            drop(permit);
        });
    }
    drop(listener);
    let _ = stop.send(true);
    let drained = async { while connections.join_next().await.is_some() {} };
    // Past the grace period the remaining connections are dropped with the set.
    let _ = tokio::time::timeout(limits.shutdown_grace, drained).await;
}

/// Open connections per client address.
type Counts = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// One connection counted against its address; uncounted when dropped (the task ends).
struct PerAddress {
    counts: Counts,
    ip: IpAddr,
}

impl PerAddress {
    /// Counts a connection from `ip`; None when the address already holds its share.
    fn take(counts: &Counts, ip: IpAddr, limits: Limits) -> Option<PerAddress> {
        let mut map = counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = map.entry(ip).or_insert(0);
        if *n >= limits.max_connections_per_address {
            return None;
        }
        *n += 1;
        Some(PerAddress {
            counts: Arc::clone(counts),
            ip,
        })
    }
}

impl Drop for PerAddress {
    fn drop(&mut self) {
        let mut map = self
            .counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            // The table holds only addresses with open connections.
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

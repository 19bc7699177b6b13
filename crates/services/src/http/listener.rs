//! The accept loop: one task per connection, at most `max_connections` at once, shared fairly
//! between client addresses, and a clean stop.

use super::connection::serve_connection;
use super::{Accept, Handler, Limits};
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::{AbortHandle, JoinSet};

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
    let mut next_id = 0u64;
    tokio::pin!(shutdown);
    loop {
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
        next_id += 1;
        // Over its address's share: closed at once, the slot goes back to the room.
        let Some(held) = PerAddress::take(&per_address, peer.ip(), next_id, limits) else {
            drop(tcp);
            continue;
        };
        // Every slot taken: the address holding the most connections gives one up when it holds
        // more than this client's, so idle connections from a few addresses cannot keep a
        // trainee out; otherwise the client waits for a slot as in the kernel's queue.
        let permit = if let Ok(permit) = Arc::clone(&slots).try_acquire_owned() {
            Ok(permit)
        } else {
            PerAddress::make_room(&per_address, peer.ip());
            tokio::select! {
                () = shutdown.as_mut() => break,
                permit = Arc::clone(&slots).acquire_owned() => permit,
            }
        };
        let Ok(permit) = permit else { break };
        let _ = tcp.set_nodelay(true);
        let (acceptor, handler, stopped) =
            (Arc::clone(&acceptor), Arc::clone(&handler), stopped.clone());
        let (ip, id) = (held.ip, held.id);
        let abort = connections.spawn(async move {
            serve_connection(tcp, peer, limits, acceptor, handler, stopped).await;
            drop(held);
            drop(permit);
        });
        PerAddress::closes_with(&per_address, ip, id, abort);
    }
    drop(listener);
    let _ = stop.send(true);
    let drained = async { while connections.join_next().await.is_some() {} };
    // Past the grace period the remaining connections are dropped with the set.
    let _ = tokio::time::timeout(limits.shutdown_grace, drained).await;
}

/// Open connections per client address, oldest first, each with the handle that closes it
/// (set once its task runs).
type Counts = Arc<Mutex<Table>>;
/// Client address -> its open connections (id, how to close it).
type Table = HashMap<IpAddr, Vec<(u64, Option<AbortHandle>)>>;

/// The table; a holder that panicked left it consistent (every change is one statement).
fn locked(counts: &Counts) -> std::sync::MutexGuard<'_, Table> {
    counts
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One connection counted against its address; uncounted when dropped (the task ends).
struct PerAddress {
    counts: Counts,
    ip: IpAddr,
    id: u64,
}

impl PerAddress {
    /// Counts connection `id` from `ip`; None when the address already holds its share.
    fn take(counts: &Counts, ip: IpAddr, id: u64, limits: Limits) -> Option<PerAddress> {
        let mut map = locked(counts);
        let open = map.entry(ip).or_default();
        if open.len() >= limits.max_connections_per_address {
            return None;
        }
        open.push((id, None));
        Some(PerAddress {
            counts: Arc::clone(counts),
            ip,
            id,
        })
    }

    /// Notes how to close connection `id` of `ip` (unless it already ended).
    fn closes_with(counts: &Counts, ip: IpAddr, id: u64, abort: AbortHandle) {
        if let Some(entry) = locked(counts)
            .get_mut(&ip)
            .and_then(|open| open.iter_mut().find(|(i, _)| *i == id))
        {
            entry.1 = Some(abort);
        }
    }

    /// Closes the oldest connection of the address holding the most, when it holds more than
    /// `ip` does (counting the connection `ip` just opened).
    fn make_room(counts: &Counts, ip: IpAddr) {
        let map = locked(counts);
        let mine = map.get(&ip).map_or(0, Vec::len);
        if let Some(open) = map.values().max_by_key(|open| open.len())
            && open.len() > mine
            && let Some(abort) = open.iter().find_map(|(_, abort)| abort.as_ref())
        {
            abort.abort();
        }
    }
}

impl Drop for PerAddress {
    fn drop(&mut self) {
        let mut map = locked(&self.counts);
        if let Some(open) = map.get_mut(&self.ip) {
            open.retain(|(id, _)| *id != self.id);
            // The table holds only addresses with open connections.
            if open.is_empty() {
                map.remove(&self.ip);
            }
        }
    }
}

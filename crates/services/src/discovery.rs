//! Finding a workshop session on the LAN without typing its address: the host advertises itself
//! by DNS-SD over multicast DNS (service type `_queuelab._tcp`), a trainee's `queuelab join CODE`
//! browses for it. What is advertised is public anyway (a name, an address, a port); the join
//! code stays on the projector and the certificate is still confirmed by its check digits, so a
//! fake advertisement leads at most to a refused join. Many workshop networks isolate clients or
//! drop multicast: then nothing is found and `HOST:PORT CODE` works as before.

use mdns_sd::{IfKind, ServiceDaemon, ServiceEvent, ServiceInfo};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The DNS-SD service type of a workshop session.
pub const SERVICE_TYPE: &str = "_queuelab._tcp.local.";

/// Overrides the multicast DNS port (5353): tests run several hosts side by side, each on its
/// own port, and a machine whose port 5353 is taken by another responder can use another.
pub const PORT_ENV: &str = "QUEUELAB_DISCOVERY_PORT";

/// The longest instance name DNS allows in one label.
const MAX_LABEL: usize = 63;

/// A session found on the LAN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The session's name as its host advertises it.
    pub name: String,
    /// The host's addresses, the most useful first (LAN IPv4, then loopback, then IPv6).
    pub addresses: Vec<IpAddr>,
    /// The host's TCP port.
    pub port: u16,
}

fn daemon() -> Result<ServiceDaemon, String> {
    let port = match std::env::var(PORT_ENV) {
        Ok(text) => text
            .trim()
            .parse::<u16>()
            .map_err(|_| format!("{PORT_ENV}={text} is no port number"))?,
        Err(_) => mdns_sd::MDNS_PORT,
    };
    ServiceDaemon::new_with_port(port).map_err(|e| format!("multicast DNS: {e}"))
}

/// A running advertisement; dropping it says goodbye on the network.
pub struct Advertisement {
    daemon: ServiceDaemon,
    /// The instance name advertised (the session's name, cut to what DNS allows).
    pub name: String,
}

impl Advertisement {
    /// Advertises the session `name` served on `port`. A host bound to one address advertises
    /// that address only, on its interface; one bound to all advertises every address it has.
    /// `host_label` names the host in `.local` (unique per host, e.g. from its certificate).
    pub fn start(
        name: &str,
        bind: IpAddr,
        port: u16,
        host_label: &str,
    ) -> Result<Advertisement, String> {
        let daemon = daemon()?;
        let instance = instance_name(name);
        let host_name = format!("{host_label}.local.");
        let info = if bind.is_unspecified() {
            ServiceInfo::new(
                SERVICE_TYPE,
                &instance,
                &host_name,
                "",
                port,
                &[("v", "1")][..],
            )
            .map(ServiceInfo::enable_addr_auto)
        } else {
            let only = if bind.is_loopback() {
                match bind {
                    IpAddr::V4(_) => IfKind::LoopbackV4,
                    IpAddr::V6(_) => IfKind::LoopbackV6,
                }
            } else {
                IfKind::Addr(bind)
            };
            daemon
                .disable_interface(IfKind::All)
                .and_then(|()| daemon.enable_interface(only))
                .map_err(|e| format!("multicast DNS: {e}"))?;
            ServiceInfo::new(
                SERVICE_TYPE,
                &instance,
                &host_name,
                bind,
                port,
                &[("v", "1")][..],
            )
        }
        .map_err(|e| format!("multicast DNS: {e}"))?;
        daemon
            .register(info)
            .map_err(|e| format!("multicast DNS: {e}"))?;
        Ok(Advertisement {
            daemon,
            name: instance,
        })
    }
}

impl Drop for Advertisement {
    fn drop(&mut self) {
        // Sends the goodbye packets, so browsers forget the session at once.
        if let Ok(done) = self.daemon.shutdown() {
            let _ = done.recv_timeout(Duration::from_millis(500));
        }
    }
}

/// The session's name as one DNS label: printable, at most 63 bytes, cut at a character.
fn instance_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if c.is_control() || c == '.' { ' ' } else { c })
        .collect();
    let clean = clean.trim();
    let clean = if clean.is_empty() { "queuelab" } else { clean };
    let mut end = clean.len().min(MAX_LABEL);
    while !clean.is_char_boundary(end) {
        end -= 1;
    }
    clean[..end].trim_end().to_owned()
}

/// Browses the LAN for sessions until `deadline` or until `take` returns true for one. A
/// session is handed to `take` again when more of its addresses arrive. An error says why
/// browsing could not start (no multicast socket).
pub fn browse(deadline: Instant, mut take: impl FnMut(&Found) -> bool) -> Result<(), String> {
    let daemon = daemon()?;
    let events = daemon
        .browse(SERVICE_TYPE)
        .map_err(|e| format!("multicast DNS: {e}"))?;
    loop {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        let Ok(event) = events.recv_timeout(deadline - now) else {
            break;
        };
        if let ServiceEvent::ServiceResolved(service) = event {
            let name = service
                .fullname
                .strip_suffix(SERVICE_TYPE)
                .unwrap_or(&service.fullname)
                .trim_end_matches('.')
                .to_owned();
            let mut addresses: Vec<IpAddr> = service
                .addresses
                .iter()
                .map(mdns_sd::ScopedIp::to_ip_addr)
                .collect();
            addresses.sort_by_key(|a| (a.is_ipv6(), a.is_loopback(), *a));
            let found = Found {
                name,
                addresses,
                port: service.port,
            };
            if take(&found) {
                break;
            }
        }
    }
    if let Ok(done) = daemon.shutdown() {
        let _ = done.recv_timeout(Duration::from_millis(200));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instance_name_is_one_printable_label() {
        assert_eq!(instance_name("Workshop Messaging"), "Workshop Messaging");
        assert_eq!(instance_name("a.b\nc"), "a b c");
        assert_eq!(instance_name("  "), "queuelab");
        let long = "Ü".repeat(40);
        let cut = instance_name(&long);
        assert!(cut.len() <= MAX_LABEL && cut.chars().all(|c| c == 'Ü'));
    }
}

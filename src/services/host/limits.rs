//! Per-client request rates: a token bucket per peer address, so one noisy or hostile client
//! cannot starve the room. The table is bounded; idle buckets are dropped first.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Instant;

/// Requests per second a client may sustain.
const RATE_PER_SEC: f64 = 100.0;
/// Requests a client may send in a burst (a whole class behind one NAT address fits).
const BURST: f64 = 400.0;
/// Most clients tracked at once.
const MAX_CLIENTS: usize = 4096;

/// The buckets.
#[derive(Debug, Default)]
pub struct RateLimits {
    buckets: HashMap<IpAddr, (f64, Instant)>,
}

impl RateLimits {
    /// Takes one token for `peer`; false when the client is over its rate.
    pub fn allow(&mut self, peer: IpAddr, now: Instant) -> bool {
        if self.buckets.len() >= MAX_CLIENTS && !self.buckets.contains_key(&peer) {
            // Full buckets carry no information: forget them before refusing anyone.
            self.buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * RATE_PER_SEC < BURST
            });
            if self.buckets.len() >= MAX_CLIENTS {
                return false;
            }
        }
        let (tokens, at) = self.buckets.entry(peer).or_insert((BURST, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * RATE_PER_SEC).min(BURST);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;
    use std::time::Duration;

    #[test]
    fn a_burst_then_the_rate() {
        let mut limits = RateLimits::default();
        let (a, b) = (
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V4(Ipv4Addr::BROADCAST),
        );
        let t0 = Instant::now();
        let allowed = (0..1000).filter(|_| limits.allow(a, t0)).count();
        assert_eq!(allowed, BURST as usize);
        assert!(limits.allow(b, t0), "another client has its own bucket");
        assert!(
            limits.allow(a, t0 + Duration::from_millis(20)),
            "refilled at the rate"
        );
    }
}

//! Per-client request rates: a token bucket per peer address, so one noisy or hostile client
//! cannot starve the room. The table is bounded; idle buckets are dropped first. Time comes in
//! as the caller's clock in milliseconds (the same `now_ms` a request is handled at), so a test
//! drives it and a slow machine does not refill buckets in the middle of a test.

use std::collections::HashMap;
use std::net::IpAddr;

/// Requests per second a client may sustain.
const RATE_PER_SEC: f64 = 100.0;
/// Requests a client may send in a burst (a whole class behind one NAT address fits).
const BURST: f64 = 400.0;
/// Most clients tracked at once.
const MAX_CLIENTS: usize = 4096;

/// New trainees one address may register per second, sustained.
const REGISTRATIONS_PER_SEC: f64 = 0.5;
/// New trainees one address may register at once (a class of 40 behind one NAT address fits;
/// a script with the join code cannot fill the room with fake trainees).
const REGISTRATION_BURST: f64 = 60.0;

/// The buckets.
#[derive(Debug)]
pub struct RateLimits {
    buckets: HashMap<IpAddr, (f64, i64)>,
    rate: f64,
    burst: f64,
}

impl Default for RateLimits {
    /// Requests per client address.
    fn default() -> Self {
        RateLimits::new(RATE_PER_SEC, BURST)
    }
}

impl RateLimits {
    /// Buckets of `burst` tokens refilled at `rate` per second.
    pub fn new(rate: f64, burst: f64) -> RateLimits {
        RateLimits {
            buckets: HashMap::new(),
            rate,
            burst,
        }
    }

    /// New trainees per client address.
    pub fn registrations() -> RateLimits {
        RateLimits::new(REGISTRATIONS_PER_SEC, REGISTRATION_BURST)
    }

    /// Takes one token for `peer`; false when the client is over its rate.
    pub fn allow(&mut self, peer: IpAddr, now_ms: i64) -> bool {
        // Seconds since a bucket was last touched; a clock that steps back refills nothing.
        let since = |at: i64| (now_ms - at).max(0) as f64 / 1000.0;
        if self.buckets.len() >= MAX_CLIENTS && !self.buckets.contains_key(&peer) {
            // Full buckets carry no information: forget them before refusing anyone.
            let (rate, burst) = (self.rate, self.burst);
            self.buckets
                .retain(|_, (tokens, at)| *tokens + since(*at) * rate < burst);
            if self.buckets.len() >= MAX_CLIENTS {
                return false;
            }
        }
        let (tokens, at) = self.buckets.entry(peer).or_insert((self.burst, now_ms));
        *tokens = (*tokens + since(*at) * self.rate).min(self.burst);
        *at = now_ms;
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

    #[test]
    fn a_burst_then_the_rate() {
        let mut limits = RateLimits::default();
        let (a, b) = (
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V4(Ipv4Addr::BROADCAST),
        );
        let t0 = 1_000;
        let allowed = (0..1000).filter(|_| limits.allow(a, t0)).count();
        assert_eq!(allowed, BURST as usize);
        assert!(limits.allow(b, t0), "another client has its own bucket");
        assert!(limits.allow(a, t0 + 20), "refilled at the rate");
    }
}

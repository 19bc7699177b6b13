//! Retry policy: immediate retries, then delayed retries with exponential backoff and jitter.

use rand::RngExt;
use rand::rngs::StdRng;

pub use content::scenario::Jitter;

/// Immediate and delayed retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// In-process retries before the message is abandoned.
    pub immediate: u32,
    /// First delayed-retry backoff, ms.
    pub base_ms: u64,
    /// Upper bound of any delay, ms.
    pub cap_ms: u64,
    /// Jitter strategy.
    pub jitter: Jitter,
}

impl RetryPolicy {
    /// Delay before delayed retry number `attempt` (1-based); `previous_ms` feeds decorrelated jitter.
    pub fn delay_ms(&self, attempt: u32, previous_ms: u64, rng: &mut StdRng) -> u64 {
        let exp = self
            .base_ms
            .saturating_mul(1_u64 << attempt.saturating_sub(1).min(30))
            .min(self.cap_ms);
        match self.jitter {
            Jitter::None => exp,
            Jitter::Full => rng.random_range(0..=exp),
            Jitter::Equal => exp / 2 + rng.random_range(0..=exp / 2),
            Jitter::Decorrelated => {
                let hi = previous_ms
                    .max(self.base_ms)
                    .saturating_mul(3)
                    .max(self.base_ms);
                rng.random_range(self.base_ms..=hi).min(self.cap_ms)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn policy(jitter: Jitter) -> RetryPolicy {
        RetryPolicy {
            immediate: 1,
            base_ms: 100,
            cap_ms: 5_000,
            jitter,
        }
    }

    #[test]
    fn no_jitter_doubles_up_to_the_cap() {
        let mut rng = StdRng::seed_from_u64(1);
        let p = policy(Jitter::None);
        let d: Vec<u64> = (1..=8).map(|a| p.delay_ms(a, 0, &mut rng)).collect();
        assert_eq!(d, vec![100, 200, 400, 800, 1600, 3200, 5000, 5000]);
    }

    #[test]
    fn jittered_delays_stay_in_their_bounds() {
        let mut rng = StdRng::seed_from_u64(7);
        for j in Jitter::ALL {
            let p = policy(j);
            let mut prev = 0;
            for a in 1..20 {
                let d = p.delay_ms(a, prev, &mut rng);
                assert!(d <= p.cap_ms, "{j:?} {d}");
                if j == Jitter::Equal {
                    let exp = (100_u64 << (a - 1).min(30)).min(5_000);
                    assert!(d >= exp / 2);
                }
                if j == Jitter::Decorrelated {
                    assert!(d >= p.base_ms);
                }
                prev = d;
            }
        }
    }
}

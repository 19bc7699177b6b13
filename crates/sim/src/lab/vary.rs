//! Seeds that explore: a lab's check draws the timing of each checked scenario from the seed
//! (arrival gaps, handling time, when each scripted fault strikes, and how many immediate
//! retries run before the broker's redelivery), so that different seeds
//! give different interleavings and a file that only survives one schedule fails on another.
//! The engine's own seeded jitter then varies every single step on top of that.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::Scenario;

/// The lowest and highest factor a timing is scaled by, in percent.
const SCALE_PERCENT: (u64, u64) = (50, 150);
/// The engine's per-step timing jitter in a lab check, percent.
const STEP_JITTER_PERCENT: u32 = 40;

fn scaled(rng: &mut StdRng, ms: u64) -> u64 {
    ms * rng.random_range(SCALE_PERCENT.0..=SCALE_PERCENT.1) / 100
}

/// `scenario` with its timings drawn from `seed` (the same seed always gives the same one).
pub(crate) fn vary(scenario: &Scenario, seed: u64) -> Scenario {
    // A stream of its own, apart from the engine's: the variation never shifts the engine's draws.
    let mut rng = StdRng::seed_from_u64(seed ^ 0x1ab5_eed5);
    let mut s = scenario.clone();
    s.setup.arrival_ms = scaled(&mut rng, s.setup.arrival_ms).max(1);
    s.setup.handling_ms = scaled(&mut rng, s.setup.handling_ms).max(1);
    s.setup.timing_jitter_pct = s.setup.timing_jitter_pct.max(STEP_JITTER_PERCENT);
    for entry in &mut s.script {
        entry.at_ms = scaled(&mut rng, entry.at_ms);
    }
    s.script.sort_by_key(|e| e.at_ms);
    // Drawn last, so the timings above stay what they were before this draw existed. Whether
    // a failed attempt is retried in process (same delivery) or only by the broker (the next
    // delivery) is a deployment's choice: a handler must be right under both.
    s.setup.immediate_retries = rng.random_range(0..=s.setup.immediate_retries);
    spread_customers(&mut rng, &mut s);
    s
}

/// Where a customer's orders must stay in sequence, they arrive spread over the run, often
/// seconds apart, and each takes about as long to handle: a customer's next order comes while
/// the one before is still in work, in another second. So only a key that names the customer
/// keeps them in line; an arrival-time bucket splits them. Drawn after every other timing.
fn spread_customers(rng: &mut StdRng, s: &mut Scenario) {
    if s.setup.groups == 0 {
        return;
    }
    s.setup.arrival_ms = rng.random_range(SPREAD_ARRIVAL_MS.0..=SPREAD_ARRIVAL_MS.1);
    s.setup.handling_ms = rng.random_range(SPREAD_HANDLING_MS.0..=SPREAD_HANDLING_MS.1);
}

/// The arrival gap and the handling time, ms, of a check where order per customer matters.
const SPREAD_ARRIVAL_MS: (u64, u64) = (400, 900);
const SPREAD_HANDLING_MS: (u64, u64) = (1_000, 2_500);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_timings_and_seeds_differ() {
        let base = crate::scenario::find("twin-consumers").expect("scenario");
        assert_eq!(
            vary(&base, 3).setup.handling_ms,
            vary(&base, 3).setup.handling_ms
        );
        let handling: std::collections::BTreeSet<u64> = (1..=20)
            .map(|seed| vary(&base, seed).setup.handling_ms)
            .collect();
        assert!(handling.len() > 5, "{handling:?}");
    }

    #[test]
    fn some_seeds_leave_every_retry_to_the_broker() {
        let base = crate::scenario::find("two-phase-claim").expect("scenario");
        assert!(base.setup.immediate_retries > 0);
        let drawn: std::collections::BTreeSet<u32> = (1..=8)
            .map(|seed| vary(&base, seed).setup.immediate_retries)
            .collect();
        assert!(drawn.contains(&0), "{drawn:?}");
        assert!(drawn.contains(&base.setup.immediate_retries), "{drawn:?}");
    }
}

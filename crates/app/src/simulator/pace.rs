//! Playback pace: every scenario's default run plays in about the same wall time, whether it
//! has 60 events or 2,000 (long runs are time-compressed, short ones get time to read).

/// Wall time a scenario's default run takes at the default speed, ms.
pub const TARGET_RUN_MS: u64 = 75_000;
/// Slowest pace at the default speed, events per second (short runs stay readable).
pub const MIN_EVENTS_PER_S: f64 = 0.8;
/// Speed steps the learner chooses from, as multiples of the scenario's pace.
pub const MULTIPLIERS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
/// The multiplier a run starts with (index into [`MULTIPLIERS`]).
pub const DEFAULT_MULTIPLIER: usize = 2;

/// The scenario's pace at the default speed for a run of `events` events, events per second.
pub fn base_rate(events: u64) -> f64 {
    (events as f64 * 1_000.0 / TARGET_RUN_MS as f64).max(MIN_EVENTS_PER_S)
}

/// One beat (the screen time of one event) at multiplier index `speed`, ms (at least one frame).
pub fn beat_ms(events: u64, speed: usize) -> u32 {
    let m = MULTIPLIERS[speed.min(MULTIPLIERS.len() - 1)];
    let ms = 1_000.0 / (base_rate(events) * m);
    // Bounded to 1 ms .. 10 s by the constants above, so the cast cannot truncate.
    ms.clamp(1.0, 10_000.0).round() as u32
}

/// How long the whole run of `events` events plays at multiplier index `speed`, ms.
pub fn run_ms(events: u64, speed: usize) -> u64 {
    events * u64::from(beat_ms(events, speed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_runs_take_between_60_and_90_seconds() {
        for events in [54, 91, 145, 203, 1_220, 2_013] {
            let ms = run_ms(events, DEFAULT_MULTIPLIER);
            assert!((60_000..=90_000).contains(&ms), "{events} events: {ms} ms");
        }
    }

    #[test]
    fn faster_halves_the_beat() {
        assert_eq!(beat_ms(150, DEFAULT_MULTIPLIER), 500);
        assert_eq!(beat_ms(150, DEFAULT_MULTIPLIER + 1), 250);
    }
}

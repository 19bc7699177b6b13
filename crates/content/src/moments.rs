//! The simulator's moment texts (`assets/sim/moments.toml`): one plain-language explanation per
//! way a moment can come about, plus the broker-specific terms they use. Same format and checks
//! as the captions, and every key the story layer uses must be there.

use super::Problem;
use super::captions::{self, Captions};

/// Where the moment texts live, relative to the content root.
pub const MOMENTS_PATH: &str = "assets/sim/moments.toml";

/// Every key the story layer (`sim::moments`) uses; each must exist in every language.
pub const MOMENT_KEYS: &[&str] = &[
    "moment.duplicate-effect.connection-naive",
    "moment.duplicate-effect.connection-trap",
    "moment.duplicate-effect.race",
    "moment.duplicate-effect.swept",
    "moment.duplicate-effect.trap-stays",
    "moment.duplicate-effect.charge",
    "moment.duplicate-effect.other",
    "moment.prevented-duplicate.unique",
    "moment.prevented-duplicate.check",
    "moment.prevented-duplicate.marker-only",
    "moment.prevented-duplicate.key",
    "moment.prevented-duplicate.broker",
    "moment.lost-order.direct",
    "moment.lost-order.settled-early",
    "moment.lost-order.failed-after-settle",
    "moment.lost-order.gave-up",
    "moment.lost-order.no-message",
    "moment.lost-order.replay-dropped",
    "moment.lost-order.other",
    "moment.dead-lettered",
    "moment.dead-lettered-redrive",
    "moment.lock-lost",
    "moment.lock-lost.check",
    "moment.lock-lost.untimed",
    "moment.lock-lost.check-untimed",
    "moment.lock-lost.call",
    "moment.lock-lost.call-untimed",
    "moment.out-of-order",
    "moment.redelivered.lock",
    "moment.redelivered.retry",
    "moment.redelivered.copy",
    "moment.redelivered.sent-twice",
    "moment.outbox-waiting",
    "moment.replayed",
    "moment.replayed.new-id",
    "term.lock.asb",
    "term.lock.sqs",
    "term.settle.asb",
    "term.settle.sqs",
    "term.dedup.asb",
    "term.dedup.sqs",
    "kind.duplicate-effect",
    "kind.prevented-duplicate",
    "kind.lost-order",
    "kind.dead-lettered",
    "kind.lock-lost",
    "kind.redelivered",
    "kind.outbox-waiting",
    "kind.replayed",
    "kind.out-of-order",
];

/// Parses and checks the moments file: the caption checks plus the required keys.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Option<Captions> {
    let texts = captions::parse(path, text, problems)?;
    let before = problems.len();
    for key in MOMENT_KEYS {
        if texts.get(super::Lang::En, key).is_none() {
            problems.push(Problem::file(
                path,
                format!(
                    "{key:?} is missing (the simulator's story layer needs it in [de] and [en])"
                ),
            ));
        }
    }
    (problems.len() == before).then_some(texts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_key_is_named() {
        let mut p = Vec::new();
        let t = parse(
            "m.toml",
            "format_version = 1\n[de]\n\"a\" = \"x\"\n[en]\n\"a\" = \"y\"\n",
            &mut p,
        );
        assert!(t.is_none());
        assert!(
            p.iter().any(|m| m.to_string().contains("moment.lock-lost")),
            "{p:?}"
        );
    }
}

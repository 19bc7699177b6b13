//! The story layer: **moments** a learner must see, derived from the event stream and the
//! engine's [`Fact`]s — a duplicate effect, a prevented duplicate, a lost order, a dead-lettered
//! message, a lost lock, a redelivery, an outbox that waits, a DLQ replay. Each moment names the
//! order and message, the event where it became visible, the earlier event that caused it, and
//! a plain-language explanation (texts in `assets/sim/moments.toml`, both languages).
//!
//! The kinds, the moment and its texts live in `queuelab-model`, where the screens read them
//! without the engine; the story that finds moments lives here.

mod explain;
mod fact;
mod order_book;
mod order_state;
mod story;

pub use fact::{Fact, Guard, Loss};
pub use model::moments::*;
pub use story::Story;

#[cfg(test)]
mod tests {
    use content::Lang;

    use super::builtin;

    #[test]
    fn every_key_the_story_uses_has_a_text() {
        let texts = builtin();
        for key in content::MOMENT_KEYS {
            for lang in [Lang::De, Lang::En] {
                assert!(texts.get(lang, key).is_some(), "{lang:?} {key}");
            }
        }
        let source = [
            include_str!("moments/explain.rs"),
            include_str!("moments/story.rs"),
        ]
        .concat();
        let mut used = 0;
        for part in source.split('"').skip(1).step_by(2) {
            if part.starts_with("moment.") || part.starts_with("term.") {
                used += 1;
                assert!(
                    content::MOMENT_KEYS.contains(&part),
                    "{part} not in MOMENT_KEYS"
                );
            }
        }
        assert!(used > 15, "found only {used} keys");
    }
}

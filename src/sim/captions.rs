//! Caption texts for the simulator's events, in every language (`assets/sim/captions.toml`,
//! parsed and checked by [`crate::content`]; `queuelab check` validates it).

use crate::content::{self, CAPTIONS_PATH};

pub use crate::content::Captions;

/// The embedded captions file.
pub const CAPTIONS_TOML: &str = include_str!("../../assets/sim/captions.toml");

/// The embedded captions (empty when the file is broken, which `check` and the tests catch).
pub fn builtin() -> Captions {
    let mut problems = Vec::new();
    content::captions_parse(CAPTIONS_PATH, CAPTIONS_TOML, &mut problems).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Lang;

    /// Every caption key written in the engine's source exists in de and en (the content check
    /// already guarantees that both languages define the same keys).
    #[test]
    fn every_used_caption_exists_in_both_languages() {
        let mut problems = Vec::new();
        let c = content::captions_parse(CAPTIONS_PATH, CAPTIONS_TOML, &mut problems)
            .expect("captions parse");
        assert!(problems.is_empty(), "{problems:?}");
        let en: Vec<&str> = c.keys(Lang::En).collect();
        assert_eq!(c.keys(Lang::De).collect::<Vec<_>>(), en);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim/engine");
        let mut used = 0;
        for entry in std::fs::read_dir(dir).expect("engine dir") {
            let text = std::fs::read_to_string(entry.expect("entry").path()).expect("source");
            for part in text.split('"').skip(1).step_by(2) {
                if part.starts_with("sim.") && !part.contains(' ') {
                    used += 1;
                    assert!(
                        en.contains(&part),
                        "caption {part} missing in captions.toml"
                    );
                }
            }
        }
        assert!(used > 40, "found only {used} caption keys in the source");
    }

    #[test]
    fn render_fills_arguments() {
        let c = builtin();
        let s = c.render(Lang::En, "sim.broker-down", &["5000".into()]);
        assert_eq!(s, "The broker is unreachable for 5000 ms.");
        assert!(
            c.render(Lang::De, "sim.broker-down", &["1".into()])
                .contains("nicht erreichbar")
        );
    }
}

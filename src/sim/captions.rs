//! Caption texts for the simulator's events, in every language (`assets/sim/captions.toml`).

use std::collections::BTreeMap;

/// The embedded captions file.
pub const CAPTIONS_TOML: &str = include_str!("../../assets/sim/captions.toml");

/// Caption texts by language, then by key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captions {
    langs: BTreeMap<String, BTreeMap<String, String>>,
}

impl Captions {
    /// Parses a captions file (`[LANG]` tables of key = text, plus `format_version`).
    pub fn parse(text: &str) -> Result<Captions, String> {
        let value: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut langs = BTreeMap::new();
        for (k, v) in value {
            if k == "format_version" {
                continue;
            }
            let table = v
                .as_table()
                .ok_or_else(|| format!("[{k}] must be a table of captions"))?;
            let mut map = BTreeMap::new();
            for (key, text) in table {
                let text = text
                    .as_str()
                    .ok_or_else(|| format!("[{k}] {key} must be a string"))?;
                map.insert(key.clone(), text.to_string());
            }
            langs.insert(k, map);
        }
        Ok(Captions { langs })
    }

    /// The embedded captions.
    pub fn builtin() -> Captions {
        Captions::parse(CAPTIONS_TOML).unwrap_or(Captions {
            langs: BTreeMap::new(),
        })
    }

    /// Keys defined for `lang`.
    pub fn keys(&self, lang: &str) -> impl Iterator<Item = &str> {
        self.langs
            .get(lang)
            .into_iter()
            .flat_map(|m| m.keys().map(String::as_str))
    }

    /// Languages present.
    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.langs.keys().map(String::as_str)
    }

    /// The caption `key` in `lang` (English fallback, then the key itself) with `{n}` replaced.
    pub fn render(&self, lang: &str, key: &str, args: &[String]) -> String {
        let text = self
            .langs
            .get(lang)
            .and_then(|m| m.get(key))
            .or_else(|| self.langs.get("en").and_then(|m| m.get(key)))
            .map_or(key, String::as_str);
        let mut out = text.to_string();
        for (i, a) in args.iter().enumerate() {
            out = out.replace(&format!("{{{i}}}"), a);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every caption key written in the engine's source exists in de and en, and both
    /// languages define the same keys.
    #[test]
    fn every_used_caption_exists_in_both_languages() {
        let c = Captions::parse(CAPTIONS_TOML).expect("captions parse");
        let de: Vec<&str> = c.keys("de").collect();
        let en: Vec<&str> = c.keys("en").collect();
        assert_eq!(de, en, "de and en define different keys");
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
        let c = Captions::builtin();
        let s = c.render("en", "sim.broker-down", &["5000".into()]);
        assert_eq!(s, "The broker is unreachable for 5000 ms.");
        assert!(
            c.render("de", "sim.broker-down", &["1".into()])
                .contains("nicht erreichbar")
        );
    }
}

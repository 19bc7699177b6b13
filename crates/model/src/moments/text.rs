//! The moments' texts (`assets/sim/moments.toml`, parsed and checked by [`content`]) and
//! how their arguments are shown: times for people, terms in the reader's language.

use super::{Arg, Moment};
use crate::Event;
use content::{self, Captions, ContentSource, Lang, MOMENTS_PATH};

/// The embedded moment texts, read from the one embedded content copy (empty when the file is
/// broken, which `check` and the tests catch). Callers holding loaded content use its
/// `moments` instead, which honours `--content DIR`.
pub fn builtin() -> Captions {
    let mut problems = Vec::new();
    ContentSource::Embedded
        .read(MOMENTS_PATH)
        .ok()
        .flatten()
        .and_then(|text| content::moments_parse(MOMENTS_PATH, &text, &mut problems))
        .unwrap_or_default()
}

const SECOND: u64 = 1_000;
const MINUTE: u64 = 60 * SECOND;
const HOUR: u64 = 60 * MINUTE;
const DAY: u64 = 24 * HOUR;

/// A duration or virtual time for people: `850 ms`, `2.1 s`, `3 min`, `7 days` (German with a
/// decimal comma and German units).
pub fn human_ms(lang: Lang, ms: u64) -> String {
    let (value, unit) = match ms {
        ms if ms < SECOND => return format!("{ms} ms"),
        ms if ms < MINUTE => (tenths(ms, SECOND), "s"),
        ms if ms < HOUR => (tenths(ms, MINUTE), "min"),
        ms if ms < DAY => (tenths(ms, HOUR), "h"),
        ms => {
            let t = tenths(ms, DAY);
            let one = t == "1";
            let unit = match (lang, one) {
                (Lang::De, true) => "Tag",
                (Lang::De, false) => "Tage",
                (Lang::En, true) => "day",
                (Lang::En, false) => "days",
            };
            (t, unit)
        }
    };
    let value = if lang == Lang::De {
        value.replace('.', ",")
    } else {
        value
    };
    format!("{value} {unit}")
}

/// `ms / unit` with at most one decimal, without a trailing `.0`.
fn tenths(ms: u64, unit: u64) -> String {
    let t = (ms * 10 + unit / 2) / unit;
    if t.is_multiple_of(10) {
        (t / 10).to_string()
    } else {
        format!("{}.{}", t / 10, t % 10)
    }
}

/// `text` with every "N ms" of a second or more written for people ("60000 ms" -> "1 min",
/// "604800000 ms" -> "7 days"); shorter ones stay exact.
pub fn humanize_ms(lang: Lang, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find(" ms") {
        let (head, tail) = rest.split_at(pos);
        let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let number = &head[head.len() - digits..];
        let after = &tail[3..];
        let word_ends = after.chars().next().is_none_or(|c| !c.is_alphanumeric());
        match number.parse::<u64>() {
            Ok(ms) if digits > 0 && ms >= SECOND && word_ends => {
                out.push_str(&head[..head.len() - digits]);
                out.push_str(&human_ms(lang, ms));
            }
            _ => {
                out.push_str(head);
                out.push_str(" ms");
            }
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// An event's caption in `lang` with its durations for people ("1.6 s", "10 min", not
/// "600000 ms") and the engine's own words in `lang` too: the one way the screens, the notices
/// and `sim --transcript` fill a caption.
pub fn caption(captions: &Captions, lang: Lang, event: &Event) -> String {
    let args: Vec<String> = event
        .args
        .iter()
        .map(|a| crate::engine_words::say(captions, lang, a))
        .collect();
    humanize_ms(lang, &captions.render(lang, event.caption, &args))
}

/// The moment's explanation in `lang`.
pub fn render(texts: &Captions, lang: Lang, moment: &Moment) -> String {
    let args: Vec<String> = moment
        .args
        .iter()
        .map(|a| match a {
            Arg::Text(t) => t.clone(),
            Arg::Ms(ms) => human_ms(lang, *ms),
            Arg::Term(key) => texts.get(lang, key).unwrap_or(key).to_owned(),
        })
        .collect();
    texts.render(lang, moment.text, &args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_like_people_say_them() {
        assert_eq!(human_ms(Lang::En, 850), "850 ms");
        assert_eq!(human_ms(Lang::En, 2_100), "2.1 s");
        assert_eq!(human_ms(Lang::De, 2_100), "2,1 s");
        assert_eq!(human_ms(Lang::En, 7_000), "7 s");
        assert_eq!(human_ms(Lang::En, 180_000), "3 min");
        assert_eq!(human_ms(Lang::En, 604_800_000), "7 days");
        assert_eq!(human_ms(Lang::De, 86_400_000), "1 Tag");
    }

    #[test]
    fn captions_get_human_durations() {
        assert_eq!(
            humanize_ms(
                Lang::En,
                "locked for 60000 ms; retention 604800000 ms, 3 ms"
            ),
            "locked for 1 min; retention 7 days, 3 ms"
        );
        assert_eq!(humanize_ms(Lang::De, "nach 2500 ms."), "nach 2,5 s.");
        assert_eq!(humanize_ms(Lang::En, "5000 msg"), "5000 msg");
    }
}

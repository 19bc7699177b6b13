//! Durations in the simulator's texts read like the rest of the screen ("10 min", "1,6 s"):
//! every scenario runs to its end headless, in both languages, and no caption, moment or
//! screen line may show ten seconds or more as raw milliseconds ("600000 ms").

use crate::support::sim_harness as harness;

use harness::{open, sim};
use queuelab::app::Options;
use queuelab::app::simulator::view;
use queuelab::content::Lang;
use queuelab::sim::moments;
use queuelab::sim::scenario::IDS;

/// The first "N ms" with five or more digits (10 s or more) in `text`, if any.
fn raw_long_ms(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut start = 0;
    while start < chars.len() {
        if !chars[start].is_ascii_digit() {
            start += 1;
            continue;
        }
        let end = (start..chars.len())
            .find(|&i| !chars[i].is_ascii_digit())
            .unwrap_or(chars.len());
        let unit: String = chars[end..].iter().take(3).collect();
        let word_ends = chars.get(end + 3).is_none_or(|c| !c.is_alphanumeric());
        let spaced = unit == " ms" || unit == "\u{a0}ms";
        if end - start >= 5 && spaced && word_ends {
            return Some(chars[start..end + 3].iter().collect());
        }
        start = end;
    }
    None
}

#[test]
fn the_scanner_finds_raw_milliseconds_and_nothing_else() {
    assert_eq!(
        raw_long_ms("inside the 600000 ms window").as_deref(),
        Some("600000 ms")
    );
    assert_eq!(
        raw_long_ms("gesperrt für 30000\u{a0}ms.").as_deref(),
        Some("30000\u{a0}ms")
    );
    assert_eq!(raw_long_ms("in 1600 ms, 10 min, 7 Tage"), None);
    assert_eq!(raw_long_ms("order 12345 msg-000002"), None);
}

#[test]
fn no_caption_moment_or_screen_shows_ten_seconds_or_more_in_raw_ms() {
    let mut checked = 0;
    for (n, id) in IDS.iter().enumerate() {
        // Each run is read in both languages; the screen alternates so both are drawn.
        let screen_lang = if n % 2 == 0 { Lang::De } else { Lang::En };
        let options = Options {
            reduced_motion: true,
            ..Options::default()
        };
        let mut h = open(screen_lang, 100, 30, id, options);
        h.keys("$");
        let s = sim(&h);
        assert!(s.timeline.finished, "{id} runs to its end");
        let content = &h.app.session.content;
        for lang in [Lang::De, Lang::En] {
            for e in &s.timeline.log {
                let text = moments::caption(&content.captions, lang, e);
                assert_eq!(
                    raw_long_ms(&text),
                    None,
                    "{lang:?} {id} #{}: {text}",
                    e.index
                );
                checked += 1;
            }
            for m in &s.story.moments {
                let text = moments::render(&content.moments, lang, m);
                assert_eq!(raw_long_ms(&text), None, "{lang:?} {id} moment: {text}");
            }
        }
        let last = s.timeline.log.back().expect("an event");
        let shown = view::caption(&h.app.session, last);
        assert_eq!(
            shown,
            moments::caption(&content.captions, screen_lang, last)
        );
        let screen = h.screen();
        assert_eq!(
            raw_long_ms(&screen),
            None,
            "{screen_lang:?} {id}:\n{screen}"
        );
    }
    assert!(checked > 100, "only {checked} captions checked");
}

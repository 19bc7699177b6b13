//! Nothing is cut at 80 columns: at 80x24 in German and 100x30 in English the simulator shows the
//! selected event's whole caption (story panel or event log), every moment's whole explanation with
//! its keys, and the selected event's SQL wrapped; where the log cannot hold it all, its first row
//! says where the event's line starts.

use crate::support::sim_harness as harness;

use harness::{Harness, open, sim};
use queuelab::app::Options;
use queuelab::content::Lang;
use queuelab::sim::moments;

const SIZES: [(Lang, u16, u16); 2] = [(Lang::De, 80, 24), (Lang::En, 100, 30)];

/// The screen as one line of words: rows joined, runs of spaces (and no-break spaces) as one.
fn words(text: &str) -> String {
    text.replace('\u{a0}', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn shown_caption(h: &Harness) -> Option<String> {
    let s = sim(h);
    let e = s.shown()?.last_event.as_ref()?;
    Some(format!(
        "#{} {}",
        e.index + 1,
        moments::caption(&h.app.session.content.captions, h.app.session.lang, e)
    ))
}

/// Every event of a `poison-dlq` run (DLQ, replays, the longest captions) from the first to
/// the last: its whole caption is on screen, and at a moment its whole explanation and keys.
#[test]
fn every_caption_and_moment_is_whole_at_80x24_de_and_100x30_en() {
    for (lang, w, hgt) in SIZES {
        let mut h = open(lang, w, hgt, "poison-dlq", Options::default());
        h.keys("$^");
        let total = sim(&h).timeline.total;
        let keys = match lang {
            Lang::De => "[ ] voriger/nächster p Halt: an",
            Lang::En => "[ ] prev/next p stop: on",
        };
        let mut moments_seen = 0;
        for _ in 0..total {
            h.keys(">");
            let screen = words(&h.screen());
            let s = sim(&h);
            let at_moment = s
                .story
                .current(s.shown_index())
                .filter(|m| Some(m.event) == s.shown_index());
            // The selected event's caption: whole in the story panel or the event log, or
            // the log's first row says where its line starts (the tab scrolls).
            if let Some(caption) = shown_caption(&h) {
                let index = s.shown_index().map_or(0, |i| i + 1);
                let above = match lang {
                    Lang::De => format!("↑ #{index} beginnt"),
                    Lang::En => format!("↑ #{index} starts"),
                };
                let body = words(caption.split_once(' ').map_or("", |(_, c)| c));
                assert!(
                    screen.contains(&body) || screen.contains(&above),
                    "{lang} {w}x{hgt}: {caption}\n{}",
                    h.screen()
                );
            }
            if let Some(m) = at_moment {
                moments_seen += 1;
                let body = words(&moments::render(&h.app.session.content.moments, lang, m));
                assert!(screen.contains(&body), "{lang} {w}x{hgt}: {body}\n{screen}");
                assert!(screen.contains(keys), "{lang} {w}x{hgt}: {keys}\n{screen}");
            }
        }
        assert!(moments_seen > 3, "{lang}: {moments_seen} moments");
    }
}

/// `s` shows the selected event's SQL wrapped between words: every statement whole, or a
/// first row that says its event line is further up (the tab scrolls).
#[test]
fn the_selected_events_sql_wraps_and_says_where_its_event_is() {
    for (lang, w, hgt) in SIZES {
        let mut h = open(lang, w, hgt, "poison-dlq", Options::default());
        h.keys("$^");
        let total = sim(&h).timeline.total;
        h.keys("s");
        let mut hinted = 0;
        for _ in 0..total {
            h.keys(">");
            let raw = h.screen();
            let screen = words(&raw);
            let s = sim(&h);
            let Some(e) = s.shown().and_then(|snap| snap.last_event.clone()) else {
                continue;
            };
            for line in raw.lines() {
                assert!(line.chars().count() <= usize::from(w), "{lang}: {line}");
            }
            let above = match lang {
                Lang::De => format!("↑ #{} beginnt", e.index + 1),
                Lang::En => format!("↑ #{} starts", e.index + 1),
            };
            if screen.contains(&above) {
                hinted += 1;
                continue;
            }
            for sql in e.sql {
                assert!(
                    screen.contains(&words(sql)),
                    "{lang} {w}x{hgt} #{}: {sql}\n{raw}",
                    e.index + 1
                );
            }
        }
        if lang == Lang::De {
            assert!(
                hinted > 0,
                "some event's SQL is taller than the tab at 80x24"
            );
        }
    }
}

/// Captures for the snapshot review: a long moment and a long caption, and SQL with its hint.
#[test]
fn snapshots_of_long_captions_and_sql() {
    for (lang, w, hgt) in SIZES {
        let mut h = open(lang, w, hgt, "poison-dlq", Options::default());
        h.keys("$^]");
        insta::assert_snapshot!(format!("sim_edges_moment_{lang}_{w}x{hgt}"), h.screen());
        h.keys("$");
        insta::assert_snapshot!(format!("sim_edges_end_{lang}_{w}x{hgt}"), h.screen());
        h.keys("^]>s");
        insta::assert_snapshot!(format!("sim_edges_sql_{lang}_{w}x{hgt}"), h.screen());
    }
}

/// Stepped back, the screen shows an earlier event than the run's files hold: the files line
/// says which event they hold. At the head it names the folder alone.
#[test]
fn the_files_line_says_which_event_the_files_hold_after_stepping_back() {
    for (lang, w, hgt, said) in [(Lang::De, 80, 24, "Stand"), (Lang::En, 100, 30, "as of")] {
        let mut h = open(lang, w, hgt, "happy-path", Options::default());
        h.keys("G");
        let total = sim(&h).timeline.total;
        assert!(
            !h.screen().contains(said),
            "{lang}: at the head\n{}",
            h.screen()
        );
        h.keys("<<");
        let screen = words(&h.screen());
        assert!(
            screen.contains(&format!("{said} #{total}")),
            "{lang} {w}x{hgt}:\n{}",
            h.screen()
        );
    }
}

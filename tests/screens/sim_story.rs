//! The simulator tells its story: the story panel at a duplicate in `lost-ack` naive and at a
//! prevented duplicate in `twin-consumers` safe, in both languages at 80x24 and 100x30; `--ascii`
//! frames without box-drawing or block characters.

use crate::support::sim_harness as harness;

use harness::{Harness, open, sim};
use queuelab::app::Options;
use queuelab::content::Lang;
use queuelab::sim::MomentKind;

/// Presses `]` (next moment) until the panel explains a moment of `kind`.
fn next_moment_of(h: &mut Harness, kind: MomentKind) {
    for _ in 0..30 {
        h.keys("]");
        let s = sim(h);
        if s.story.current(s.shown_index()).map(|m| m.kind) == Some(kind) {
            return;
        }
    }
    panic!("no {kind:?} moment: {:?}", sim(h).story.moments);
}

fn lost_ack_duplicate(lang: Lang, w: u16, height: u16) -> Harness {
    let mut h = open(lang, w, height, "lost-ack", Options::default());
    h.keys("m");
    next_moment_of(&mut h, MomentKind::DuplicateEffect);
    h
}

fn twin_prevented(lang: Lang, w: u16, height: u16) -> Harness {
    let mut h = open(lang, w, height, "twin-consumers", Options::default());
    // SQS standard hands the second copy to the other consumer at once.
    h.keys("b");
    next_moment_of(&mut h, MomentKind::PreventedDuplicate);
    h
}

#[test]
fn story_panel_at_a_duplicate_in_lost_ack_naive() {
    for (lang, name) in [(Lang::En, "en"), (Lang::De, "de")] {
        for (w, height) in [(80, 24), (100, 30)] {
            let h = lost_ack_duplicate(lang, w, height);
            let screen = h.screen();
            let words = match lang {
                Lang::En => "got its effect twice",
                Lang::De => "hat seine Wirkung zweimal",
            };
            assert!(screen.contains(words), "{screen}");
            insta::assert_snapshot!(format!("story_lost_ack_dup_{name}_{w}x{height}"), screen);
        }
    }
}

#[test]
fn story_panel_at_a_prevented_duplicate_in_twin_consumers_safe() {
    for (lang, name) in [(Lang::En, "en"), (Lang::De, "de")] {
        for (w, height) in [(80, 24), (100, 30)] {
            let h = twin_prevented(lang, w, height);
            let screen = h.screen();
            let words = match lang {
                Lang::En => "is safe",
                Lang::De => "bleibt sicher",
            };
            assert!(screen.contains(words), "{screen}");
            insta::assert_snapshot!(format!("story_twin_prevented_{name}_{w}x{height}"), screen);
        }
    }
}

#[test]
fn why_shows_the_cause_and_comes_back() {
    let mut h = lost_ack_duplicate(Lang::En, 100, 30);
    let (event, cause) = {
        let s = sim(&h);
        let m = s.story.current(s.shown_index()).expect("a moment");
        (m.event, m.cause_event)
    };
    h.keys("w");
    assert_eq!(
        sim(&h).shown_index(),
        Some(cause),
        "the cursor is at the cause"
    );
    let screen = h.screen();
    assert!(
        screen.contains("connection lost"),
        "the consumer's state at the cause: {screen}"
    );
    assert!(screen.contains("w back to"), "{screen}");
    h.keys("w");
    assert_eq!(
        sim(&h).shown_index(),
        Some(event),
        "back where the jump started"
    );
}

/// Every character in U+2500..=U+259F (box drawing, block elements).
fn drawing_chars(screen: &str) -> Vec<char> {
    screen
        .chars()
        .filter(|c| ('\u{2500}'..='\u{259F}').contains(c))
        .collect()
}

#[test]
fn ascii_frames_draw_no_box_or_block_characters() {
    let options = Options {
        ascii: true,
        ..Options::default()
    };
    let mut h = open(Lang::De, 80, 24, "poison-dlq", options);
    let mut screens = vec![h.screen()];
    h.keys("]");
    screens.push(h.screen());
    for _ in 0..4 {
        h.keys("\t");
        screens.push(h.screen());
    }
    h.keys("?");
    screens.push(h.screen());
    h.keys("\x1b");
    h.keys("i");
    screens.push(h.screen());
    h.keys("\x1b");
    h.keys("v");
    screens.push(h.screen());
    for screen in &screens {
        let bad = drawing_chars(screen);
        assert!(bad.is_empty(), "{bad:?} in\n{screen}");
    }
    // The same screens without --ascii do use frames: the test can fail.
    let h = open(Lang::De, 80, 24, "poison-dlq", Options::default());
    assert!(!drawing_chars(&h.screen()).is_empty());
}

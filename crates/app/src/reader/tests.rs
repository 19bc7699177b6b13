//! When a chapter counts as read: scrolled to its end by the learner and open long enough.

use crate::input::KeyCode;
use crate::test_app::{chars, key, test_app};
use crate::{App, Effect, Msg, Screen, StoreRequest};
use content::Lang;
use domain::Fact;

fn app(lang: Lang) -> App {
    test_app(lang, 80, 24)
}

fn saved(effects: &[Effect]) -> Vec<&Fact> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Store(StoreRequest::Save(f)) => Some(f),
            _ => None,
        })
        .collect()
}

#[test]
fn a_chapter_is_read_after_scrolling_to_its_end_and_enough_time() {
    let mut app = app(Lang::De);
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        app.tick_interval_ms(),
        Some(crate::READING_TICK_MS),
        "the reading clock runs"
    );
    // Time alone does not read a chapter.
    let effects = app.update(Msg::Tick { elapsed_ms: 1_000 });
    assert!(saved(&effects).is_empty());
    // Scrolling to the end too early does not either.
    assert!(saved(&key(&mut app, KeyCode::End)).is_empty());
    let Screen::Reader(state) = &app.screen else {
        panic!("reader expected")
    };
    let words: usize = crate::reader_lines(&app, state)
        .iter()
        .map(|l| l.text().split_whitespace().count())
        .sum();
    let needed = super::min_reading_ms(words);
    assert!(
        needed > 20_000,
        "a fifth of 200 wpm for {words} words: {needed} ms"
    );
    let mut effects = Vec::new();
    for _ in 0..needed / 1_000 {
        effects.extend(app.update(Msg::Tick { elapsed_ms: 1_000 }));
    }
    assert_eq!(
        saved(&effects),
        vec![&Fact::ChapterRead("friday-incident".into())]
    );
    assert!(
        saved(&key(&mut app, KeyCode::End)).is_empty(),
        "no second save"
    );
    assert!(
        app.session
            .progress
            .chapters_read
            .contains("friday-incident")
    );
    assert_eq!(app.tick_interval_ms(), None, "the clock stops once read");
}

#[test]
fn jumps_do_not_read_a_chapter() {
    let mut app = app(Lang::En);
    key(&mut app, KeyCode::Enter);
    // Plenty of time, but the end only came on screen by a search hit.
    for _ in 0..600 {
        app.update(Msg::Tick { elapsed_ms: 1_000 });
    }
    let mut effects = chars(&mut app, "/");
    effects.extend(chars(&mut app, "sources"));
    effects.extend(key(&mut app, KeyCode::Enter));
    effects.extend(chars(&mut app, "n"));
    assert!(
        !saved(&effects)
            .iter()
            .any(|f| matches!(f, Fact::ChapterRead(_))),
        "{effects:?}"
    );
}

#[test]
fn the_reading_progress_shows_both_conditions_as_they_come() {
    let mut app = app(Lang::De);
    key(&mut app, KeyCode::Enter);
    let progress = |app: &App| {
        let Screen::Reader(state) = &app.screen else {
            panic!("reader expected")
        };
        crate::reading_progress(app, state)
    };
    let start = progress(&app);
    assert!(!start.read && !start.end_seen && start.spent_ms == 0);
    assert!(start.needed_ms > 0);
    key(&mut app, KeyCode::End);
    app.update(Msg::Tick { elapsed_ms: 1_000 });
    let midway = progress(&app);
    assert!(midway.end_seen && !midway.read);
    assert_eq!(midway.spent_ms, 1_000);
    // The moment the time is there too, the chapter counts (no second visit needed).
    app.update(Msg::Tick {
        elapsed_ms: u32::try_from(start.needed_ms).expect("a few minutes at most"),
    });
    assert!(progress(&app).read);
    assert!(
        app.session
            .progress
            .chapters_read
            .contains("friday-incident")
    );
}

#[test]
fn s_opens_the_scenario_the_chapter_names() {
    // Chapter 1 has no decision and says "Szenario `lost-ack`".
    let mut app = app(Lang::De);
    key(&mut app, KeyCode::Enter);
    let effects = chars(&mut app, "s");
    let started = effects.iter().find_map(|e| match e {
        Effect::Sim(crate::simulator::SimCommand::Start { spec, .. }) => {
            Some(spec.scenario.clone())
        }
        _ => None,
    });
    assert_eq!(started.as_deref(), Some("lost-ack"), "{effects:?}");
    assert!(matches!(app.screen, Screen::Simulator(_)));
}

#[test]
fn a_chapter_with_an_unanswered_card_is_not_read_until_the_card_is() {
    let mut app = app(Lang::En);
    chars(&mut app, "2");
    chars(&mut app, "3");
    key(&mut app, KeyCode::Enter);
    let read = |effects: &[Effect]| {
        saved(effects)
            .iter()
            .any(|f| matches!(f, Fact::ChapterRead(id) if id == "flow-map"))
    };
    // The chapter stops below the card: its last line on screen is not the chapter's end.
    let mut effects = key(&mut app, KeyCode::End);
    for _ in 0..600 {
        effects.extend(app.update(Msg::Tick { elapsed_ms: 1_000 }));
    }
    assert!(!read(&effects), "{effects:?}");
    // Answered, the rest of the chapter appears and has to be read to its end.
    let mut effects = chars(&mut app, "2");
    assert!(app.session.progress.decisions.contains_key("broker-down"));
    effects.extend(app.update(Msg::Tick { elapsed_ms: 1_000 }));
    assert!(!read(&effects), "{effects:?}");
    effects.extend(key(&mut app, KeyCode::End));
    effects.extend(app.update(Msg::Tick { elapsed_ms: 1_000 }));
    assert!(read(&effects), "{effects:?}");
}

/// Leaving a chapter with `n` before its reading time is up tells the learner it does not
/// count as read yet, and the progress knows it was begun (the list shows "started").
#[test]
fn leaving_early_with_n_warns_and_the_chapter_counts_as_begun() {
    let mut app = app(Lang::De);
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::End);
    app.update(Msg::Tick { elapsed_ms: 3_000 });
    app.update(Msg::Key(crate::input::Key::char('n')));
    let status = app.session.status.clone().expect("a notice");
    assert!(
        status.text.contains("noch nicht als gelesen") && status.text.contains("Lesezeit 3 von"),
        "{}",
        status.text
    );
    assert!(
        !app.session
            .progress
            .chapters_read
            .contains("friday-incident")
    );
    assert!(
        app.session
            .progress
            .positions
            .contains_key("friday-incident"),
        "begun"
    );
}

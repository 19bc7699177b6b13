//! Scrolling the tabs like the reader: down shows what comes later, a page is the tab's
//! height, a key past the end is never swallowed; the tables keep their title and column
//! header in view.

use super::*;
use crate::input::{Key, KeyCode};
use crate::test_app::test_app;
use crate::{App, Msg};
use content::Lang;
use model::{Actor, Event, EventKind, Outcome, Stage};
use view::{TableLine, table_window};

fn event(index: u64) -> Event {
    Event {
        index,
        at_ms: index * 100,
        actor: Actor::Api,
        stage: Stage::Api,
        message_id: None,
        kind: EventKind::ApiAccepted,
        sql: &[],
        outcome: Outcome::Ok,
        caption: EventKind::ApiAccepted.caption_key(),
        args: Vec::new(),
    }
}

fn with_log(events: u64) -> App {
    let mut app = test_app(Lang::En, 80, 24);
    app.update(Msg::Key(Key::char('5')));
    let Screen::Simulator(s) = &mut app.screen else {
        panic!("not the simulator")
    };
    s.timeline.log.extend((0..events).map(event));
    s.timeline.total = events;
    app
}

fn scroll_of(app: &App) -> u16 {
    match &app.screen {
        Screen::Simulator(s) => s.scroll,
        _ => panic!("not the simulator"),
    }
}

fn press(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(Key::plain(code)));
}

#[test]
fn in_the_event_log_down_is_later_and_up_is_earlier() {
    let mut app = with_log(40);
    assert_eq!(scroll_of(&app), 0, "the newest event at the bottom");
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    assert_eq!(scroll_of(&app), 2, "up goes back in time");
    press(&mut app, KeyCode::Down);
    assert_eq!(scroll_of(&app), 1, "down comes forward");
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(scroll_of(&app), 0, "never past the newest");
    press(&mut app, KeyCode::PageUp);
    let page = layout::simulator(80, 24).content.height - 1;
    assert_eq!(scroll_of(&app), page, "a page is the tab's height");
    for _ in 0..20 {
        press(&mut app, KeyCode::PageUp);
    }
    assert_eq!(scroll_of(&app), 39, "stops at the oldest event");
    press(&mut app, KeyCode::Down);
    assert_eq!(scroll_of(&app), 38, "the first key back answers at once");
}

#[test]
fn the_metrics_tab_scrolls_down_to_later_rows_and_stops_at_the_last() {
    let mut app = with_log(3);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    for _ in 0..30 {
        press(&mut app, KeyCode::Down);
    }
    assert_eq!(usize::from(scroll_of(&app)), view::SIGNALS.len() - 1);
    press(&mut app, KeyCode::Up);
    assert_eq!(usize::from(scroll_of(&app)), view::SIGNALS.len() - 2);
}

#[test]
fn tables_keep_their_title_and_header_in_view() {
    let lines = vec![
        TableLine::Title("service.db · orders".into()),
        TableLine::Header(vec!["id", "amount"]),
        TableLine::Row(vec!["1".into(), "10".into()]),
        TableLine::Row(vec!["2".into(), "20".into()]),
        TableLine::Title("service.db · outbox".into()),
        TableLine::Header(vec!["id"]),
        TableLine::Row(vec!["7".into()]),
    ];
    let (pinned, body) = table_window(&lines, 0);
    assert!(pinned.is_empty(), "at the top nothing needs pinning");
    assert_eq!(body.len(), lines.len());
    let (pinned, body) = table_window(&lines, 3);
    assert_eq!(
        pinned,
        vec![&lines[0], &lines[1]],
        "orders' title and header"
    );
    assert_eq!(body.first(), Some(&lines[3]));
    let (pinned, _) = table_window(&lines, 1);
    assert_eq!(
        pinned,
        vec![&lines[0]],
        "the header is in view, the title is pinned"
    );
    let (pinned, body) = table_window(&lines, 6);
    assert_eq!(
        pinned,
        vec![&lines[4], &lines[5]],
        "the next table's own header"
    );
    assert_eq!(body, &lines[6..]);
    let (_, body) = table_window(&lines, 99);
    assert_eq!(body, &lines[6..], "scrolling stops at the last line");
    assert_eq!(table_window(&[], 5).1.len(), 0);
}

/// Page after page, every line of the tables is shown: the pinned title and header take two
/// rows of each page, and the page key must not skip the rows they hid.
#[test]
fn page_down_in_the_tables_shows_every_row() {
    let mut lines = vec![
        TableLine::Title("service.db · orders".into()),
        TableLine::Header(vec!["id"]),
    ];
    lines.extend((0..60).map(|i| TableLine::Row(vec![i.to_string()])));
    let height = layout::simulator(80, 24).content.height;
    let page = usize::from(page_rows(Tab::Tables, height));
    let mut seen = vec![false; lines.len()];
    let mut scroll = 0;
    while scroll < lines.len() {
        let (pinned, body) = table_window(&lines, scroll);
        let room = usize::from(height) - pinned.len();
        let start = lines.len() - body.len();
        for i in (start..lines.len()).take(room) {
            seen[i] = true;
        }
        scroll += page;
    }
    let missed: Vec<usize> = (0..lines.len()).filter(|i| !seen[*i]).collect();
    assert!(missed.is_empty(), "rows never shown: {missed:?}");
    assert_eq!(page_rows(Tab::Log, height), height - 1);
}

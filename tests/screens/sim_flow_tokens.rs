//! The flow map a newcomer can read: message tokens on the arrows carry their order number and a
//! redelivery comes back marked; boxes say what their numbers mean or fall back to numbers with a
//! legend; at 60x18 a narrow box shows its short title ("Disp."), never a cut one; the scenario and
//! fault menus use the full width. Snapshots at 80x24 German and 100x30 English (60x18 in both);
//! `--ascii` with `NO_COLOR` keeps it all readable as text.

use crate::support::sim_harness as harness;

use harness::{Harness, open, sim};
use queuelab::app::Options;
use queuelab::content::Lang;
use queuelab::sim::MomentKind;

/// `lost-ack` naive stepped to the event where order 3 is received again.
fn at_redelivery(lang: Lang, w: u16, height: u16, options: Options) -> Harness {
    let mut h = open(lang, w, height, "lost-ack", options);
    h.keys("m");
    for _ in 0..40 {
        h.keys("]");
        let s = sim(&h);
        if s.story.current(s.shown_index()).map(|m| m.kind) == Some(MomentKind::Redelivered) {
            // The consumer receives it again: the token travels.
            return h;
        }
    }
    panic!("no redelivery: {:?}", sim(&h).story.moments);
}

/// The rows of the flow map (below the header and the info line).
fn map_rows(screen: &str) -> String {
    screen
        .lines()
        .skip(2)
        .take(8)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_redelivered_token_comes_back_as_the_same_order() {
    for (lang, w, height, name) in [
        (Lang::De, 80, 24, "tokens_lost_ack_redelivery_de_80x24"),
        (Lang::En, 100, 30, "tokens_lost_ack_redelivery_en_100x30"),
    ] {
        let h = at_redelivery(lang, w, height, Options::default());
        let moves = &sim(&h).timeline.moves;
        assert!(
            moves
                .iter()
                .any(|m| m.again && m.message_id.ends_with("03")),
            "{moves:?}"
        );
        let screen = h.screen();
        assert!(
            map_rows(&screen).contains("↺3"),
            "the same order, marked as coming back:\n{screen}"
        );
        insta::assert_snapshot!(name, screen);
    }
}

#[test]
fn ascii_and_no_color_tokens_and_legend_read_as_text() {
    let options = Options {
        ascii: true,
        no_color: true,
        ..Options::default()
    };
    let h = at_redelivery(Lang::De, 80, 24, options);
    let screen = h.screen();
    let map = map_rows(&screen);
    assert!(
        map.contains("*3"),
        "the redelivery mark in ASCII:\n{screen}"
    );
    assert!(
        map.contains("*3 ="),
        "the legend says what the mark means:\n{screen}"
    );
    let drawing: Vec<char> = screen
        .chars()
        .filter(|c| ('\u{2500}'..='\u{259F}').contains(c))
        .collect();
    assert!(drawing.is_empty(), "{drawing:?} in\n{screen}");
    let typographic: Vec<char> = screen
        .chars()
        .filter(|c| matches!(c, '·' | '–' | '—' | '…' | '×' | '→'))
        .collect();
    assert!(typographic.is_empty(), "{typographic:?} in\n{screen}");
}

#[test]
fn narrow_boxes_show_numbers_with_a_legend_and_never_cut_a_word() {
    let h = at_redelivery(Lang::De, 80, 24, Options::default());
    let screen = h.screen();
    let map = map_rows(&screen);
    // "angenommen" does not fit the API box at 80 columns: the number stays, the legend
    // says what it means.
    assert!(map.contains("Zahlen: API: angenommen"), "{screen}");
    // Every word inside a box is a whole word of the box texts.
    let words = [
        "warten",
        "beansprucht",
        "Wirkungen",
        "doppelt",
        "sichtbar",
        "Lock",
        "in",
        "der",
        "DLQ",
        "wartet",
        "empfangen",
        "angewendet",
        "abgeschlossen",
        "Verbindung",
        "weg",
    ];
    for row in map.lines().take(4) {
        for cell in row.split(['│', '┃']).skip(1).step_by(2) {
            for word in cell.split_whitespace() {
                let numeric = word
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '#' | '·' | ',' | 'A' | 'B'));
                assert!(
                    numeric || words.contains(&word),
                    "{word:?} in a box is not a whole word:\n{screen}"
                );
            }
        }
    }
}

#[test]
fn pickers_use_the_full_width() {
    for (lang, w, height, suffix) in [
        (Lang::De, 80, 24, "de_80x24"),
        (Lang::En, 100, 30, "en_100x30"),
    ] {
        let mut h = open(lang, w, height, "lost-ack", Options::default());
        h.keys("c");
        let screen = h.screen();
        let decision = if lang == Lang::De {
            "Entscheidung 3 · Kapitel 9"
        } else {
            "Decision 3 · chapter 9"
        };
        assert!(screen.contains(decision), "{screen}");
        assert!(
            screen.contains("queuelab sim --scenario lost-ack"),
            "{screen}"
        );
        insta::assert_snapshot!(format!("picker_scenarios_{suffix}"), screen);
        h.keys("\x1b");
        h.keys("i");
        insta::assert_snapshot!(format!("picker_faults_{suffix}"), h.screen());
        h.keys("\x1b");
    }
}

#[test]
fn the_fault_menu_says_when_a_fault_cannot_fire_any_more() {
    let mut h = open(Lang::En, 100, 30, "lost-ack", Options::default());
    h.keys("$");
    assert!(sim(&h).timeline.finished);
    h.keys("i");
    let screen = h.screen();
    assert!(
        screen.contains("cannot fire: the run is finished"),
        "{screen}"
    );
    h.keys("\n");
    let status = h.app.session.status.as_ref().expect("a notice");
    assert!(status.text.contains("cannot fire"), "{}", status.text);
}

/// The box titles on the map rows: the text after a top-left corner up to the border.
fn box_titles(map: &str) -> Vec<String> {
    let mut titles = Vec::new();
    for row in map.lines() {
        for (i, _) in row.match_indices(['╭', '┏', '╔']) {
            let rest = &row[i..];
            let title: String = rest
                .chars()
                .skip(1)
                .take_while(|c| !matches!(c, '─' | '━' | '═' | '╮' | '┓' | '╗'))
                .collect();
            titles.push(title);
        }
    }
    titles
}

#[test]
fn at_60x18_box_titles_are_whole_or_short_never_cut() {
    for (lang, name) in [
        (Lang::De, "tokens_lost_ack_redelivery_de_60x18"),
        (Lang::En, "tokens_lost_ack_redelivery_en_60x18"),
    ] {
        let h = at_redelivery(lang, 60, 18, Options::default());
        let screen = h.screen();
        let strings = h.app.session.strings();
        let mut allowed = vec!["ASB".to_owned(), "Service Bus".to_owned()];
        for stage in [
            "api",
            "outbox",
            "dispatcher",
            "retry",
            "dlq",
            "consumers",
            "effect",
        ] {
            for kind in ["title", "short"] {
                let name = format!("flow.{kind}_{stage}");
                allowed.push(strings.lookup(&name).expect(&name).to_owned());
            }
        }
        let titles = box_titles(&map_rows(&screen));
        assert_eq!(titles.len(), 8, "{titles:?}\n{screen}");
        for title in &titles {
            assert!(
                allowed.contains(title),
                "{lang:?}: box title {title:?} is cut:\n{screen}"
            );
        }
        // At 60 columns the run directory is cut before "<runs>" could replace it.
        let screen: String = screen
            .lines()
            .map(|l| match l.split_once(" (sqlite3): ") {
                Some((head, _)) => format!("{head} (sqlite3): <runs>\n"),
                None => format!("{l}\n"),
            })
            .collect();
        insta::assert_snapshot!(name, screen);
    }
}

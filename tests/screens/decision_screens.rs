//! The learner predicts before the course explains: while a decision card is on screen and
//! unanswered, nothing on that screen may give its answer away. Each card is opened in its
//! chapter at 80x24 and at 120x40 in both languages and scrolled line by line; on every screen
//! the text outside the card's own options (the text above it, whatever is drawn below it,
//! widgets included) must hold none of the card's `reveals` words.

use crate::support::screen as support;

use queuelab::content::{Decision, Lang};
use support::{content, press, screen, snapshot_app};

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

/// Lines of chrome on top (title bar and chapter line) and below (key legend).
const HEADER_ROWS: usize = 2;
const FOOTER_ROWS: usize = 1;

/// Columns between the card's left edge and an option's `[n]` (the answer mark) and between
/// the edge and the option text after `[n] `.
const OPTION_KEY_OFFSET: usize = 3;
const OPTION_TEXT_OFFSET: usize = 7;

fn first_column(line: &str) -> Option<usize> {
    line.chars().position(|c| !c.is_whitespace())
}

/// Whether a screen line belongs to one of the card's options: its `[n] ` line, or a
/// continuation indented to the option text.
fn is_option_line(line: &str, card_column: usize) -> bool {
    let Some(column) = first_column(line) else {
        return false;
    };
    let rest: String = line.chars().skip(column).collect();
    let keyed = column == card_column + OPTION_KEY_OFFSET
        && rest.starts_with('[')
        && rest[1..].starts_with(|c: char| c.is_ascii_digit())
        && rest.get(2..4) == Some("] ");
    keyed || column == card_column + OPTION_TEXT_OFFSET
}

/// The reveals words found on `screen` outside the card's options, lowercase; nothing when no
/// option of the card is on screen (then the card has scrolled away, and so has the question).
fn giveaways(screen: &str, reveals: &[String]) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let body = &lines[HEADER_ROWS.min(lines.len())..lines.len().saturating_sub(FOOTER_ROWS)];
    let Some(card_column) = body.iter().filter_map(|l| first_column(l)).min() else {
        return Vec::new();
    };
    if !body.iter().any(|l| is_option_line(l, card_column)) {
        return Vec::new();
    }
    let shown: Vec<&str> = body
        .iter()
        .copied()
        .filter(|l| !is_option_line(l, card_column))
        .collect();
    let text = shown
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    reveals
        .iter()
        .map(|w| w.to_lowercase())
        .filter(|w| text.contains(w.as_str()))
        .collect()
}

/// Every screen of the card's chapter, from its top to as far as it scrolls.
fn screens_of(lang: Lang, size: (u16, u16), decision: &Decision) -> Vec<String> {
    let course = content().course(lang).clone();
    let number = course
        .chapters
        .iter()
        .position(|c| c.id == decision.chapter)
        .expect("the card's chapter")
        + 1;
    let mut app = snapshot_app(lang, size.0, size.1);
    press(&mut app, "2");
    press(&mut app, &format!("{number}\n"));
    let mut out = vec![screen(&app)];
    for _ in 0..2_000 {
        press(&mut app, "j");
        let next = screen(&app);
        if out.last() == Some(&next) {
            break;
        }
        out.push(next);
    }
    out
}

#[test]
fn no_unanswered_card_shares_its_screen_with_its_answer() {
    let mut found = Vec::new();
    for lang in Lang::ALL {
        for decision in &content().course(lang).decisions {
            for size in SIZES {
                let screens = screens_of(lang, size, decision);
                assert!(
                    screens.iter().any(|s| s.contains(&decision.title)),
                    "{lang} {}x{}: the card {:?} never came on screen",
                    size.0,
                    size.1,
                    decision.id
                );
                for (scrolled, s) in screens.iter().enumerate() {
                    let words = giveaways(s, &decision.reveals);
                    if !words.is_empty() {
                        found.push(format!(
                            "{lang} {}x{} {} scrolled {scrolled}: {words:?}\n{s}",
                            size.0, size.1, decision.id
                        ));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The check itself: a card with the flow widget drawn under it is caught, while the same card
/// with the right option naming the answer is not.
#[test]
fn a_widget_under_the_card_is_caught_and_the_options_are_not() {
    let reveals = vec!["outbox".to_owned(), "dispatcher".to_owned()];
    let old = "\
 queuelab                                               Entscheidungen 0/4
 Kapitel 3 von 16 · Die Ablaufkarte
            ── Entscheidung 1 ──────────
            Wie gibt die API einen Auftrag weiter?
               [1] Den Auftrag committen, dann im Request senden und mit Backoff
                   wiederholen, bis der Broker antwortet.
               [2] Den Auftrag zusammen mit einer Outbox-Zeile committen; ein
                   eigener Dispatcher sendet die Zeile später.
            Wähle mit 1-4.

            ── Der Ablauf ──────────
              [API] Command + requestId
              ↓
              [DB + Outbox] ein COMMIT
 ↑↓ blättern  q zurück
";
    assert_eq!(giveaways(old, &reveals), ["outbox"]);
    let card_only = old.split("\n\n").next().expect("the card").to_owned() + "\n\n legend\n";
    assert!(giveaways(&card_only, &reveals).is_empty(), "{card_only}");
}

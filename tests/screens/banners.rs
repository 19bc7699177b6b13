//! Every banner and status line of a joined trainee on the smallest screens, in German (the
//! longer language): the key hint and the numbers come first and stay on screen, and a text
//! too long for the status row takes the row above it instead of being cut.

use crate::support::screen as support;

use queuelab::app::Msg;
use queuelab::app::pace::PaceNotice;
use queuelab::content::{Lang, key};
use queuelab::domain::workshop::{Pace, PaceKind};
use std::collections::BTreeMap;
use support::{content, screen, snapshot_app};

/// The sizes drawn: the smallest the course supports and a narrower one.
const SIZES: [(u16, u16); 2] = [(80, 24), (60, 18)];

/// The last three rows (the status row, the row above it, the legend), joined.
fn bottom(text: &str) -> String {
    let rows: Vec<&str> = text.lines().collect();
    rows[rows.len().saturating_sub(3)..].join("\n")
}

/// Option id -> trainees.
type Counts = BTreeMap<String, u32>;

/// Every pacing command the room can get, the reveal with both rounds' numbers.
fn notices() -> Vec<(PaceKind, Option<Counts>, Option<Counts>)> {
    let c = content();
    let course = c.course(Lang::De);
    let d = &course.decisions[0];
    let counts = |n: [u32; 4]| -> Counts {
        d.options
            .iter()
            .zip(n)
            .map(|(o, n)| (o.id.clone(), n))
            .collect()
    };
    let mut scenarios: Vec<_> = c.scenarios.iter().collect();
    scenarios.sort_by_key(|s| s.position);
    vec![
        (
            PaceKind::OpenChapter {
                chapter: course.chapters[2].id.clone(),
            },
            None,
            None,
        ),
        (
            PaceKind::OpenScenario {
                scenario: scenarios[0].id.clone(),
                mode: "naive".into(),
            },
            None,
            None,
        ),
        (
            PaceKind::SecondVote {
                decision: d.id.clone(),
            },
            None,
            None,
        ),
        (
            PaceKind::RevealDecision {
                decision: d.id.clone(),
            },
            Some(counts([3, 5, 0, 1])),
            None,
        ),
        (
            PaceKind::RevealDecision {
                decision: d.id.clone(),
            },
            Some(counts([3, 5, 0, 1])),
            Some(counts([1, 8, 0, 0])),
        ),
    ]
}

#[test]
fn every_banner_keeps_its_key_hint_and_numbers_at_80x24_and_60x18_in_german() {
    for (width, height) in SIZES {
        for (i, (kind, first, second)) in notices().into_iter().enumerate() {
            let mut app = snapshot_app(Lang::De, width, height);
            app.update(Msg::PaceReceived(PaceNotice {
                pace: Pace {
                    id: 1,
                    at_ms: 0,
                    kind,
                },
                distribution: first.clone(),
                second_distribution: second.clone(),
            }));
            let text = bottom(&screen(&app));
            println!("{width}x{height} banner {i}:\n{text}\n");
            assert!(
                text.contains("F folgen · X ausblenden"),
                "{width}x{height}: {text}"
            );
            if let Some(first) = first {
                let c = content();
                let d = &c.course(Lang::De).decisions[0];
                for (k, o) in d.options.iter().enumerate() {
                    let shown = match &second {
                        Some(second) => {
                            format!("[{}] {}\u{2192}{}", k + 1, first[&o.id], second[&o.id])
                        }
                        None => format!("[{}] {}", k + 1, first[&o.id]),
                    };
                    assert!(text.contains(&shown), "{width}x{height} {shown}: {text}");
                }
            }
        }
    }
}

#[test]
fn every_status_line_keeps_its_key_hint_at_80x24_and_60x18_in_german() {
    let c = content();
    let s = &c.course(Lang::De).strings;
    for (width, height) in SIZES {
        for key in [
            key::join::JOINED,
            key::workshop::STUCK_SENT,
            key::workshop::STUCK_ACKNOWLEDGED,
            key::workshop::SOLVED_SENT,
        ] {
            let mut app = snapshot_app(Lang::De, width, height);
            app.session.notify(s.get(key), false);
            let text = bottom(&screen(&app));
            println!("{width}x{height} {key}:\n{text}\n");
            let words: Vec<&str> = s.get(key).split_whitespace().collect();
            let shown: Vec<&str> = text.split_whitespace().collect();
            // Every word of the line is on screen, in order, over at most two rows.
            let mut at = 0;
            for word in &words {
                let found = shown[at..].iter().position(|w| w == word);
                assert!(
                    found.is_some(),
                    "{width}x{height} {key}: {word:?} missing: {text}"
                );
                at += found.unwrap_or(0) + 1;
            }
        }
    }
}

//! Random key, mouse and resize storms through the whole UI on every screen it reaches, drawn
//! after every message at the size the storm left: no panic, and the reader stays in range.

use super::cases;
use queuelab::app::input::{Key, KeyCode, Mouse, MouseKind};
use queuelab::app::{App, Info, Msg, Options, Screen};
use queuelab::content::{ContentSource, Lang, load};
use queuelab::domain::Progress;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;

fn random_msg(rng: &mut StdRng) -> Msg {
    const CODES: [KeyCode; 14] = [
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Backspace,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Other,
    ];
    const CHARS: &str = "0123456789qjkgGnpbsNl/xyYrRh ?.,-+[]<>asdfzcvm\u{e9}";
    match rng.random_range(0..20) {
        0 => Msg::Resized {
            width: rng.random_range(0..=220),
            height: rng.random_range(0..=70),
        },
        1 => {
            let kind = [MouseKind::Click, MouseKind::ScrollUp, MouseKind::ScrollDown]
                [rng.random_range(0..3)];
            Msg::Mouse(Mouse {
                kind,
                column: rng.random_range(0..230),
                row: rng.random_range(0..80),
            })
        }
        2..=7 => Msg::Key(Key::plain(CODES[rng.random_range(0..CODES.len())])),
        _ => {
            let chars: Vec<char> = CHARS.chars().collect();
            Msg::Key(Key::char(chars[rng.random_range(0..chars.len())]))
        }
    }
}

#[test]
fn key_storms_on_every_screen_at_random_sizes_never_panic() {
    let content = Arc::new(load(&ContentSource::Embedded).expect("valid content"));
    let storms = (cases() / 100).max(10);
    let mut rng = StdRng::seed_from_u64(17);
    let mut screens_seen = std::collections::HashSet::new();
    for storm in 0..storms {
        let lang = if storm % 2 == 0 { Lang::En } else { Lang::De };
        let mut app = App::new(
            content.clone(),
            lang,
            Progress::default(),
            Options::default(),
            Info::default(),
        );
        app.update(Msg::Resized {
            width: 80,
            height: 24,
        });
        for _ in 0..300 {
            let msg = random_msg(&mut rng);
            // Ctrl+C and q-from-Home end the run; keep storming a fresh app instead.
            app.update(msg);
            if app.session.quitting {
                app = App::new(
                    content.clone(),
                    lang,
                    Progress::default(),
                    Options::default(),
                    Info::default(),
                );
                app.update(Msg::Resized {
                    width: rng.random_range(0..=200),
                    height: rng.random_range(0..=60),
                });
            }
            screens_seen.insert(std::mem::discriminant(&app.screen));
            if let Screen::Reader(state) = &app.screen {
                assert!(state.chapter < app.session.course().chapters.len());
            }
            let (w, h) = app.session.size;
            let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
            terminal
                .draw(|frame| queuelab::ui::draw(frame, &app))
                .expect("draws");
        }
    }
    assert!(
        screens_seen.len() >= 4,
        "the storms reached most screens ({})",
        screens_seen.len()
    );
}

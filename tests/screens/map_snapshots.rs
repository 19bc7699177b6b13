//! The map screen as characters: 100x40 with the config's URL, 100x40 without a URL (offers
//! LAN sharing), and a terminal too small for the code ("enlarge" instead of a broken code).

use crate::support::screen as support;

use queuelab::app::input::Key;
use queuelab::app::{App, Info, MapSetup, Msg, Options};
use queuelab::content::Lang;
use ratatui::style::Color;
use support::{new_app, render as buffer, text};

const URL: &str = "https://example.org/lab";

fn map_screen(lang: Lang, url: Option<&str>, width: u16, height: u16) -> App {
    let mut app = new_app(lang, Options::default(), Info::default(), width, height);
    app.session.map = MapSetup::new(url.map(str::to_owned), 8737);
    app.update(Msg::Key(Key::char('3')));
    app
}

#[test]
fn map_with_the_config_url_at_100x40() {
    let app = map_screen(Lang::En, Some(URL), 100, 40);
    let buf = buffer(&app);
    let screen = text(&buf);
    insta::assert_snapshot!("map_en_100x40", screen);
    assert!(screen.contains(URL), "the URL is printed in text");
    assert!(
        screen.contains('▀') || screen.contains('▄'),
        "a half-block code"
    );
    // Every cell of the code is white on black, so it scans in light and dark themes alike.
    let qr_cells: Vec<_> = buf
        .content
        .iter()
        .filter(|c| matches!(c.symbol(), "█" | "▀" | "▄"))
        .collect();
    assert!(qr_cells.len() > 200);
    assert!(
        qr_cells
            .iter()
            .all(|c| c.fg == Color::White && c.bg == Color::Black)
    );
}

#[test]
fn map_without_url_offers_lan_sharing() {
    let app = map_screen(Lang::De, None, 100, 40);
    let screen = text(&buffer(&app));
    insta::assert_snapshot!("map_de_100x40_no_url", screen);
    assert!(screen.contains("Drücke s"), "{screen}");
}

#[test]
fn map_too_small_for_the_code_says_enlarge() {
    let app = map_screen(Lang::En, Some(URL), 70, 20);
    let screen = text(&buffer(&app));
    insta::assert_snapshot!("map_en_70x20_too_small_for_qr", screen);
    assert!(screen.contains("Enlarge the terminal"), "{screen}");
    assert!(!screen.contains('▀'), "no partial code");
    assert!(screen.contains(URL), "the URL stays readable");
}

#[test]
fn any_size_and_url_length_draws_without_panic() {
    let long = format!("https://example.org/{}", "lab/".repeat(60));
    for url in [None, Some(URL), Some(long.as_str())] {
        for ascii in [false, true] {
            for (w, h) in [
                (0, 0),
                (1, 1),
                (59, 17),
                (60, 18),
                (71, 21),
                (100, 40),
                (240, 80),
            ] {
                let mut app = map_screen(Lang::En, url, w.max(60), h.max(18));
                app.session.options.ascii = ascii;
                app.update(Msg::Resized {
                    width: w,
                    height: h,
                });
                let screen = text(&buffer(&app));
                if ascii && app.session.map.qr().is_some() && w >= 100 {
                    assert!(
                        screen.contains("##") || screen.contains("Enlarge"),
                        "{screen}"
                    );
                }
            }
        }
    }
}

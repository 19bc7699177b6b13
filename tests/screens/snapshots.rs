//! The screens as characters at fixed sizes (80x24 and an odd 97x31), and the first screen of
//! every chapter in both languages at 80x24 and 120x40. `INSTA_UPDATE=no` in CI makes any
//! change a failure to review.

use crate::support::screen as support;

use queuelab::app::{App, DamagedCopy, Info, Msg, Options};
use queuelab::content::Lang;
use support::{new_app, press, render, screen};

fn app(lang: Lang, width: u16, height: u16) -> App {
    support::snapshot_app(lang, width, height)
}

#[test]
fn home() {
    for (w, h) in [(80, 24), (97, 31)] {
        for lang in Lang::ALL {
            insta::assert_snapshot!(format!("home_{lang}_{w}x{h}"), screen(&app(lang, w, h)));
        }
    }
}

#[test]
fn chapter_list_and_help() {
    for (w, h) in [(80, 24), (97, 31)] {
        let mut a = app(Lang::En, w, h);
        press(&mut a, "2");
        insta::assert_snapshot!(format!("chapters_en_{w}x{h}"), screen(&a));
        press(&mut a, "?");
        insta::assert_snapshot!(format!("help_chapters_en_{w}x{h}"), screen(&a));
    }
}

#[test]
fn reader_with_an_answered_decision() {
    for (w, h) in [(80, 24), (97, 31)] {
        let mut a = app(Lang::De, w, h);
        press(&mut a, "2");
        press(&mut a, "3\n\t1");
        insta::assert_snapshot!(format!("reader_decision_de_{w}x{h}"), screen(&a));
    }
}

#[test]
fn settings() {
    let mut a = app(Lang::En, 80, 24);
    press(&mut a, "8");
    insta::assert_snapshot!("settings_en_80x24", screen(&a));
    press(&mut a, "x");
    insta::assert_snapshot!("settings_confirm_en_80x24", screen(&a));
}

#[test]
fn settings_with_damaged_copies() {
    let copy = |name: &str, bytes| DamagedCopy {
        name: name.into(),
        bytes,
        modified_secs: 1_796_040_000,
    };
    let mut a = app(Lang::De, 80, 24);
    press(&mut a, "8");
    a.update(Msg::DamagedCopies(vec![
        copy("progress.damaged-1796040000.db", 40_960),
        copy("progress.damaged-1796043600.db", 8_192),
    ]));
    insta::assert_snapshot!("settings_damaged_de_80x24", screen(&a));
    press(&mut a, "d");
    insta::assert_snapshot!("settings_damaged_confirm_de_80x24", screen(&a));
}

#[test]
fn too_small_down_to_nothing() {
    for (w, h) in [(59, 24), (80, 17), (20, 5), (1, 1), (0, 0)] {
        insta::assert_snapshot!(format!("too_small_{w}x{h}"), screen(&app(Lang::En, w, h)));
    }
}

#[test]
fn first_screen_of_every_chapter() {
    for lang in Lang::ALL {
        for (w, h) in [(80, 24), (120, 40)] {
            let mut a = app(lang, w, h);
            let count = a.session.course().chapters.len();
            press(&mut a, "2\n");
            for n in 1..=count {
                insta::assert_snapshot!(format!("chapter_{n:02}_{lang}_{w}x{h}"), screen(&a));
                press(&mut a, "n");
            }
        }
    }
}

#[test]
fn ascii_mode_draws_without_box_or_block_characters() {
    let options = Options {
        ascii: true,
        ..Options::default()
    };
    let mut a = new_app(Lang::En, options, Info::default(), 80, 24);
    press(&mut a, "2");
    press(&mut a, "3\n\t1?");
    let text = screen(&a);
    insta::assert_snapshot!("ascii_reader_help_en_80x24", text);
    for forbidden in ['─', '│', '▌', '╭', '┼', '✓'] {
        assert!(!text.contains(forbidden), "--ascii drew {forbidden:?}");
    }
}

#[test]
fn no_color_theme_uses_modifiers_only_and_marks_focus_in_text() {
    let options = Options {
        no_color: true,
        ..Options::default()
    };
    let mut a = new_app(Lang::En, options, Info::default(), 80, 24);
    press(&mut a, "2");
    press(&mut a, "3\n\t");
    let buffer = render(&a);
    for cell in buffer.content() {
        assert_eq!(
            cell.fg,
            ratatui::style::Color::Reset,
            "no foreground colour with NO_COLOR"
        );
        assert_eq!(
            cell.bg,
            ratatui::style::Color::Reset,
            "no background colour with NO_COLOR"
        );
    }
    assert!(
        screen(&a).contains("▌ ──"),
        "the focused card is marked by text"
    );
}

//! Every screen at the advertised minimum (60x18), at 80x24 and on a large terminal (200x60),
//! in both languages; and every `?` help at 80x24 with its close hint visible.

use crate::support::screen as support;

use queuelab::app::{App, Info, MapSetup, Msg, Options};
use queuelab::content::Lang;
use queuelab::content::key;
use queuelab::domain::quiz::Attempt;
use support::{new_app, press, screen};

const SIZES: [(u16, u16); 3] = [(60, 18), (80, 24), (200, 60)];

fn app(lang: Lang, width: u16, height: u16) -> App {
    let mut app = new_app(lang, Options::default(), Info::default(), width, height);
    app.session.map = MapSetup::new(Some("https://example.org/queuelab-map".into()), 8737);
    app
}

/// Opens the quiz with a seeded attempt.
fn quiz(app: &mut App) {
    quiz_with_seed(app, 7);
}

/// Opens the quiz with the attempt this seed draws from the bank.
fn quiz_with_seed(app: &mut App, seed: u64) {
    press(app, "7");
    let mut attempt = Attempt::new(&app.session.course().quiz, seed);
    attempt.id = 1;
    app.update(Msg::AttemptStarted(Ok(attempt)));
}

/// The first seed whose drawn questions include a multi-select one with two or more right options.
fn seed_with_multi_select(app: &App) -> u64 {
    let quiz = &app.session.course().quiz;
    (1..10_000)
        .find(|&seed| {
            Attempt::new(quiz, seed)
                .questions(quiz)
                .iter()
                .any(|q| q.multi && q.options.iter().filter(|o| o.correct).count() >= 2)
        })
        .expect("the bank has a multi-select question with two right options")
}

/// Answers every question with option 1 (and 2 for multi-select).
fn finish_quiz(app: &mut App) {
    for _ in 0..queuelab::content::QUESTION_COUNT {
        let attempt = app.session.quiz.attempt.clone().expect("attempt");
        let multi = attempt
            .next_question(&app.session.course().quiz)
            .is_some_and(|q| q.multi);
        press(app, if multi { "12\n\n" } else { "1\n\n" });
    }
}

#[test]
fn home_reader_help_quiz_result_and_map_at_three_sizes() {
    for lang in Lang::ALL {
        for (w, h) in SIZES {
            let a = app(lang, w, h);
            insta::assert_snapshot!(format!("home_{lang}_{w}x{h}"), screen(&a));

            let mut a = app(lang, w, h);
            press(&mut a, "1?");
            insta::assert_snapshot!(format!("reader_help_{lang}_{w}x{h}"), screen(&a));

            let mut a = app(lang, w, h);
            quiz(&mut a);
            finish_quiz(&mut a);
            insta::assert_snapshot!(format!("quiz_result_{lang}_{w}x{h}"), screen(&a));

            let mut a = app(lang, w, h);
            press(&mut a, "3");
            insta::assert_snapshot!(format!("map_{lang}_{w}x{h}"), screen(&a));
        }
    }
}

#[test]
fn every_help_overlay_fits_80x24_with_its_close_hint() {
    // Keys that open each screen from Home (the report via a finished quiz).
    let screens: [(&str, &str); 8] = [
        ("home", ""),
        ("chapters", "2"),
        ("reader", "1"),
        ("map", "3"),
        ("ordering", "4"),
        ("simulator", "5"),
        ("checklist", "6"),
        ("settings", "8"),
    ];
    for lang in Lang::ALL {
        let close = app(lang, 80, 24)
            .session
            .strings()
            .get(key::help::CLOSE)
            .to_owned();
        let mut cases: Vec<(String, App)> = screens
            .iter()
            .map(|(name, keys)| {
                let mut a = app(lang, 80, 24);
                press(&mut a, keys);
                ((*name).to_owned(), a)
            })
            .collect();
        let mut a = app(lang, 80, 24);
        quiz(&mut a);
        cases.push(("quiz".to_owned(), a));
        let mut a = app(lang, 80, 24);
        quiz(&mut a);
        finish_quiz(&mut a);
        press(&mut a, "m");
        cases.push(("report".to_owned(), a));
        for (name, mut a) in cases {
            press(&mut a, "?");
            assert!(a.session.help, "{name} {lang}: ? opens the help");
            let text = screen(&a);
            assert!(
                text.contains(&close),
                "{name} {lang}: close hint missing in\n{text}"
            );
            let title = a
                .session
                .strings()
                .get(a.screen.help_title_key())
                .to_owned();
            assert!(
                text.contains(&title),
                "{name} {lang}: title {title:?} missing"
            );
            let stuck = a.session.strings().get(key::key::STUCK).to_owned();
            assert!(
                text.contains(&format!("!  {stuck}"))
                    || text.contains(&format!("!      {stuck}"))
                    || text
                        .lines()
                        .any(|l| l.contains(" ! ") && l.contains(&stuck)),
                "{name} {lang}: the stuck key is in every help\n{text}"
            );
        }
    }
}

#[test]
fn the_workshop_line_shows_on_home_at_every_size() {
    for lang in Lang::ALL {
        for (w, h) in SIZES {
            let mut a = app(lang, w, h);
            a.update(Msg::WorkshopUpdated(queuelab::app::WorkshopLine {
                session: "Room 1".into(),
                reachable: true,
                pending: 0,
            }));
            let text = screen(&a);
            let reachable = a.session.strings().get(key::home::WORKSHOP_REACHABLE);
            assert!(
                text.contains("Room 1") && text.contains(reachable),
                "{lang} {w}x{h}: the workshop line is missing\n{text}"
            );
        }
    }
}

#[test]
fn header_parts_never_run_together() {
    for lang in Lang::ALL {
        for width in [60, 70, 80, 120] {
            let info = Info {
                workshop: Some("Queues workshop".into()),
                ..Info::default()
            };
            let a = new_app(lang, Options::default(), info, width, 18);
            let text = screen(&a);
            let header = text.lines().next().expect("a header row");
            let counts = a.session.strings().get(key::home::CHAPTERS_READ);
            assert!(header.contains(counts), "{lang} {width}: {header}");
            assert!(
                !header.contains("workshop") || header.contains("workshop  "),
                "{lang} {width}: {header}"
            );
        }
    }
}

/// Answers questions with option 1 until a multi-select one with two or more right options is
/// next; picks one right and one wrong option there and submits.
fn multi_select_feedback(lang: Lang, width: u16, height: u16) -> App {
    let mut a = app(lang, width, height);
    let seed = seed_with_multi_select(&a);
    quiz_with_seed(&mut a, seed);
    loop {
        let attempt = a.session.quiz.attempt.clone().expect("attempt");
        let course = a.session.course();
        let question = attempt
            .next_question(&course.quiz)
            .expect("the seeded attempt has a multi-select question with two right options")
            .clone();
        let right = question.options.iter().filter(|o| o.correct).count();
        if question.multi && right >= 2 {
            let shown = attempt.options(&question);
            let first_right = shown.iter().position(|o| o.correct).expect("a right one");
            let first_wrong = shown.iter().position(|o| !o.correct).expect("a wrong one");
            press(&mut a, &format!("{}{}\n", first_right + 1, first_wrong + 1));
            return a;
        }
        press(&mut a, if question.multi { "12\n\n" } else { "1\n\n" });
    }
}

#[test]
fn multi_select_feedback_shows_picked_and_missed_options() {
    for (lang, w, h) in [(Lang::En, 100, 30), (Lang::De, 100, 40)] {
        let a = multi_select_feedback(lang, w, h);
        let text = screen(&a);
        let s = a.session.strings();
        for key in [
            key::quiz::PICKED_RIGHT,
            key::quiz::PICKED_WRONG,
            key::quiz::MISSED,
        ] {
            assert!(
                text.contains(s.get(key)),
                "{lang}: {key} missing in\n{text}"
            );
        }
        insta::assert_snapshot!(format!("quiz_multi_feedback_{lang}_{w}x{h}"), text);
    }
}

#[test]
fn search_hits_are_highlighted() {
    use ratatui::style::Modifier;
    let mut a = app(Lang::En, 100, 30);
    press(&mut a, "1/outbox\n");
    let buffer = support::render(&a);
    let area = buffer.area;
    // Rows below the header and chapter line, above the status line and legend.
    let highlighted: String = (2..area.height - 2)
        .flat_map(|y| (0..area.width).map(move |x| (x, y)))
        .filter(|&(x, y)| buffer[(x, y)].modifier.contains(Modifier::REVERSED))
        .map(|(x, y)| buffer[(x, y)].symbol().to_owned())
        .collect();
    assert!(
        highlighted.to_lowercase().contains("outbox"),
        "no highlighted hit: {highlighted:?}\n{}",
        support::text(&buffer)
    );
}

/// The chapter list's key legend keeps every entry, `q` back included, at 80x24 in German and
/// 100x30 in English (the German one lost "q zurück" to its long digit hint).
#[test]
fn the_chapter_list_legend_keeps_back_at_80_columns() {
    for (lang, w, h, back) in [
        (Lang::De, 80, 24, "q zurück"),
        (Lang::En, 100, 30, "q back"),
    ] {
        let mut a = app(lang, w, h);
        press(&mut a, "2");
        let shown = screen(&a);
        let legend = shown.lines().last().unwrap_or_default();
        assert!(legend.contains(back), "{lang}: {legend}");
        assert!(legend.contains("1-9"), "{lang}: {legend}");
        insta::assert_snapshot!(format!("chapter_list_{lang}_{w}x{h}"), shown);
    }
}

//! Scripted message sequences through `App::update`: no terminal, no IO.

use super::input::{Key, KeyCode, Mouse, MouseKind};
use super::test_app::{chars, content, key, open_chapter, test_app};
use super::*;
use content::key;
use domain::Fact;
use domain::outbox::MailStatus;

fn app(lang: Lang) -> App {
    test_app(lang, 80, 24)
}

fn saved(effects: &[Effect]) -> Vec<&Fact> {
    effects
        .iter()
        .filter_map(|e| {
            if let Effect::Store(StoreRequest::Save(f)) = e {
                Some(f)
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn home_menu_opens_chapters_and_back_returns() {
    let mut app = app(Lang::En);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen, Screen::Chapters(_)));
    key(&mut app, KeyCode::Esc);
    assert!(matches!(
        app.screen,
        Screen::Home(HomeState { cursor: 1, .. })
    ));
    let effects = chars(&mut app, "q");
    assert_eq!(effects, Vec::new());
    assert!(app.session.quitting);
}

#[test]
fn ctrl_c_quits_from_anywhere_and_saves_the_reading_position() {
    let mut app = app(Lang::En);
    key(&mut app, KeyCode::Enter); // start with chapter 1
    chars(&mut app, "jjj");
    let effects = app.update(Msg::Key(Key {
        code: KeyCode::Char('c'),
        ctrl: true,
    }));
    assert_eq!(
        effects,
        vec![Effect::Store(StoreRequest::Save(Fact::Position {
            chapter: "friday-incident".into(),
            scroll: 3
        })),]
    );
    assert!(app.session.quitting);
}

#[test]
fn next_chapter_opens_the_following_one_without_marking_read() {
    let mut app = app(Lang::En);
    key(&mut app, KeyCode::Enter);
    let effects = chars(&mut app, "n");
    assert!(!saved(&effects).contains(&&Fact::ChapterRead("friday-incident".into())));
    let Screen::Reader(state) = &app.screen else {
        panic!("reader expected")
    };
    assert_eq!(state.chapter, 1);
    assert_eq!(
        app.history.len(),
        1,
        "next replaces the reader instead of stacking"
    );
}

#[test]
fn continue_resumes_the_last_chapter_at_its_position() {
    let mut progress = Progress::default();
    progress.apply(&Fact::Position {
        chapter: "outbox".into(),
        scroll: 5,
    });
    let mut app = App::new(
        content(),
        Lang::En,
        progress,
        Options::default(),
        Info::default(),
    );
    app.update(Msg::Resized {
        width: 80,
        height: 24,
    });
    key(&mut app, KeyCode::Enter);
    let Screen::Reader(state) = &app.screen else {
        panic!("reader expected")
    };
    assert_eq!((state.chapter, state.scroll), (7, 5));
}

#[test]
fn a_decision_is_answered_with_a_digit_and_saved_at_once() {
    let mut app = app(Lang::En);
    let index = app
        .session
        .course()
        .chapters
        .iter()
        .position(|c| c.id == "flow-map")
        .expect("chapter 3");
    let effects = open_chapter(&mut app, index);
    assert!(!effects.is_empty());
    let decision = app
        .session
        .course()
        .decision("broker-down")
        .expect("decision")
        .clone();
    let correct = decision
        .options
        .iter()
        .position(|o| o.correct)
        .expect("a correct option");
    let effects = chars(&mut app, &(correct + 1).to_string());
    assert_eq!(
        saved(&effects),
        vec![&Fact::DecisionAnswered {
            decision: "broker-down".into(),
            option: decision.options[correct].id.clone()
        }]
    );
    let lines = reader_lines(
        &app,
        match &app.screen {
            Screen::Reader(s) => s,
            _ => panic!("reader expected"),
        },
    );
    let text: Vec<String> = lines.iter().map(doc_layout::DocLine::text).collect();
    assert!(text.iter().any(|l| l.contains("Right.")), "verdict shown");
    for n in (1..=decision.options.len()).filter(|n| *n != correct + 1) {
        assert!(
            text.iter().any(|l| l.contains(&format!("Choice [{n}]:"))),
            "consequence of option {n} shown"
        );
    }
}

#[test]
fn checklist_items_toggle_and_save() {
    let mut app = app(Lang::En);
    key(&mut app, KeyCode::Down);
    for _ in 0..4 {
        key(&mut app, KeyCode::Down);
    }
    let effects = key(&mut app, KeyCode::Enter); // "Checklist"
    assert!(matches!(
        app.screen,
        Screen::Reader(ReaderState { focus: Some(0), .. })
    ));
    assert!(!saved(&effects).is_empty());
    let effects = key(&mut app, KeyCode::Enter);
    let first = app.session.course().reference.checklist[0].id.clone();
    assert_eq!(
        saved(&effects),
        vec![&Fact::ChecklistTicked {
            item: first.clone(),
            ticked: true
        }]
    );
    let effects = chars(&mut app, " ");
    assert_eq!(
        saved(&effects),
        vec![&Fact::ChecklistTicked {
            item: first,
            ticked: false
        }],
        "Space ticks the focused item too"
    );
    key(&mut app, KeyCode::Esc);
    assert!(
        matches!(app.screen, Screen::Home(_)),
        "one Esc leaves the chapter, focus or not"
    );
}

#[test]
fn calculator_rejects_bad_input_and_recomputes() {
    let mut app = app(Lang::En);
    let index = app
        .session
        .course()
        .chapters
        .iter()
        .position(|c| c.id == "outage-cost")
        .expect("chapter 11");
    open_chapter(&mut app, index);
    key(&mut app, KeyCode::Tab); // incidents
    key(&mut app, KeyCode::Enter);
    chars(&mut app, "-3");
    key(&mut app, KeyCode::Enter);
    let Screen::Reader(state) = &app.screen else {
        panic!("reader expected")
    };
    assert_eq!(state.calc_error, Some(key::calc::ERR_NEGATIVE));
    assert!((state.calc.monthly() - 5400.0).abs() < 1e-9);
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Enter);
    chars(&mut app, "8");
    let Screen::Reader(state) = &app.screen else {
        panic!("reader expected")
    };
    let typing: Vec<String> = reader_lines(&app, state)
        .iter()
        .map(doc_layout::DocLine::text)
        .collect();
    assert!(
        typing.iter().any(|l| l.contains("= 10,800.00 EUR")),
        "the product follows the typing"
    );
    key(&mut app, KeyCode::Enter);
    let Screen::Reader(state) = &app.screen else {
        panic!("reader expected")
    };
    assert_eq!(state.calc_error, None);
    assert!((state.calc.monthly() - 10_800.0).abs() < 1e-9);
    let text: Vec<String> = reader_lines(&app, state)
        .iter()
        .map(doc_layout::DocLine::text)
        .collect();
    assert!(
        text.iter().any(|l| l.contains("= 10,800.00 EUR per month")),
        "{text:?}"
    );
}

#[test]
fn search_finds_matches_across_chapters() {
    let mut app = app(Lang::En);
    key(&mut app, KeyCode::Enter);
    chars(&mut app, "/");
    chars(&mut app, "skip locked");
    key(&mut app, KeyCode::Enter);
    let Screen::Reader(state) = &app.screen else {
        panic!("reader expected")
    };
    let search = state.search.as_ref().expect("search active");
    assert!(!search.hits.is_empty());
    assert_ne!(state.chapter, 0, "jumped to a later chapter");
    assert!(
        app.session
            .status
            .as_ref()
            .is_some_and(|s| s.text.contains("skip locked"))
    );
    chars(&mut app, "/");
    chars(&mut app, "zzzqqq");
    key(&mut app, KeyCode::Enter);
    assert!(app.session.status.as_ref().is_some_and(|s| s.error));
}

#[test]
fn chapter_list_opens_by_number() {
    let chapter = |app: &App| match &app.screen {
        Screen::Reader(r) => Some(r.chapter),
        _ => None,
    };
    let mut app = app(Lang::En);
    chars(&mut app, "21");
    assert_eq!(chapter(&app), None, "1 waits for a second digit");
    chars(&mut app, "4");
    assert_eq!(chapter(&app), Some(13), "1 then 4 opens chapter 14");
    key(&mut app, KeyCode::Esc);
    chars(&mut app, "7");
    assert_eq!(chapter(&app), Some(6), "7 opens chapter 7 at once");
    key(&mut app, KeyCode::Esc);
    chars(&mut app, "1");
    key(&mut app, KeyCode::Enter);
    assert_eq!(chapter(&app), Some(0), "1 then Enter opens chapter 1");
}

#[test]
fn settings_switch_language_and_clear_after_confirmation() {
    let mut app = app(Lang::En);
    app.session
        .progress
        .apply(&Fact::ChapterRead("outbox".into()));
    chars(&mut app, "8");
    assert!(matches!(app.screen, Screen::Settings(_)));
    let effects = chars(&mut app, "l");
    assert_eq!(
        effects,
        vec![Effect::Store(StoreRequest::Save(Fact::LanguageChosen(
            Lang::De
        )))]
    );
    assert_eq!(app.session.lang, Lang::De);
    chars(&mut app, "x");
    assert!(chars(&mut app, "n").is_empty(), "n keeps everything");
    assert!(!app.session.progress.chapters_read.is_empty());
    chars(&mut app, "x");
    assert_eq!(
        chars(&mut app, "j"),
        vec![
            Effect::Store(StoreRequest::ClearResults),
            Effect::Mail(MailRequest::ClearFiles)
        ],
        "German 'ja' confirms too"
    );
    assert_eq!(app.session.progress, Progress::default());
}

#[test]
fn help_opens_and_any_key_closes_it() {
    let mut app = app(Lang::En);
    chars(&mut app, "?");
    assert!(app.session.help);
    assert!(
        chars(&mut app, "q").is_empty(),
        "the closing key does nothing else"
    );
    assert!(!app.session.help && !app.session.quitting);
}

#[test]
fn tiny_terminals_ignore_input_but_allow_leaving() {
    let mut app = app(Lang::En);
    app.update(Msg::Resized {
        width: 0,
        height: 0,
    });
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    assert!(
        app.update(Msg::Mouse(Mouse {
            kind: MouseKind::Click,
            column: 0,
            row: 0
        }))
        .is_empty()
    );
    assert_eq!(chars(&mut app, "q"), Vec::new());
    assert!(app.session.quitting);
}

#[test]
fn mouse_click_opens_a_menu_entry_and_wheel_scrolls() {
    let mut app = app(Lang::En);
    let menu = home::home_layout(&app.session).menu;
    app.update(Msg::Mouse(Mouse {
        kind: MouseKind::Click,
        column: menu.x + 2,
        row: menu.y + 1,
    }));
    assert!(matches!(app.screen, Screen::Chapters(_)));
    let area = layout::list(80, 24);
    app.update(Msg::Mouse(Mouse {
        kind: MouseKind::Click,
        column: area.x,
        row: area.y,
    }));
    assert!(matches!(app.screen, Screen::Reader(_)));
    app.update(Msg::Mouse(Mouse {
        kind: MouseKind::ScrollDown,
        column: 10,
        row: 10,
    }));
    let Screen::Reader(state) = &app.screen else {
        panic!("reader expected")
    };
    assert_eq!(state.scroll, 3);
}

#[test]
fn a_failed_save_is_shown_not_swallowed() {
    let mut app = app(Lang::En);
    app.update(Msg::FactSaved(Err(StoreFault::File {
        path: "/data/progress.db".into(),
        reason: "No space left on device".into(),
    })));
    let status = app.session.status.as_ref().expect("status");
    assert!(status.error);
    assert_eq!(
        status.text,
        "Could not save: /data/progress.db: No space left on device"
    );
}

#[test]
fn a_store_that_refuses_a_save_says_why_in_the_learners_language() {
    let busy = || {
        Msg::FactSaved(Err(StoreFault::Busy {
            path: "/data/progress.db".into(),
        }))
    };
    let said = |lang: Lang, msg: Msg| {
        let mut app = app(lang);
        app.update(msg);
        let status = app.session.status.clone().expect("status");
        assert!(status.error, "{status:?}");
        status.text
    };
    assert_eq!(
        said(Lang::En, busy()),
        "Could not save: /data/progress.db is in use by another queuelab — close it or wait"
    );
    assert_eq!(
        said(Lang::De, busy()),
        "Speichern fehlgeschlagen: /data/progress.db wird von einem anderen queuelab benutzt — \
         schließe es oder warte"
    );
    let damaged = Msg::AttemptStarted(Err(StoreFault::Damaged {
        path: "/data/progress.db".into(),
        reason: "database disk image is malformed".into(),
    }));
    assert_eq!(
        said(Lang::De, damaged),
        "Speichern fehlgeschlagen: /data/progress.db ist beschädigt: database disk image is \
         malformed"
    );
    let refused = Msg::ResultsCleared(Err(SaveError::Store(StoreFault::Database {
        path: "/data/progress.db".into(),
        detail: "disk I/O error".into(),
    })));
    assert_eq!(
        said(Lang::De, refused),
        "Speichern fehlgeschlagen: Fortschrittsspeicher /data/progress.db: disk I/O error"
    );
}

#[test]
fn esc_on_home_asks_only_while_a_report_is_queued() {
    let mut queued = app(Lang::En);
    queued.session.report_status = Some(MailStatus::Queued);
    key(&mut queued, KeyCode::Esc);
    assert!(!queued.session.quitting, "asks first");
    assert!(queued.session.status.is_some());
    chars(&mut queued, "n");
    assert!(!queued.session.quitting, "n stays");
    key(&mut queued, KeyCode::Esc);
    chars(&mut queued, "y");
    assert!(queued.session.quitting, "y quits");

    let mut fresh = app(Lang::En);
    key(&mut fresh, KeyCode::Esc);
    assert!(fresh.session.quitting, "nothing unsent: Esc quits at once");
}

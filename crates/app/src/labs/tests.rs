//! Key flows of the lab list and a lab's screen, with the test app: what each key asks the
//! runtime for, and how the answers change the screen.

use std::collections::BTreeMap;

use super::*;
use crate::test_app::{chars, key, test_app};
use crate::{App, Msg, Screen};
use content::Lang;

fn lab_id(app: &App) -> String {
    app.session.content.labs[0].id.clone()
}

/// Home → `l` → Enter: lab 1 open.
fn open_lab_one(app: &mut App) -> Vec<Effect> {
    let effects = chars(app, "l");
    assert_eq!(effects, vec![Effect::Store(StoreRequest::ReadLabs)]);
    assert!(matches!(app.screen, Screen::LabList(_)));
    key(app, KeyCode::Enter)
}

fn lab(app: &App) -> &LabState {
    match &app.screen {
        Screen::Lab(state) => state,
        other => panic!("not on a lab: {other:?}"),
    }
}

#[test]
fn home_l_opens_the_list_and_enter_opens_the_lab_with_its_copy_made() {
    let mut app = test_app(Lang::De, 80, 24);
    app.session.info.data_dir = "/data".into();
    let effects = open_lab_one(&mut app);
    let id = lab_id(&app);
    assert_eq!(
        effects,
        vec![Effect::Lab(LabRequest::Open { lab_id: id.clone() })]
    );
    assert_eq!(lab(&app).file, format!("/data/labs/{id}.sql"));
    // q goes back to the list, q again to Home.
    chars(&mut app, "q");
    assert!(matches!(app.screen, Screen::LabList(_)));
    chars(&mut app, "q");
    assert!(matches!(app.screen, Screen::Home(_)));
}

#[test]
fn a_digit_opens_that_lab_and_an_unknown_number_does_nothing() {
    let mut app = test_app(Lang::En, 100, 30);
    chars(&mut app, "l");
    assert!(chars(&mut app, "9").is_empty());
    assert!(matches!(app.screen, Screen::LabList(_)));
    let effects = chars(&mut app, "1");
    assert!(matches!(
        effects[..],
        [Effect::Lab(LabRequest::Open { .. })]
    ));
    assert!(matches!(app.screen, Screen::Lab(_)));
}

#[test]
fn the_list_shows_each_lab_status_as_the_store_tells_it() {
    let mut app = test_app(Lang::En, 100, 30);
    chars(&mut app, "l");
    let id = lab_id(&app);
    let mut results = BTreeMap::new();
    results.insert(
        id.clone(),
        LabResult {
            attempts: 2,
            solved_at: None,
            hints: 1,
        },
    );
    app.update(Msg::LabResults(results));
    let Screen::LabList(list) = &app.screen else {
        panic!("list")
    };
    assert_eq!(LabStatus::of(list.results.get(&id)), LabStatus::Attempted);
    // The lab opened from it starts with the stored hint level.
    key(&mut app, KeyCode::Enter);
    assert_eq!(lab(&app).result.hints, 1);
}

#[test]
fn c_checks_on_the_lab_thread_shows_progress_and_the_verdict_is_recorded() {
    let mut app = test_app(Lang::En, 100, 30);
    open_lab_one(&mut app);
    let id = lab_id(&app);
    let effects = chars(&mut app, "c");
    assert_eq!(
        effects,
        vec![Effect::Lab(LabRequest::Check {
            lab_id: id.clone(),
            lang: Lang::En
        })]
    );
    // A second c while it runs asks for nothing and says why.
    assert!(chars(&mut app, "c").is_empty());
    assert!(app.session.status.is_some());
    let progress = LabProgress {
        seed: 3,
        last_seed: 8,
        runs_done: 17,
        runs_total: 64,
    };
    app.update(Msg::LabProgress {
        lab_id: id.clone(),
        progress,
    });
    assert_eq!(lab(&app).check, CheckState::Running(progress));
    // Keys keep working while it runs.
    chars(&mut app, "j");
    assert_eq!(lab(&app).scroll, 1);
    let report = LabReport {
        kind: LabReportKind::Broken,
        lines: vec!["lab 1 BROKEN".into(), "your statement: f.sql:12:1".into()],
        failed_run: None,
    };
    let effects = app.update(Msg::LabChecked {
        lab_id: id.clone(),
        passed: false,
        reason: "duplicate-effect".into(),
        report: report.clone(),
    });
    assert_eq!(
        effects,
        vec![Effect::Store(StoreRequest::LabChecked {
            lab_id: id,
            passed: false,
            reason: "duplicate-effect".into(),
        })]
    );
    assert_eq!(lab(&app).check, CheckState::Done(report));
}

#[test]
fn a_verdict_that_arrives_after_leaving_is_still_recorded() {
    let mut app = test_app(Lang::En, 100, 30);
    open_lab_one(&mut app);
    let id = lab_id(&app);
    chars(&mut app, "c");
    chars(&mut app, "q");
    let effects = app.update(Msg::LabChecked {
        lab_id: id.clone(),
        passed: true,
        reason: String::new(),
        report: LabReport {
            kind: LabReportKind::Passed,
            lines: Vec::new(),
            failed_run: None,
        },
    });
    assert_eq!(
        effects,
        vec![Effect::Store(StoreRequest::LabChecked {
            lab_id: id,
            passed: true,
            reason: String::new(),
        })]
    );
}

#[test]
fn e_asks_for_the_editor_and_its_return_starts_a_check() {
    let mut app = test_app(Lang::De, 80, 24);
    open_lab_one(&mut app);
    let id = lab_id(&app);
    let effects = chars(&mut app, "e");
    assert_eq!(
        effects,
        vec![Effect::Lab(LabRequest::Edit { lab_id: id.clone() })]
    );
    let effects = app.update(Msg::LabEdited {
        lab_id: id.clone(),
        result: Ok(()),
    });
    assert!(matches!(
        effects[..],
        [Effect::Lab(LabRequest::Check { .. })]
    ));
    assert!(matches!(lab(&app).check, CheckState::Running(_)));
}

#[test]
fn a_save_seen_by_the_lab_thread_checks_once_and_never_twice_at_a_time() {
    let mut app = test_app(Lang::En, 80, 24);
    open_lab_one(&mut app);
    let id = lab_id(&app);
    let saved = |app: &mut App, lab_id: &str| {
        app.update(Msg::LabFileSaved {
            lab_id: lab_id.to_owned(),
        })
    };
    assert!(
        saved(&mut app, "another-lab").is_empty(),
        "not this screen's"
    );
    let effects = saved(&mut app, &id);
    assert!(matches!(
        effects[..],
        [Effect::Lab(LabRequest::Check { .. })]
    ));
    // The editor's return after the same save, while that check runs: no second check and
    // no "busy" complaint.
    app.session.status = None;
    assert!(saved(&mut app, &id).is_empty());
    let effects = app.update(Msg::LabEdited {
        lab_id: id.clone(),
        result: Ok(()),
    });
    assert!(effects.is_empty(), "{effects:?}");
    assert!(app.session.status.is_none(), "nothing to complain about");
}

#[test]
fn an_editor_that_cannot_start_is_said_and_nothing_is_checked() {
    for (lang, said) in [
        (Lang::En, "No editor found"),
        (Lang::De, "Kein Editor gefunden"),
    ] {
        let mut app = test_app(lang, 100, 30);
        open_lab_one(&mut app);
        let id = lab_id(&app);
        let effects = app.update(Msg::LabEdited {
            lab_id: id,
            result: Err(EditError::NoEditor),
        });
        assert!(effects.is_empty());
        let status = app.session.status.clone().expect("status");
        assert!(status.error && status.text.contains(said), "{status:?}");
        assert_eq!(lab(&app).check, CheckState::Idle);
    }
}

#[test]
fn an_editor_that_failed_is_said_with_its_command_and_status() {
    let mut app = test_app(Lang::De, 100, 30);
    open_lab_one(&mut app);
    let id = lab_id(&app);
    app.update(Msg::LabEdited {
        lab_id: id.clone(),
        result: Err(EditError::Exited {
            editor: "nano".into(),
            status: "exit status: 1".into(),
        }),
    });
    let status = app.session.status.clone().expect("status");
    assert_eq!(status.text, "nano: exit status: 1");
    app.update(Msg::LabEdited {
        lab_id: id,
        result: Err(EditError::Terminal("broken pipe".into())),
    });
    let status = app.session.status.clone().expect("status");
    assert_eq!(
        status.text,
        "Das Terminal ließ sich nicht zurückholen: broken pipe"
    );
}

#[test]
fn h_reveals_hints_one_by_one_saves_each_and_stops_at_three() {
    let mut app = test_app(Lang::En, 100, 30);
    open_lab_one(&mut app);
    let id = lab_id(&app);
    for level in 1..=3 {
        assert_eq!(
            chars(&mut app, "h"),
            vec![Effect::Store(StoreRequest::LabHint {
                lab_id: id.clone(),
                level
            })]
        );
    }
    assert!(chars(&mut app, "h").is_empty());
    assert_eq!(lab(&app).result.hints, 3);
    // An older answer of the store does not hide a hint already shown.
    let mut results = BTreeMap::new();
    results.insert(
        id,
        LabResult {
            attempts: 1,
            solved_at: None,
            hints: 2,
        },
    );
    app.update(Msg::LabResults(results));
    assert_eq!(lab(&app).result.hints, 3);
    assert_eq!(lab(&app).result.attempts, 1);
}

#[test]
fn r_asks_first_n_keeps_the_file_and_y_resets_it() {
    let mut app = test_app(Lang::De, 80, 24);
    open_lab_one(&mut app);
    let id = lab_id(&app);
    assert!(chars(&mut app, "r").is_empty());
    assert!(lab(&app).confirm_reset);
    // Any key but y/j keeps it, even q (which would otherwise leave).
    assert!(chars(&mut app, "q").is_empty());
    assert!(matches!(app.screen, Screen::Lab(_)));
    assert!(!lab(&app).confirm_reset);
    chars(&mut app, "r");
    let effects = chars(&mut app, "j");
    assert_eq!(
        effects,
        vec![Effect::Lab(LabRequest::Reset { lab_id: id.clone() })]
    );
    app.update(Msg::LabReset {
        lab_id: id.clone(),
        result: Ok(()),
    });
    let status = app.session.status.clone().expect("status");
    assert!(!status.error);
    app.update(Msg::LabReset {
        lab_id: id,
        result: Err(LabFileError::Write("cannot write x: denied".into())),
    });
    assert!(app.session.status.clone().expect("status").error);
}

#[test]
fn reset_and_edit_wait_while_a_check_runs() {
    let mut app = test_app(Lang::En, 100, 30);
    open_lab_one(&mut app);
    chars(&mut app, "c");
    assert!(chars(&mut app, "r").is_empty());
    assert!(!lab(&app).confirm_reset);
    assert!(chars(&mut app, "e").is_empty());
}

#[test]
fn a_copy_that_cannot_be_made_is_said_on_the_status_line() {
    let mut app = test_app(Lang::En, 100, 30);
    open_lab_one(&mut app);
    app.update(Msg::LabOpened(Err(LabFileError::Write(
        "cannot write /x: read-only".into(),
    ))));
    let status = app.session.status.clone().expect("status");
    assert!(status.error);
    assert_eq!(status.text, "Lab file: cannot write /x: read-only");
    app.update(Msg::LabOpened(Err(LabFileError::UnknownLab {
        lab_id: "09-gone".into(),
    })));
    let status = app.session.status.clone().expect("status");
    assert_eq!(status.text, "Lab file: no lab 09-gone");
}

#[test]
fn messages_for_another_lab_change_nothing() {
    let mut app = test_app(Lang::En, 100, 30);
    open_lab_one(&mut app);
    app.update(Msg::LabProgress {
        lab_id: "02-other".into(),
        progress: LabProgress::default(),
    });
    assert_eq!(lab(&app).check, CheckState::Idle);
    assert!(
        app.update(Msg::LabEdited {
            lab_id: "02-other".into(),
            result: Ok(())
        })
        .is_empty()
    );
}

#[test]
fn a_deleted_file_is_said_with_the_way_back_in_both_languages() {
    for lang in [Lang::En, Lang::De] {
        let mut app = test_app(lang, 100, 30);
        open_lab_one(&mut app);
        let id = lab_id(&app);
        assert!(app.update(Msg::LabFileGone { lab_id: id }).is_empty());
        let status = app.session.status.clone().expect("status");
        assert!(status.error, "{}", status.text);
        let way_back = match lang {
            Lang::En => "r restores the starting file",
            Lang::De => "r holt die Startdatei zurück",
        };
        assert!(status.text.contains(way_back), "{}", status.text);
        // Another lab's file is no news here.
        app.session.status = None;
        app.update(Msg::LabFileGone {
            lab_id: "02-other".into(),
        });
        assert!(app.session.status.is_none());
    }
}

#[test]
fn a_check_that_waits_for_another_says_so() {
    let mut app = test_app(Lang::En, 100, 30);
    open_lab_one(&mut app);
    chars(&mut app, "c");
    let id = lab_id(&app);
    app.update(Msg::LabWaiting { lab_id: id });
    let status = app.session.status.clone().expect("status");
    assert!(
        status
            .text
            .starts_with("Waiting for another check of this lab"),
        "{}",
        status.text
    );
    assert!(matches!(lab(&app).check, CheckState::Running(_)));
}

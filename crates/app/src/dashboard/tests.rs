//! The dashboard's keys as scripted messages: sections, scrolling, pacing prompts, quitting.

use super::*;
use crate::test_app::content;

fn dash() -> Dashboard {
    let access = Access {
        join_url: "https://127.0.0.1:8740/join?code=ABCDEFGHJK&fp=00".into(),
        projector_url: "https://127.0.0.1:8740/dashboard".into(),
        key: "K".into(),
        discovery: None,
        check_digits: "1234 5678 9012".into(),
    };
    let mut d = Dashboard::new(content(), Lang::En, access, false);
    d.update(DashMsg::Resized {
        width: 80,
        height: 24,
    });
    d
}

fn typed(d: &mut Dashboard, text: &str) -> Vec<DashEffect> {
    text.chars()
        .flat_map(|c| d.update(DashMsg::Key(Key::char(c))))
        .collect()
}

fn press(d: &mut Dashboard, code: KeyCode) -> Vec<DashEffect> {
    d.update(DashMsg::Key(Key::plain(code)))
}

/// Enter on a removal prompt asks once more, by name; the second Enter removes.
fn confirm(d: &mut Dashboard) -> Vec<DashEffect> {
    assert!(press(d, KeyCode::Enter).is_empty(), "nothing removed yet");
    let prompt = d.prompt.as_ref().expect("a confirmation");
    assert!(
        matches!(
            prompt.kind,
            PromptKind::ConfirmKick | PromptKind::ConfirmRemoveRow
        ),
        "{prompt:?}"
    );
    let (_, name) = prompt.target.clone().expect("the trainee asked about");
    assert!(d.prompt_label(prompt).contains(&name), "{name}");
    press(d, KeyCode::Enter)
}

#[test]
fn number_keys_and_tab_switch_sections_and_reset_the_scroll() {
    let mut d = dash();
    press(&mut d, KeyCode::Down);
    assert_eq!(d.scroll, 1);
    typed(&mut d, "2");
    assert_eq!((d.section, d.scroll), (Section::Answers, 0));
    press(&mut d, KeyCode::Tab);
    assert_eq!(d.section, Section::Join);
    press(&mut d, KeyCode::Tab);
    assert_eq!(d.section, Section::Room);
    press(&mut d, KeyCode::BackTab);
    assert_eq!(d.section, Section::Join);
}

#[test]
fn q_and_ctrl_c_quit_but_q_in_a_prompt_is_typed() {
    let mut d = dash();
    typed(&mut d, "s");
    typed(&mut d, "q");
    assert!(!d.quitting);
    assert_eq!(d.prompt.as_ref().map(|p| p.input.as_str()), Some("q"));
    d.update(DashMsg::Key(Key {
        code: KeyCode::Char('c'),
        ctrl: true,
    }));
    assert!(d.quitting, "Ctrl+C quits even while typing");
    let mut d = dash();
    typed(&mut d, "q");
    assert!(!d.quitting, "q asks first");
    press(&mut d, KeyCode::Esc);
    assert!(!d.quitting && d.prompt.is_none(), "Esc stays");
    typed(&mut d, "q");
    press(&mut d, KeyCode::Enter);
    assert!(d.quitting, "Enter stops the session");
}

#[test]
fn a_removal_is_asked_once_more_and_esc_keeps_the_trainee() {
    let mut d = dash();
    typed(&mut d, "dBob");
    assert!(press(&mut d, KeyCode::Enter).is_empty());
    assert_eq!(
        d.prompt.as_ref().map(|p| p.kind),
        Some(PromptKind::ConfirmRemoveRow)
    );
    press(&mut d, KeyCode::Esc);
    assert!(d.prompt.is_none(), "Esc keeps Bob");
    typed(&mut d, "xBob");
    assert!(press(&mut d, KeyCode::Enter).is_empty());
    press(&mut d, KeyCode::Esc);
    assert!(d.prompt.is_none(), "Esc keeps Bob's client");
}

#[test]
fn a_note_gives_the_footer_back_to_the_keys_after_a_while() {
    let mut d = dash();
    let refreshed = |now_ms| DashMsg::Refreshed {
        summary: Box::default(),
        now_ms,
    };
    d.update(refreshed(1_000));
    d.update(DashMsg::Acknowledged(Ok("Bob".into())));
    assert!(d.note.is_some());
    d.update(refreshed(1_000 + NOTE_MS));
    assert!(d.note.is_some(), "still there within NOTE_MS");
    d.update(refreshed(2_000 + NOTE_MS));
    assert!(d.note.is_none(), "the keys come back");
}

#[test]
fn pacing_prompts_turn_numbers_into_content_ids() {
    let c = content();
    let course = c.course(Lang::En);
    let mut d = dash();
    typed(&mut d, "c3");
    let effects = press(&mut d, KeyCode::Enter);
    assert_eq!(
        effects,
        [DashEffect::SendPace(PaceKind::OpenChapter {
            chapter: course.chapters[2].id.clone()
        })]
    );
    assert!(d.prompt.is_none());
    typed(&mut d, "r2");
    let effects = press(&mut d, KeyCode::Enter);
    assert_eq!(
        effects,
        [DashEffect::SendPace(PaceKind::RevealDecision {
            decision: course.decisions[1].id.clone()
        })]
    );
    typed(&mut d, "w4");
    let effects = press(&mut d, KeyCode::Enter);
    let second = PaceKind::SecondVote {
        decision: course.decisions[3].id.clone(),
    };
    assert_eq!(effects, [DashEffect::SendPace(second.clone())]);
    assert!(d.describe(&second).contains(&course.decisions[3].title));
    typed(&mut d, "w9");
    assert!(press(&mut d, KeyCode::Enter).is_empty(), "no decision 9");
    let mut scenarios: Vec<_> = c.scenarios.iter().collect();
    scenarios.sort_by_key(|s| s.position);
    typed(&mut d, "s1 Naive");
    let effects = press(&mut d, KeyCode::Enter);
    assert_eq!(
        effects,
        [DashEffect::SendPace(PaceKind::OpenScenario {
            scenario: scenarios[0].id.clone(),
            mode: "naive".into()
        })]
    );
    typed(&mut d, &format!("s{} ", scenarios[1].id));
    let effects = press(&mut d, KeyCode::Enter);
    assert_eq!(
        effects,
        [DashEffect::SendPace(PaceKind::OpenScenario {
            scenario: scenarios[1].id.clone(),
            mode: "safe".into()
        })],
        "an id works too and the mode defaults to safe"
    );
}

#[test]
fn the_mode_words_of_both_languages_name_a_mode() {
    let c = content();
    let mut scenarios: Vec<_> = c.scenarios.iter().collect();
    scenarios.sort_by_key(|s| s.position);
    let mut d = dash();
    // The words the simulator shows in German and English, in any case, and the ids.
    for (typed_mode, mode) in [
        ("naiv", "naive"),
        ("SICHER", "safe"),
        ("Falle", "pitfall"),
        ("naive", "naive"),
        ("Safe", "safe"),
        ("pitfall", "pitfall"),
    ] {
        typed(&mut d, &format!("s2 {typed_mode}"));
        let effects = press(&mut d, KeyCode::Enter);
        assert_eq!(
            effects,
            [DashEffect::SendPace(PaceKind::OpenScenario {
                scenario: scenarios[1].id.clone(),
                mode: mode.into()
            })],
            "{typed_mode}"
        );
    }
}

#[test]
fn bad_pacing_input_is_a_note_and_sends_nothing() {
    let mut d = dash();
    typed(&mut d, "c99");
    assert!(press(&mut d, KeyCode::Enter).is_empty());
    let (text, error) = d.note.clone().expect("a note");
    assert!(error && text.contains("99"), "{text}");
    typed(&mut d, "s1 fast");
    assert!(press(&mut d, KeyCode::Enter).is_empty());
    assert!(d.note.as_ref().is_some_and(|(t, _)| t.contains("fast")));
    typed(&mut d, "r1");
    press(&mut d, KeyCode::Backspace);
    assert!(press(&mut d, KeyCode::Esc).is_empty());
    assert!(d.prompt.is_none(), "Esc cancels");
}

#[test]
fn scrolling_stops_at_the_last_page() {
    let mut d = dash();
    for _ in 0..50 {
        press(&mut d, KeyCode::Down);
    }
    // At 80 columns the key help takes two rows: 20 body rows are left of 24.
    assert_eq!(d.page(), 20);
    assert_eq!(d.clamped_scroll(30), 30 - 20);
    assert_eq!(d.clamped_scroll(10), 0);
    d.clamp_to(30);
    assert_eq!(d.scroll, 10, "clamping keeps Up responsive");
}

#[test]
fn x_asks_for_a_trainee_and_removes_them() {
    let mut d = dash();
    typed(&mut d, "xFake Trainee");
    assert_eq!(
        d.prompt.as_ref().map(|p| p.kind),
        Some(PromptKind::Kick),
        "x opens the removal prompt"
    );
    assert_eq!(confirm(&mut d), [DashEffect::Kick("Fake Trainee".into())]);
    d.update(DashMsg::Kicked(Ok("Fake Trainee".into())));
    let (text, error) = d.note.clone().expect("a note");
    assert!(!error && text.contains("Fake Trainee"), "{text}");
    d.update(DashMsg::Kicked(Err(DashFailure::UnknownTrainee {
        who: "Bob".into(),
    })));
    assert!(
        d.note
            .as_ref()
            .is_some_and(|(t, e)| *e && t.contains("Bob"))
    );
    // An empty name sends nothing.
    typed(&mut d, "x");
    assert!(press(&mut d, KeyCode::Enter).is_empty());
}

#[test]
fn the_key_help_lists_every_key_and_fits_the_width() {
    for lang in [Lang::De, Lang::En] {
        for width in [40u16, 80, 100] {
            let mut d = Dashboard::new(content(), lang, dash().access, false);
            d.update(DashMsg::Resized { width, height: 24 });
            let rows = d.key_help();
            for row in &rows {
                assert!(
                    row.width() < usize::from(width),
                    "{lang:?} at {width}: {row:?} is too wide"
                );
            }
            let all = rows.join(" · ");
            for key in ["1-3 ", "c ", "s ", "r ", "a ", "d ", "x ", "v ", "q "] {
                assert!(
                    all.contains(key),
                    "{lang:?} at {width}: {key:?} missing in {all}"
                );
            }
            // The body gives up exactly the rows the key help takes.
            assert_eq!(usize::from(d.page()), 24 - 2 - rows.len());
        }
    }
}

#[test]
fn d_asks_for_a_row_to_remove_and_x_for_a_trainee_to_kick() {
    let mut d = dash();
    typed(&mut d, "dBob");
    assert_eq!(
        d.prompt.as_ref().map(|p| p.kind),
        Some(PromptKind::RemoveRow)
    );
    let effects = confirm(&mut d);
    assert_eq!(effects, [DashEffect::RemoveRow("Bob".into())]);
    d.update(DashMsg::RowRemoved(Ok("Bob".into())));
    let (note, error) = d.note.clone().expect("a note");
    assert!(note.contains("Bob") && !error, "{note}");
    typed(&mut d, "xBob");
    assert_eq!(confirm(&mut d), [DashEffect::Kick("Bob".into())]);
    // An empty answer sends nothing; a refusal is an error note.
    typed(&mut d, "d");
    assert!(press(&mut d, KeyCode::Enter).is_empty());
    d.update(DashMsg::RowRemoved(Err(DashFailure::UnknownTrainee {
        who: "Zed".into(),
    })));
    assert_eq!(
        d.note,
        Some(("No trainee called Zed in this session.".into(), true))
    );
}

#[test]
fn a_asks_whose_stuck_signal_to_acknowledge() {
    let mut d = dash();
    typed(&mut d, "aBob");
    assert_eq!(
        d.prompt.as_ref().map(|p| p.kind),
        Some(PromptKind::Acknowledge)
    );
    assert_eq!(
        press(&mut d, KeyCode::Enter),
        [DashEffect::Acknowledge("Bob".into())]
    );
    d.update(DashMsg::Acknowledged(Ok("Bob".into())));
    assert!(
        d.note
            .as_ref()
            .is_some_and(|(t, e)| t.contains("Bob") && !e)
    );
    d.update(DashMsg::Acknowledged(Err(DashFailure::NotStuck {
        name: "Bob".into(),
    })));
    assert_eq!(d.note, Some(("Bob is not stuck".into(), true)));
}

#[test]
fn a_host_that_refuses_or_fails_is_said_in_the_dashboards_language() {
    let failures = || {
        [
            DashMsg::Acknowledged(Err(DashFailure::NotStuck { name: "Bob".into() })),
            DashMsg::Kicked(Err(DashFailure::UnknownTrainee { who: "Zed".into() })),
            DashMsg::DoorDone(Err(DashFailure::Database("disk I/O error".into()))),
            DashMsg::PaceDone(Err(DashFailure::PaceRefused(
                "unknown chapter id \"x\"".into(),
            ))),
        ]
    };
    let said = |lang: Lang| {
        let mut d = Dashboard::new(content(), lang, dash().access, false);
        failures()
            .into_iter()
            .map(|msg| {
                d.update(msg);
                let (text, error) = d.note.clone().expect("a note");
                assert!(error, "{text}");
                text
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        said(Lang::De),
        [
            "Bob steckt nicht fest",
            "In dieser Sitzung heißt niemand Zed.",
            "Host-Datenbank: disk I/O error",
            "unknown chapter id \"x\"",
        ]
    );
    assert_eq!(
        said(Lang::En),
        [
            "Bob is not stuck",
            "No trainee called Zed in this session.",
            "host database: disk I/O error",
            "unknown chapter id \"x\"",
        ]
    );
}

#[test]
fn a_d_and_x_pick_a_row_by_arrows_number_or_the_start_of_a_name() {
    use domain::workshop::summary::TraineeView;
    let mut d = dash();
    let row = |id: &str, name: &str| TraineeView {
        id: id.into(),
        name: name.into(),
        ..TraineeView::default()
    };
    d.summary.trainees = vec![
        row("a1", "Ada"),
        row("e1", "Emil Müller"),
        row("e2", "Emma Schulz"),
    ];
    typed(&mut d, "aemil");
    assert_eq!(
        press(&mut d, KeyCode::Enter),
        [DashEffect::Acknowledge("e1".into())]
    );
    typed(&mut d, "dEM");
    assert!(press(&mut d, KeyCode::Enter).is_empty(), "two fit");
    let (note, error) = d.note.clone().expect("a note");
    assert!(
        error && note.contains("Emil Müller") && note.contains("Emma Schulz"),
        "{note}"
    );
    assert!(d.prompt.is_some(), "the prompt stays open for more letters");
    typed(&mut d, "ma");
    assert_eq!(confirm(&mut d), [DashEffect::RemoveRow("e2".into())]);
    typed(&mut d, "x3");
    assert_eq!(confirm(&mut d), [DashEffect::Kick("e2".into())]);
    typed(&mut d, "a");
    press(&mut d, KeyCode::Down);
    press(&mut d, KeyCode::Down);
    press(&mut d, KeyCode::Up);
    assert_eq!(
        press(&mut d, KeyCode::Enter),
        [DashEffect::Acknowledge("a1".into())],
        "down, down, up: the first row"
    );
}

//! The report flow after a finished quiz (address, one-time code, name, instructor copy) as
//! scripted messages through `App::update`.

use super::tests::{answer, app, started};
use crate::input::KeyCode;
use crate::test_app::{chars, key};
use crate::*;
use content::key;
use domain::otp::Verdict;
use domain::outbox::MailStatus;

fn report_state(app: &App) -> &ReportState {
    match &app.screen {
        Screen::Report(s) => s,
        other => panic!("not on the report screen: {other:?}"),
    }
}

fn report_state_mut(app: &mut App) -> &mut ReportState {
    match &mut app.screen {
        Screen::Report(s) => s,
        other => panic!("not on the report screen: {other:?}"),
    }
}

#[test]
fn report_flow_address_code_and_status() {
    let mut app = app();
    finish_quiz_and_open_report(&mut app);
    enter_address(&mut app);
    confirm_code(&mut app);
    app.update(Msg::MailUpdated {
        report: Some(MailStatus::Sent),
        delivery: Some(Delivery::Smtp),
    });
    assert_eq!(app.session.report_status, Some(MailStatus::Sent));
    let last = &report_state(&app).messages.last().expect("msg").0;
    assert!(last.contains("ada@example.org"), "{last}");
    key(&mut app, KeyCode::Esc);
    assert!(matches!(app.screen, Screen::Quiz(_)));
}

/// Answers every question, opens the report (saved at once) and checks `?` and typing there.
fn finish_quiz_and_open_report(app: &mut App) {
    started(app);
    for _ in 0..content::QUESTION_COUNT {
        answer(app, true);
        key(app, KeyCode::Enter);
    }
    let effects = chars(app, "m");
    assert_eq!(
        effects,
        vec![Effect::Mail(MailRequest::SaveReport {
            lang: Lang::En,
            name: None
        })]
    );
    app.update(Msg::ReportSaved(Ok("/data/reports/report-9.html".into())));
    assert!(report_state(app).messages[0].0.contains("report-9.html"));
    chars(app, "?");
    assert!(app.session.help, "? opens the help, also while typing");
    chars(app, "x");
    assert!(!app.session.help && report_state(app).input.is_empty());
}

/// A dotless domain is refused with its reason; the fixed address asks for a code.
fn enter_address(app: &mut App) {
    assert!(chars(app, "ada@example").is_empty());
    assert!(key(app, KeyCode::Enter).is_empty());
    let (text, error) = report_state(app).messages.last().expect("message").clone();
    assert!(error);
    assert_eq!(
        text,
        app.session
            .strings()
            .get(key::address::ERR_DOMAIN_NOT_DOTTED)
    );
    let effects = chars(app, ".org");
    assert!(effects.is_empty());
    let effects = key(app, KeyCode::Enter);
    assert_eq!(
        effects,
        vec![Effect::Mail(MailRequest::RequestCode {
            address: "ada@example.org".into(),
            lang: Lang::En
        })]
    );
    assert!(report_state(app).busy);
    app.update(Msg::CodeRequested(Ok(CodeRequestOutcome::Sent(
        Delivery::File("/data/mail/000001-code.eml".into()),
    ))));
    assert!(!report_state(app).busy);
}

/// A wrong code counts down, `r` asks again, a cooldown is said, the right code is accepted.
fn confirm_code(app: &mut App) {
    chars(app, "123456");
    let effects = key(app, KeyCode::Enter);
    assert!(
        report_state(app).input.is_empty(),
        "the code leaves the state"
    );
    assert!(
        !format!("{effects:?}").contains("123456"),
        "never in debug output"
    );
    assert!(matches!(
        &effects[..],
        [Effect::Mail(MailRequest::ConfirmCode {
            consent: false,
            ..
        })]
    ));
    app.update(Msg::CodeChecked(Ok(Verdict::Wrong { remaining: 4 })));
    assert_eq!(report_state(app).remaining, 4);
    assert_eq!(report_state(app).phase, ReportPhase::Code);
    assert_eq!(
        chars(app, "r"),
        vec![Effect::Mail(MailRequest::RequestCode {
            address: "ada@example.org".into(),
            lang: Lang::En
        })],
        "r asks for a new code"
    );
    app.update(Msg::CodeRequested(Ok(CodeRequestOutcome::Denied {
        key: key::otp::COOLDOWN,
        secs: 42,
    })));
    assert!(
        report_state(app)
            .messages
            .last()
            .expect("msg")
            .0
            .contains("42")
    );
    chars(app, "654321");
    key(app, KeyCode::Enter);
    app.update(Msg::CodeChecked(Ok(Verdict::Accepted { code_id: 1 })));
    assert_eq!(report_state(app).phase, ReportPhase::Done);
    assert!(
        report_state(app).messages.iter().all(|(_, error)| !error),
        "an accepted code clears the earlier complaints: {:?}",
        report_state(app).messages
    );
}

#[test]
fn instructor_copy_is_asked_only_when_configured() {
    let mut app = app();
    app.session.instructor_cc = Some("coach@example.org".into());
    started(&mut app);
    for _ in 0..content::QUESTION_COUNT {
        answer(&mut app, true);
        key(&mut app, KeyCode::Enter);
    }
    chars(&mut app, "m");
    chars(&mut app, "ada@example.org");
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    assert_eq!(report_state(&app).phase, ReportPhase::Consent);
    let effects = chars(&mut app, "y");
    assert!(matches!(
        &effects[..],
        [Effect::Mail(MailRequest::RequestCode { .. })]
    ));
    assert!(
        chars(&mut app, "1").is_empty(),
        "typing waits while the request runs"
    );
    assert!(report_state(&app).input.is_empty());
    app.update(Msg::CodeRequested(Ok(CodeRequestOutcome::Sent(
        Delivery::Smtp,
    ))));
    chars(&mut app, "111111");
    let effects = key(&mut app, KeyCode::Enter);
    assert!(matches!(
        &effects[..],
        [Effect::Mail(MailRequest::ConfirmCode { consent: true, .. })]
    ));
}

#[test]
fn joined_the_hosts_offer_alone_asks_for_the_instructor_copy_once() {
    let mut app = app();
    // The trainee's own config names someone; joined, only the host's offer counts.
    app.session.instructor_cc = Some("someone@example.org".into());
    app.session.workshop = Some(crate::WorkshopLine {
        session: "Room 1".into(),
        reachable: true,
        pending: 0,
    });
    started(&mut app);
    for _ in 0..content::QUESTION_COUNT {
        answer(&mut app, true);
        key(&mut app, KeyCode::Enter);
    }
    chars(&mut app, "m");
    chars(&mut app, "ada@example.org");
    let effects = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(
            &effects[..],
            [Effect::Mail(MailRequest::RequestCode { .. })]
        ),
        "no question before the host answered: {effects:?}"
    );
    let offered = || Msg::CodeRequested(Ok(CodeRequestOutcome::SentCopyOffered(Delivery::Smtp)));
    app.update(offered());
    assert_eq!(report_state(&app).phase, ReportPhase::Consent);
    assert!(
        chars(&mut app, "n").is_empty(),
        "the code is already on its way"
    );
    assert_eq!(report_state(&app).phase, ReportPhase::Code);
    // A new code (r) does not ask again.
    assert!(!chars(&mut app, "r").is_empty());
    app.update(offered());
    assert_eq!(report_state(&app).phase, ReportPhase::Code);
    chars(&mut app, "111111");
    let effects = key(&mut app, KeyCode::Enter);
    assert!(matches!(
        &effects[..],
        [Effect::Mail(MailRequest::ConfirmCode {
            consent: false,
            ..
        })]
    ));
}

#[test]
fn the_report_needs_a_finished_quiz() {
    let mut app = app();
    started(&mut app);
    assert!(chars(&mut app, "m").is_empty());
    assert!(matches!(app.screen, Screen::Quiz(_)));
}

#[test]
fn the_name_field_beside_the_address_goes_into_the_report() {
    let mut app = app();
    app.session.instructor_cc = Some("coach@example.org".into());
    started(&mut app);
    for _ in 0..content::QUESTION_COUNT {
        answer(&mut app, true);
        key(&mut app, KeyCode::Enter);
    }
    chars(&mut app, "m");
    chars(&mut app, "ada@example.org");
    key(&mut app, KeyCode::Tab);
    assert!(report_state(&app).name_focus, "Tab moves to the name");
    chars(&mut app, "  Ada\u{7}  Lovelace ");
    assert_eq!(
        report_state(&app).name,
        "  Ada  Lovelace ",
        "control characters are not typed"
    );
    assert_eq!(report_state(&app).input, "ada@example.org");
    // Enter in the name goes back to the address; Enter there sends the checked name along.
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    assert!(!report_state(&app).name_focus);
    let effects = key(&mut app, KeyCode::Enter);
    assert_eq!(
        effects,
        vec![Effect::Mail(MailRequest::SaveReport {
            lang: Lang::En,
            name: Some("Ada  Lovelace".into())
        })],
        "the local copy is saved again with the name"
    );
    chars(&mut app, "y");
    app.update(Msg::CodeRequested(Ok(CodeRequestOutcome::Sent(
        Delivery::Smtp,
    ))));
    chars(&mut app, "111111");
    let effects = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(
            &effects[..],
            [Effect::Mail(MailRequest::ConfirmCode { consent: true, name: Some(name), .. })]
                if name == "Ada  Lovelace"
        ),
        "{effects:?}"
    );
}

#[test]
fn a_too_long_name_is_refused_with_a_message_and_the_name_field_focused() {
    let mut app = app();
    started(&mut app);
    for _ in 0..content::QUESTION_COUNT {
        answer(&mut app, true);
        key(&mut app, KeyCode::Enter);
    }
    chars(&mut app, "m");
    chars(&mut app, "ada@example.org");
    key(&mut app, KeyCode::Tab);
    // The field stops at the limit, so a long paste is cut, never refused.
    chars(&mut app, &"x".repeat(80));
    assert_eq!(
        report_state(&app).name.chars().count(),
        domain::report::MAX_NAME_CHARS
    );
    report_state_mut(&mut app).name.push('y');
    key(&mut app, KeyCode::Tab);
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    let state = report_state(&app);
    assert!(state.name_focus && state.phase == ReportPhase::Address);
    let (text, error) = state.messages.last().expect("message").clone();
    assert!(error);
    assert_eq!(text, app.session.strings().get(key::report::NAME_TOO_LONG));
}

/// "a code is on its way" stands once after `r` asks for a new one, and a raw SMTP error reaches
/// the German screen as a German sentence quoting the server.
#[test]
fn a_new_code_is_announced_once_and_a_server_refusal_in_the_learners_language() {
    let mut app = app();
    app.session.lang = Lang::De;
    started(&mut app);
    for _ in 0..content::QUESTION_COUNT {
        answer(&mut app, true);
        key(&mut app, KeyCode::Enter);
    }
    chars(&mut app, "m");
    chars(&mut app, "ada@example.org");
    key(&mut app, KeyCode::Enter);
    let sent = || Msg::CodeRequested(Ok(CodeRequestOutcome::Sent(Delivery::Smtp)));
    app.update(sent());
    chars(&mut app, "r");
    app.update(sent());
    let on_its_way = |app: &App| {
        report_state(app)
            .messages
            .iter()
            .filter(|(text, _)| text.starts_with("Ein 6-stelliger Code ist unterwegs"))
            .count()
    };
    assert_eq!(on_its_way(&app), 1, "{:?}", report_state(&app).messages);

    let raw = "permanent server error: permanent error (550): 5.1.1 no such user";
    app.update(Msg::MailUpdated {
        report: None,
        delivery: Some(Delivery::Failed(raw.into())),
    });
    let (text, error) = report_state(&app).messages.last().expect("a line").clone();
    assert!(error);
    assert!(
        text.contains("Der Mailserver hat die Adresse abgelehnt (Code 550: „5.1.1 no such user“)"),
        "{text}"
    );
    assert!(!text.contains("permanent server error"), "{text}");
}

/// The finished quiz's report screen with `address` confirmed and a code asked for.
fn at_code(name: &str) -> App {
    let mut app = app();
    started(&mut app);
    for _ in 0..content::QUESTION_COUNT {
        answer(&mut app, true);
        key(&mut app, KeyCode::Enter);
    }
    chars(&mut app, "m");
    if !name.is_empty() {
        key(&mut app, KeyCode::Tab);
        chars(&mut app, name);
        key(&mut app, KeyCode::Tab);
    }
    chars(&mut app, "ada@example.org");
    key(&mut app, KeyCode::Enter);
    app
}

/// "A new code is possible in 42 s" counts down while the learner waits, and says when the
/// wait is over; the screen asks for ticks only while it counts.
#[test]
fn the_wait_for_a_new_code_counts_down() {
    let mut app = at_code("");
    app.update(Msg::CodeRequested(Ok(CodeRequestOutcome::Denied {
        key: key::otp::COOLDOWN,
        secs: 3,
    })));
    let last = |app: &App| report_state(app).messages.last().expect("a line").0.clone();
    assert_eq!(last(&app), "A new code is possible in 3 s.");
    assert_eq!(app.tick_interval_ms(), Some(crate::report::WAIT_TICK_MS));
    app.update(Msg::Tick { elapsed_ms: 1_000 });
    assert_eq!(last(&app), "A new code is possible in 2 s.");
    app.update(Msg::Tick { elapsed_ms: 1_500 });
    assert_eq!(last(&app), "A new code is possible in 1 s.");
    app.update(Msg::Tick { elapsed_ms: 600 });
    assert_eq!(last(&app), "A new code is possible now: r asks for it.");
    assert_eq!(
        report_state(&app).messages.len(),
        report_state(&app)
            .messages
            .iter()
            .filter(|(t, _)| !t.contains(" s."))
            .count(),
        "the line was replaced, not added"
    );
    assert_eq!(
        app.tick_interval_ms(),
        None,
        "no clock once the wait is over"
    );
}

/// The name given on the first request is there again on the next one (and goes with the
/// local copy); clearing the results forgets it.
#[test]
fn the_name_is_offered_again_on_the_next_request() {
    let mut app = at_code("Ada");
    assert_eq!(app.session.report_name.as_deref(), Some("Ada"));
    key(&mut app, KeyCode::Esc);
    let effects = chars(&mut app, "m");
    assert_eq!(report_state(&app).name, "Ada");
    assert!(
        effects.contains(&Effect::Mail(MailRequest::SaveReport {
            lang: Lang::En,
            name: Some("Ada".into())
        })),
        "{effects:?}"
    );
    app.update(Msg::ResultsCleared(Ok(())));
    assert_eq!(app.session.report_name, None);
}

#[test]
fn a_workshop_host_of_another_protocol_is_named_with_the_version_to_install() {
    let mut app = app();
    started(&mut app);
    for _ in 0..content::QUESTION_COUNT {
        answer(&mut app, true);
        key(&mut app, KeyCode::Enter);
    }
    chars(&mut app, "m");
    app.update(Msg::ReportSaved(Ok("/data/reports/report-9.html".into())));
    chars(&mut app, "ada@example.org");
    key(&mut app, KeyCode::Enter);
    let newer = domain::workshop::wire::VersionRefusal {
        protocol: 99,
        queuelab: "99.0.0".into(),
    };
    app.update(Msg::CodeRequested(Err(MailFlowError::HostVersion(newer))));
    let (text, error) = report_state(&app).messages.last().expect("message").clone();
    assert!(error && !report_state(&app).busy);
    assert!(
        text.contains("Update queuelab to version 99.0.0") && text.contains("protocol 99"),
        "{text}"
    );
}

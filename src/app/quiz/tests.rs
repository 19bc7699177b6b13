//! The quiz and report flow as scripted messages through `App::update`.

use crate::app::input::KeyCode;
use crate::app::test_app::{chars, key, test_app};
use crate::app::*;
use crate::content::Lang;
use crate::domain::otp::Verdict;
use crate::domain::outbox::MailStatus;
use crate::domain::quiz::Attempt;

fn app() -> App {
    test_app(Lang::En, 80, 24)
}

fn phase(app: &App) -> Option<QuizPhase> {
    match &app.screen {
        Screen::Quiz(s) => Some(s.phase),
        _ => None,
    }
}

fn report_state(app: &App) -> &ReportState {
    match &app.screen {
        Screen::Report(s) => s,
        other => panic!("not on the report screen: {other:?}"),
    }
}

/// Opens the quiz from Home and delivers a started attempt.
fn started(app: &mut App) {
    let effects = chars(app, "7");
    assert_eq!(effects, vec![Effect::Store(StoreRequest::StartAttempt)]);
    assert_eq!(phase(app), Some(QuizPhase::Starting));
    let mut attempt = Attempt::new(&app.session.course().quiz, 42);
    attempt.id = 9;
    app.update(Msg::AttemptStarted(Ok(attempt)));
    assert_eq!(phase(app), Some(QuizPhase::Question));
}

/// Answers the current question (rightly or not) with number keys and Enter.
fn answer(app: &mut App, right: bool) -> Vec<Effect> {
    let attempt = app.session.quiz.attempt.clone().expect("attempt");
    let quiz = app.session.course().quiz.clone();
    let question = attempt.next_question(&quiz).expect("a question is open");
    for (i, option) in attempt.options(question).iter().enumerate() {
        if option.correct == right {
            chars(app, &(i + 1).to_string());
            if !question.multi {
                break;
            }
        }
    }
    key(app, KeyCode::Enter)
}

#[test]
fn the_whole_quiz_saves_each_answer_and_ends_in_the_result() {
    let mut app = app();
    started(&mut app);
    let total = crate::content::QUESTION_COUNT;
    for n in 0..total {
        let effects = answer(&mut app, n != 2);
        let [
            Effect::Store(StoreRequest::SaveAnswer {
                attempt_id,
                correct,
                finished,
                ..
            }),
        ] = &effects[..]
        else {
            panic!("question {n}: {effects:?}");
        };
        assert_eq!(*attempt_id, 9);
        assert_eq!(*correct, n != 2, "question {n}");
        assert_eq!(finished.is_some(), n + 1 == total);
        assert!(matches!(phase(&app), Some(QuizPhase::Feedback { .. })));
        key(&mut app, KeyCode::Enter);
    }
    assert_eq!(phase(&app), Some(QuizPhase::Result));
    assert!(app.session.quiz.finished);
    let attempt = app.session.quiz.attempt.clone().expect("attempt");
    assert_eq!(
        attempt.score(&app.session.course().quiz).correct as usize,
        total - 1
    );
    assert_eq!(
        chars(&mut app, "r"),
        vec![Effect::Store(StoreRequest::StartAttempt)],
        "retake"
    );
}

#[test]
fn report_flow_address_code_and_status() {
    let mut app = app();
    started(&mut app);
    for _ in 0..crate::content::QUESTION_COUNT {
        answer(&mut app, true);
        key(&mut app, KeyCode::Enter);
    }
    let effects = chars(&mut app, "m");
    assert_eq!(
        effects,
        vec![Effect::Mail(MailRequest::SaveReport {
            lang: Lang::En,
            name: None
        })]
    );
    app.update(Msg::ReportSaved(Ok("/data/reports/report-9.html".into())));
    assert!(report_state(&app).messages[0].0.contains("report-9.html"));
    chars(&mut app, "?");
    assert!(app.session.help, "? opens the help, also while typing");
    chars(&mut app, "x");
    assert!(!app.session.help && report_state(&app).input.is_empty());

    assert!(chars(&mut app, "ada@example").is_empty());
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    let (text, error) = report_state(&app).messages.last().expect("message").clone();
    assert!(error);
    assert_eq!(
        text,
        app.session.strings().get("address.err_domain_not_dotted")
    );
    let effects = chars(&mut app, ".org");
    assert!(effects.is_empty());
    let effects = key(&mut app, KeyCode::Enter);
    assert_eq!(
        effects,
        vec![Effect::Mail(MailRequest::RequestCode {
            address: "ada@example.org".into(),
            lang: Lang::En
        })]
    );
    assert!(report_state(&app).busy);
    app.update(Msg::CodeRequested(Ok(CodeRequestOutcome::Sent(
        Delivery::File("/data/mail/000001-code.eml".into()),
    ))));
    assert!(!report_state(&app).busy);
    chars(&mut app, "123456");
    let effects = key(&mut app, KeyCode::Enter);
    assert!(
        report_state(&app).input.is_empty(),
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
    assert_eq!(report_state(&app).remaining, 4);
    assert_eq!(report_state(&app).phase, ReportPhase::Code);
    assert_eq!(
        chars(&mut app, "r"),
        vec![Effect::Mail(MailRequest::RequestCode {
            address: "ada@example.org".into(),
            lang: Lang::En
        })],
        "r asks for a new code"
    );
    app.update(Msg::CodeRequested(Ok(CodeRequestOutcome::Denied {
        key: "otp.cooldown",
        secs: 42,
    })));
    assert!(
        report_state(&app)
            .messages
            .last()
            .expect("msg")
            .0
            .contains("42")
    );
    chars(&mut app, "654321");
    key(&mut app, KeyCode::Enter);
    app.update(Msg::CodeChecked(Ok(Verdict::Accepted { code_id: 1 })));
    assert_eq!(report_state(&app).phase, ReportPhase::Done);
    assert!(
        report_state(&app).messages.iter().all(|(_, error)| !error),
        "an accepted code clears the earlier complaints: {:?}",
        report_state(&app).messages
    );
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

#[test]
fn instructor_copy_is_asked_only_when_configured() {
    let mut app = app();
    app.session.instructor_cc = Some("coach@example.org".into());
    started(&mut app);
    for _ in 0..crate::content::QUESTION_COUNT {
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
fn the_report_needs_a_finished_quiz() {
    let mut app = app();
    started(&mut app);
    assert!(chars(&mut app, "m").is_empty());
    assert!(matches!(app.screen, Screen::Quiz(_)));
}

#[test]
fn result_scrolling_stops_at_the_last_line_and_end_jumps_there() {
    let mut app = test_app(Lang::De, 60, 18);
    started(&mut app);
    while app
        .session
        .quiz
        .attempt
        .as_ref()
        .is_some_and(|a| !a.is_complete(&app.session.course().quiz))
    {
        chars(&mut app, "12");
        key(&mut app, KeyCode::Enter);
        key(&mut app, KeyCode::Enter);
    }
    assert_eq!(phase(&app), Some(QuizPhase::Result));
    let Screen::Quiz(state) = &app.screen else {
        panic!("not on the quiz");
    };
    let max = super::text::max_scroll(&app.session, state);
    assert!(max > 0, "the result is longer than one screen at 60x18");
    for _ in 0..50 {
        key(&mut app, KeyCode::PageDown);
    }
    let scroll = |app: &App| match &app.screen {
        Screen::Quiz(s) => s.scroll,
        _ => u16::MAX,
    };
    assert_eq!(scroll(&app), max, "PgDn stops at the last page");
    key(&mut app, KeyCode::Home);
    assert_eq!(scroll(&app), 0);
    chars(&mut app, "G");
    assert_eq!(scroll(&app), max, "G jumps to the end");
}

#[test]
fn the_name_field_beside_the_address_goes_into_the_report() {
    let mut app = app();
    app.session.instructor_cc = Some("coach@example.org".into());
    started(&mut app);
    for _ in 0..crate::content::QUESTION_COUNT {
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
    for _ in 0..crate::content::QUESTION_COUNT {
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
        crate::domain::report::MAX_NAME_CHARS
    );
    report_state_mut(&mut app).name.push('y');
    key(&mut app, KeyCode::Tab);
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    let state = report_state(&app);
    assert!(state.name_focus && state.phase == ReportPhase::Address);
    let (text, error) = state.messages.last().expect("message").clone();
    assert!(error);
    assert_eq!(text, app.session.strings().get("report.name_too_long"));
}

fn report_state_mut(app: &mut App) -> &mut ReportState {
    match &mut app.screen {
        Screen::Report(s) => s,
        other => panic!("not on the report screen: {other:?}"),
    }
}

#[test]
fn enter_with_nothing_chosen_says_what_to_do_and_the_arrows_choose() {
    let mut app = app();
    started(&mut app);
    let quiz = app.session.course().quiz.clone();
    let attempt = app.session.quiz.attempt.clone().expect("attempt");
    let multi = attempt.next_question(&quiz).expect("open").multi;
    assert!(
        key(&mut app, KeyCode::Enter).is_empty(),
        "a stray Enter answers nothing"
    );
    assert_eq!(phase(&app), Some(QuizPhase::Question));
    let hint = app.session.status.as_ref().expect("a hint").text.clone();
    let wanted = if multi {
        "quiz.select_first"
    } else {
        "quiz.select_first_single"
    };
    assert_eq!(hint, app.session.strings().get(wanted));
    key(&mut app, KeyCode::Down);
    if multi {
        chars(&mut app, " ");
    }
    let effects = key(&mut app, KeyCode::Enter);
    let shown = attempt.options(attempt.next_question(&quiz).expect("open"));
    assert!(
        matches!(
            &effects[..],
            [Effect::Store(StoreRequest::SaveAnswer { chosen, .. })]
                if chosen.len() == 1 && chosen.contains(&shown[1].id)
        ),
        "the option the arrow moved to is the answer: {effects:?}"
    );
}

#[test]
fn the_nothing_chosen_hint_ends_with_the_answer_it_asked_for() {
    let mut app = app();
    started(&mut app);
    answer(&mut app, true);
    key(&mut app, KeyCode::Enter);
    answer(&mut app, true);
    key(&mut app, KeyCode::Enter);
    // Question 3: a stray Enter brings the hint.
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    assert!(app.session.status.is_some(), "the hint is shown");
    answer(&mut app, false);
    assert_eq!(app.session.status, None, "gone with the answer");
    for _ in 3..crate::content::QUESTION_COUNT {
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.session.status, None, "not on a later question");
        answer(&mut app, true);
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(phase(&app), Some(QuizPhase::Result));
    assert_eq!(app.session.status, None, "not on the result");
}

#[test]
fn a_new_attempt_says_so() {
    let mut app = app();
    started(&mut app);
    let status = app.session.status.as_ref().expect("a notice");
    assert_eq!(
        status.text,
        app.session.strings().get("quiz.attempt_started")
    );
}

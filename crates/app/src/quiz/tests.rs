//! The quiz and report flow as scripted messages through `App::update`.

use crate::input::KeyCode;
use crate::test_app::{chars, key, test_app};
use crate::*;
use content::Lang;
use content::key;
use domain::quiz::Attempt;

pub(super) fn app() -> App {
    test_app(Lang::En, 80, 24)
}

pub(super) fn phase(app: &App) -> Option<QuizPhase> {
    match &app.screen {
        Screen::Quiz(s) => Some(s.phase),
        _ => None,
    }
}

/// Opens the quiz from Home and delivers a started attempt.
pub(super) fn started(app: &mut App) {
    let effects = chars(app, "7");
    assert_eq!(effects, vec![Effect::Store(StoreRequest::StartAttempt)]);
    assert_eq!(phase(app), Some(QuizPhase::Starting));
    let mut attempt = Attempt::new(&app.session.course().quiz, 42);
    attempt.id = 9;
    app.update(Msg::AttemptStarted(Ok(attempt)));
    assert_eq!(phase(app), Some(QuizPhase::Question));
}

/// Answers the current question (rightly or not) with number keys and Enter.
pub(super) fn answer(app: &mut App, right: bool) -> Vec<Effect> {
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
    let total = content::QUESTION_COUNT;
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
        key::quiz::SELECT_FIRST
    } else {
        key::quiz::SELECT_FIRST_SINGLE
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
    for _ in 3..content::QUESTION_COUNT {
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
        app.session.strings().get(key::quiz::ATTEMPT_STARTED)
    );
}

/// The result screen lists the very next steps the report lists: one source for both.
#[test]
fn the_result_shows_the_reports_next_steps() {
    let mut app = test_app(Lang::En, 200, 60);
    started(&mut app);
    let mut n = 0;
    while app
        .session
        .quiz
        .attempt
        .as_ref()
        .is_some_and(|a| !a.is_complete(&app.session.course().quiz))
    {
        answer(&mut app, n % 3 != 0);
        key(&mut app, KeyCode::Enter);
        n += 1;
    }
    assert_eq!(phase(&app), Some(QuizPhase::Result));
    let attempt = app.session.quiz.attempt.clone().expect("attempt");
    let steps = domain::report::next_steps_for(app.session.course(), &attempt);
    let level_steps = attempt
        .score(&app.session.course().quiz)
        .level
        .map(|l| l.next_steps.clone())
        .unwrap_or_default();
    assert_ne!(steps, level_steps, "wrong topics add steps of their own");
    let Screen::Quiz(state) = &app.screen else {
        panic!("not on the quiz");
    };
    let text: Vec<String> = super::text::lines(&app.session, state, 190)
        .iter()
        .map(|l| l.text().trim().to_owned())
        .collect();
    // The screen shows inline code without its backticks.
    for step in &steps {
        let shown = format!("- {}", step.replace('`', ""));
        assert!(
            text.iter().any(|l| l == &shown),
            "{step:?} missing from the result:\n{text:#?}"
        );
    }
}

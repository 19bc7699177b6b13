//! Home shows what the store holds when it comes back into view: another process (`queuelab
//! quiz --plain`) may have finished an attempt meanwhile, and opening the quiz must then show
//! that result instead of resuming a stale attempt.

use super::input::KeyCode;
use super::test_app::{chars, key, test_app};
use super::*;
use content::Lang;
use domain::quiz::Attempt;
use std::collections::BTreeSet;

#[test]
fn coming_back_to_home_reads_the_store_again_and_the_quiz_opens_on_the_fresh_state() {
    let mut app = test_app(Lang::De, 80, 24);
    // This session knows an unfinished attempt.
    let quiz = app.session.course().quiz.clone();
    let attempt = Attempt::new(&quiz, 3);
    app.session.quiz = QuizRecord {
        attempt: Some(attempt.clone()),
        finished: false,
    };
    chars(&mut app, "2");
    let effects = key(&mut app, KeyCode::Esc);
    assert!(matches!(app.screen, Screen::Home(_)));
    assert!(
        effects.contains(&Effect::Store(StoreRequest::Reread)),
        "Home asks the store again: {effects:?}"
    );
    // Meanwhile `quiz --plain` finished that attempt in another process.
    let mut finished = attempt;
    for q in finished
        .questions(&quiz)
        .into_iter()
        .cloned()
        .collect::<Vec<_>>()
    {
        let right: BTreeSet<String> = q
            .options
            .iter()
            .filter(|o| o.correct)
            .map(|o| o.id.clone())
            .collect();
        finished.answer(&q.id, right);
    }
    app.update(Msg::StoreReread(Box::new(StoredSession {
        progress: domain::Progress::default(),
        quiz: QuizRecord {
            attempt: Some(finished),
            finished: true,
        },
        report_status: None,
        recovered_backup: None,
        shared_folder: false,
        waited: false,
    })));
    assert!(app.session.quiz.finished);
    let effects = chars(&mut app, "7");
    assert!(
        !effects.contains(&Effect::Store(StoreRequest::StartAttempt)),
        "no silent new attempt: {effects:?}"
    );
    assert!(matches!(
        app.screen,
        Screen::Quiz(QuizState {
            phase: QuizPhase::Result,
            ..
        })
    ));
}

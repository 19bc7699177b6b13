//! The quiz and report screens as characters at 80x24 and 97x31, seeded shuffle, no clock.

use crate::support::screen as support;

use queuelab::app::input::{Key, KeyCode};
use queuelab::app::{App, CodeRequestOutcome, Delivery, Info, Msg, Options};
use queuelab::content::Lang;
use queuelab::domain::otp::Verdict;
use queuelab::domain::quiz::Attempt;
use support::{new_app, press, screen};

fn app(lang: Lang, width: u16, height: u16) -> App {
    let mut app = new_app(lang, Options::default(), Info::default(), width, height);
    press(&mut app, "7");
    let mut attempt = Attempt::new(&app.session.course().quiz, 7);
    attempt.id = 1;
    app.update(Msg::AttemptStarted(Ok(attempt)));
    app
}

/// Answers every question with option 1 (and 2 for multi-select).
fn finish(app: &mut App) {
    for _ in 0..queuelab::content::QUESTION_COUNT {
        let attempt = app.session.quiz.attempt.clone().expect("attempt");
        let multi = attempt
            .next_question(&app.session.course().quiz)
            .is_some_and(|q| q.multi);
        press(app, if multi { "12\n\n" } else { "1\n\n" });
    }
}

#[test]
fn quiz_screens() {
    for (lang, w, h) in [(Lang::En, 80, 24), (Lang::De, 97, 31)] {
        let mut app = app(lang, w, h);
        insta::assert_snapshot!(format!("quiz_question_{lang}_{w}x{h}"), screen(&app));
        press(&mut app, "2\n");
        insta::assert_snapshot!(format!("quiz_feedback_{lang}_{w}x{h}"), screen(&app));
        press(&mut app, "\n");
        finish(&mut app);
        insta::assert_snapshot!(format!("quiz_result_{lang}_{w}x{h}"), screen(&app));
    }
}

#[test]
fn report_screens() {
    for (lang, w, h) in [(Lang::En, 80, 24), (Lang::De, 97, 31)] {
        let mut app = app(lang, w, h);
        finish(&mut app);
        press(&mut app, "m");
        app.update(Msg::ReportSaved(Ok("/data/reports/report-1.html".into())));
        press(&mut app, "ada@example\n");
        insta::assert_snapshot!(format!("report_address_{lang}_{w}x{h}"), screen(&app));
        press(&mut app, ".org\n");
        app.update(Msg::CodeRequested(Ok(CodeRequestOutcome::Sent(
            Delivery::File("/data/mail/000001-code.eml".into()),
        ))));
        press(&mut app, "12345");
        app.update(Msg::Key(Key::plain(KeyCode::Enter)));
        app.update(Msg::CodeChecked(Ok(Verdict::Wrong { remaining: 3 })));
        press(&mut app, "123");
        let text = screen(&app);
        assert!(!text.contains("123"), "the typed code is masked");
        insta::assert_snapshot!(format!("report_code_{lang}_{w}x{h}"), text);
    }
}

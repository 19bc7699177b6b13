//! The join dialog as scripted keys: a bad URL is named and kept, a code alone is explained,
//! a good URL and a name ask the dispatcher to join; `HOST:PORT CODE` asks for the host's
//! check digits first; a refusal shows its reason with the typed text kept; joined, the same
//! key offers to leave.

use crate::app::input::{Key, KeyCode};
use crate::app::test_app::{chars, key, test_app};
use crate::app::{Effect, Msg, Screen, WorkshopLine, WorkshopRequest};
use crate::content::Lang;
use crate::domain::workshop::JoinRefusal;

const URL: &str = "https://127.0.0.1:8740/join?code=ABCDEFGHJK&fp=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

fn form(app: &crate::app::App) -> Option<&super::JoinForm> {
    match &app.screen {
        Screen::Home(state) => state.join.as_ref(),
        _ => None,
    }
}

#[test]
fn a_bad_url_is_named_a_good_one_and_a_name_ask_to_join() {
    let mut app = test_app(Lang::En, 80, 24);
    chars(&mut app, "w");
    assert!(form(&app).is_some(), "w opens the dialog");
    chars(&mut app, "http://nope");
    key(&mut app, KeyCode::Enter);
    let f = form(&app).expect("still open");
    assert!(
        f.error.as_deref().is_some_and(|e| e.contains("https://")),
        "{f:?}"
    );
    assert_eq!(f.input, "http://nope", "the typed text stays");
    for _ in 0..11 {
        key(&mut app, KeyCode::Backspace);
    }
    chars(&mut app, "ABCDEFGHJK");
    key(&mut app, KeyCode::Enter);
    let f = form(&app).expect("still open");
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("whole join URL")),
        "{f:?}"
    );
    for _ in 0..10 {
        key(&mut app, KeyCode::Backspace);
    }
    chars(&mut app, URL);
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    assert!(
        key(&mut app, KeyCode::Enter).is_empty(),
        "an empty name is refused"
    );
    assert!(form(&app).and_then(|f| f.error.as_ref()).is_some());
    let effects = chars(&mut app, "Ada");
    assert!(
        effects.is_empty(),
        "q, w and digits are typed, not acted on"
    );
    let effects = key(&mut app, KeyCode::Enter);
    assert_eq!(
        effects,
        [Effect::Workshop(WorkshopRequest::Join {
            url: URL.into(),
            name: "Ada".into()
        })]
    );
    app.update(Msg::WorkshopJoined(Err(JoinRefusal::WrongCode)));
    let f = form(&app).expect("open again for another try");
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("wrong join code")),
        "{f:?}"
    );
    assert_eq!(f.input, URL, "the typed URL is back in the field");
    key(&mut app, KeyCode::Esc);
    assert!(form(&app).is_none(), "Esc closes");
    assert!(!app.session.quitting);
}

#[test]
fn joined_the_same_key_offers_to_leave() {
    let mut app = test_app(Lang::De, 80, 24);
    app.update(Msg::WorkshopUpdated(WorkshopLine {
        session: "Raum 1".into(),
        reachable: true,
        pending: 0,
    }));
    chars(&mut app, "w");
    assert!(chars(&mut app, "n").is_empty());
    assert!(form(&app).is_none(), "n keeps the membership");
    chars(&mut app, "w");
    let effects = app.update(Msg::Key(Key::char('j')));
    assert_eq!(effects, [Effect::Workshop(WorkshopRequest::Leave)]);
    app.update(Msg::WorkshopJoined(Ok(false)));
    assert!(form(&app).is_none());
    assert!(
        app.session.workshop.is_none(),
        "Home no longer shows the session"
    );
}

#[test]
fn a_short_line_shows_the_check_digits_and_joins_only_when_confirmed() {
    let mut app = test_app(Lang::En, 80, 24);
    chars(&mut app, "w");
    chars(&mut app, "127.0.0.1:8740 k7q2m9x");
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    chars(&mut app, "Ada");
    let effects = key(&mut app, KeyCode::Enter);
    assert_eq!(
        effects,
        [Effect::Workshop(WorkshopRequest::Observe {
            host: "127.0.0.1".into(),
            port: 8740,
            code: "K7Q2M9X".into(),
            name: "Ada".into()
        })]
    );
    let pinned = URL.to_owned();
    app.update(Msg::WorkshopObserved(Ok((
        pinned.clone(),
        "Ada".into(),
        "1234 5678".into(),
    ))));
    let f = form(&app).expect("asks to compare");
    assert!(
        matches!(f.step, super::JoinStep::ConfirmDigits { .. }),
        "{f:?}"
    );
    // Not the projector's digits: refused, the short line back in the field.
    assert!(chars(&mut app, "n").is_empty());
    let f = form(&app).expect("still open");
    assert_eq!(f.input, "127.0.0.1:8740 k7q2m9x");
    assert!(
        f.error.as_deref().is_some_and(|e| e.contains("1234 5678")),
        "{f:?}"
    );
    // Again, and this time the digits match.
    key(&mut app, KeyCode::Enter);
    chars(&mut app, "Ada");
    key(&mut app, KeyCode::Enter);
    app.update(Msg::WorkshopObserved(Ok((
        pinned.clone(),
        "Ada".into(),
        "1234 5678".into(),
    ))));
    let effects = chars(&mut app, "y");
    assert_eq!(
        effects,
        [Effect::Workshop(WorkshopRequest::Join {
            url: pinned,
            name: "Ada".into()
        })]
    );
    // Nothing answered: the reason in the learner's language, the text kept.
    app.update(Msg::WorkshopJoined(Err(JoinRefusal::Unreachable {
        address: "127.0.0.1:8740".into(),
        detail: "connection refused".into(),
    })));
    let f = form(&app).expect("open again");
    assert_eq!(f.input, "127.0.0.1:8740 k7q2m9x");
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("nothing answered at 127.0.0.1:8740")),
        "{f:?}"
    );
    assert!(app.session.workshop.is_none(), "never shown as joined");
}

//! The join dialog as scripted keys: a bad URL is named and kept, a code alone is looked for,
//! a good URL is put to the host before the name is asked, and the name asks the dispatcher to
//! join; `HOST:PORT CODE` asks for the host's check digits first; a refusal shows its reason
//! with the typed text kept; joined, the same key offers to leave.

use crate::input::{Key, KeyCode};
use crate::test_app::{chars, key, test_app};
use crate::{App, Effect, Msg, Screen, WorkshopLine, WorkshopRequest};
use content::Lang;
use domain::workshop::JoinRefusal;

const URL: &str = "https://127.0.0.1:8740/join?code=ABCDEFGHJK&fp=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

fn form(app: &crate::App) -> Option<&super::JoinForm> {
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
    bad_urls_and_codes_are_named(&mut app);
    chars(&mut app, URL);
    assert_eq!(
        key(&mut app, KeyCode::Enter),
        [Effect::Workshop(WorkshopRequest::Hello { url: URL.into() })],
        "the host is asked about the code before the name"
    );
    app.update(Msg::WorkshopGreeted(Ok((URL.into(), "Room 1".into()))));
    assert!(
        matches!(form(&app).map(|f| &f.step), Some(super::JoinStep::Name { session, .. }) if session == "Room 1")
    );
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

/// A URL without https, a code of the wrong length and a code no host on the LAN announces are
/// each named in the dialog, which stays open with the typed text; the field ends empty.
fn bad_urls_and_codes_are_named(app: &mut App) {
    chars(app, "http://nope");
    key(app, KeyCode::Enter);
    let f = form(app).expect("still open");
    assert!(
        f.error.as_deref().is_some_and(|e| e.contains("https://")),
        "{f:?}"
    );
    assert_eq!(f.input, "http://nope", "the typed text stays");
    for _ in 0..11 {
        key(app, KeyCode::Backspace);
    }
    // A code alone of the wrong length is named; one of the right form is looked for on the
    // LAN, and a network without the session names the fallback, the typed code kept.
    chars(app, "ABCDEFGH");
    key(app, KeyCode::Enter);
    let f = form(app).expect("still open");
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("ABCDEFGH has 8 characters")),
        "{f:?}"
    );
    for _ in 0..8 {
        key(app, KeyCode::Backspace);
    }
    chars(app, "k7q-2m9x");
    assert_eq!(
        key(app, KeyCode::Enter),
        [Effect::Workshop(WorkshopRequest::Find {
            code: "K7Q2M9X".into(),
            declined: Vec::new(),
        })]
    );
    app.update(Msg::WorkshopObserved(Err(JoinRefusal::NotFound)));
    let f = form(app).expect("still open");
    assert_eq!(f.input, "k7q-2m9x", "the typed code stays");
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("HOST:PORT CODE")),
        "{f:?}"
    );
    for _ in 0..8 {
        key(app, KeyCode::Backspace);
    }
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
    let effects = key(&mut app, KeyCode::Enter);
    assert_eq!(
        effects,
        [Effect::Workshop(WorkshopRequest::Observe {
            host: "127.0.0.1".into(),
            port: 8740,
            code: "K7Q2M9X".into(),
        })]
    );
    let pinned = URL.to_owned();
    app.update(Msg::WorkshopObserved(Ok((
        pinned.clone(),
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
    // Again, and this time the digits match: only now does the code go to the host.
    key(&mut app, KeyCode::Enter);
    app.update(Msg::WorkshopObserved(Ok((
        pinned.clone(),
        "1234 5678".into(),
    ))));
    let effects = chars(&mut app, "y");
    assert_eq!(
        effects,
        [Effect::Workshop(WorkshopRequest::Hello {
            url: pinned.clone()
        })]
    );
    app.update(Msg::WorkshopGreeted(Ok((pinned.clone(), "Room 1".into()))));
    chars(&mut app, "Ada");
    let effects = key(&mut app, KeyCode::Enter);
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

/// A mistyped code is named before the name is asked, in the learner's language, with the typed
/// line kept; a well-formed code the host does not know is refused before the name too; after a
/// refusal at the join the name comes back.
#[test]
fn a_wrong_code_is_named_before_the_name_in_german_and_the_name_survives_a_refusal() {
    let mut app = test_app(Lang::De, 80, 24);
    chars(&mut app, "w");
    malformed_codes_are_named_in_german(&mut app);

    // A well-formed code the host does not know: refused after the digits, before the name.
    chars(&mut app, "192.168.1.5:8740 k7q2-m9x");
    let effects = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(&effects[..], [Effect::Workshop(WorkshopRequest::Observe { code, .. })] if code == "K7Q2M9X"),
        "{effects:?}"
    );
    app.update(Msg::WorkshopObserved(Ok((URL.into(), "1234 5678".into()))));
    let effects = chars(&mut app, "j");
    assert!(
        matches!(
            &effects[..],
            [Effect::Workshop(WorkshopRequest::Hello { .. })]
        ),
        "{effects:?}"
    );
    app.update(Msg::WorkshopGreeted(Err(JoinRefusal::WrongCode)));
    let f = form(&app).expect("open again");
    assert!(matches!(f.step, super::JoinStep::Url), "no name asked");
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("falscher Beitrittscode")),
        "{f:?}"
    );
    assert_eq!(f.input, "192.168.1.5:8740 k7q2-m9x");

    // The right code: the name, then the host refuses the join (full): the name comes back.
    key(&mut app, KeyCode::Enter);
    app.update(Msg::WorkshopObserved(Ok((URL.into(), "1234 5678".into()))));
    chars(&mut app, "j");
    app.update(Msg::WorkshopGreeted(Ok((URL.into(), "Raum 1".into()))));
    chars(&mut app, "Anna");
    let effects = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(&effects[..], [Effect::Workshop(WorkshopRequest::Join { name, .. })] if name == "Anna"),
        "{effects:?}"
    );
    app.update(Msg::WorkshopJoined(Err(JoinRefusal::Host {
        reason: "session full".into(),
    })));
    let f = form(&app).expect("open again");
    assert_eq!(f.input, "192.168.1.5:8740 k7q2-m9x");
    key(&mut app, KeyCode::Enter);
    app.update(Msg::WorkshopObserved(Ok((URL.into(), "1234 5678".into()))));
    chars(&mut app, "j");
    app.update(Msg::WorkshopGreeted(Ok((URL.into(), "Raum 1".into()))));
    assert_eq!(
        form(&app).map(|f| f.input.as_str()),
        Some("Anna"),
        "the name typed before is offered again"
    );
}

/// A code with a 0, a code one character short, a line of neither form and a URL without its
/// code are each named in German in the open dialog; the field ends empty.
fn malformed_codes_are_named_in_german(app: &mut App) {
    // Read from the projector with a zero for the O: no host issues a 0.
    chars(app, "192.168.1.5:8740 K0Q2M9X");
    assert!(key(app, KeyCode::Enter).is_empty());
    let f = form(app).expect("still open");
    assert!(matches!(f.step, super::JoinStep::Url), "no name asked yet");
    assert_eq!(f.input, "192.168.1.5:8740 K0Q2M9X", "the typed text stays");
    let error = f.error.clone().unwrap_or_default();
    assert!(
        error.starts_with("Falscher Beitrittscode: K0Q2M9X enthält 0"),
        "{error}"
    );
    // One character too few.
    key(app, KeyCode::Backspace);
    key(app, KeyCode::Enter);
    let error = form(app).and_then(|f| f.error.clone()).unwrap_or_default();
    assert!(error.contains("K0Q2M9 hat 6 Zeichen"), "{error}");
    // Not even the short form: named in German, not in the parser's English.
    for _ in 0..24 {
        key(app, KeyCode::Backspace);
    }
    chars(app, "192.168.1.5 K7Q2M9X");
    key(app, KeyCode::Enter);
    let error = form(app).and_then(|f| f.error.clone()).unwrap_or_default();
    assert!(
        error.contains("ist weder ein Beitrittscode noch HOST:PORT CODE"),
        "{error}"
    );
    for _ in 0..19 {
        key(app, KeyCode::Backspace);
    }
    chars(app, "https://127.0.0.1:8740/join?code=ABC");
    key(app, KeyCode::Enter);
    let error = form(app).and_then(|f| f.error.clone()).unwrap_or_default();
    assert!(
        error.starts_with("In der Beitritts-URL fehlt code="),
        "{error}"
    );
    for _ in 0..37 {
        key(app, KeyCode::Backspace);
    }
    assert_eq!(form(app).map(|f| f.input.as_str()), Some(""));
}

#[test]
fn a_code_alone_goes_on_to_the_next_session_after_no_and_stops_when_none_is_left() {
    let mut app = test_app(Lang::En, 80, 24);
    chars(&mut app, "w");
    chars(&mut app, "k7q2m9x");
    key(&mut app, KeyCode::Enter);
    // A fake session answered first: its digits are not the projector's.
    app.update(Msg::WorkshopObserved(Ok((
        URL.into(),
        "9475 1595 2265".into(),
    ))));
    let effects = chars(&mut app, "n");
    let fake = URL.rsplit("fp=").next().expect("fingerprint").to_owned();
    assert_eq!(
        effects,
        [Effect::Workshop(WorkshopRequest::Find {
            code: "K7Q2M9X".into(),
            declined: vec![fake.clone()],
        })],
        "the search goes on past the declined certificate"
    );
    let f = form(&app).expect("still open");
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("looking for another session")),
        "{f:?}"
    );
    // No other session takes the code: the reason names the fallback, the code kept.
    app.update(Msg::WorkshopObserved(Err(JoinRefusal::TooManySessions {
        n: 1,
    })));
    let f = form(&app).expect("still open");
    assert_eq!(f.input, "k7q2m9x");
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("HOST:PORT CODE")),
        "{f:?}"
    );
    assert!(f.declined.is_empty(), "a new search starts afresh");
}

#[test]
fn a_refused_name_is_said_in_the_learners_language_and_nothing_is_sent() {
    for (lang, too_long) in [
        (Lang::De, "Der Name ist zu lang: höchstens 40 Zeichen."),
        (Lang::En, "The name is too long: at most 40 characters."),
    ] {
        let mut app = test_app(lang, 80, 24);
        chars(&mut app, "w");
        chars(&mut app, URL);
        key(&mut app, KeyCode::Enter);
        app.update(Msg::WorkshopGreeted(Ok((URL.into(), "Room 1".into()))));
        chars(&mut app, &"x".repeat(41));
        assert!(key(&mut app, KeyCode::Enter).is_empty(), "not sent");
        let said = form(&app).and_then(|f| f.error.clone());
        assert_eq!(said.as_deref(), Some(too_long));
        for _ in 0..41 {
            key(&mut app, KeyCode::Backspace);
        }
        chars(&mut app, "   ");
        assert!(key(&mut app, KeyCode::Enter).is_empty(), "not sent");
        let said = form(&app).and_then(|f| f.error.clone()).expect("said");
        assert!(
            !said.contains("--name"),
            "no command-line flag here: {said}"
        );
    }
}

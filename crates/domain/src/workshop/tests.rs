use super::*;
use std::collections::{BTreeMap, BTreeSet};

pub(super) fn catalog() -> Catalog {
    let set = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect::<BTreeSet<_>>();
    Catalog {
        chapters: set(&["intro"]),
        decisions: BTreeMap::from([(
            "d1".to_owned(),
            vec![
                "outbox".to_owned(),
                "retry".to_owned(),
                "claim-check".to_owned(),
            ],
        )]),
        questions: BTreeMap::from([("q1".to_owned(), (set(&["a", "b", "c"]), set(&["a", "c"])))]),
        scenarios: set(&["happy-path"]),
        labs: set(&["01-inbox", "02-outbox"]),
    }
}

pub(super) fn ev(n: u64, kind: EventKind) -> Event {
    Event {
        id: format!("e{n}"),
        n,
        at_ms: n as i64 * 10,
        kind,
    }
}

pub(super) fn decision(n: u64, option: &str) -> Event {
    ev(
        n,
        EventKind::Decision {
            decision: "d1".into(),
            option: option.into(),
        },
    )
}

#[test]
fn events_round_trip_as_flat_json() {
    let e = decision(3, "outbox");
    let json = serde_json::to_string(&e).expect("serialises");
    assert!(json.contains(r#""kind":"decision""#), "{json}");
    assert_eq!(serde_json::from_str::<Event>(&json).expect("parses"), e);
    assert!(serde_json::from_str::<Event>(r#"{"id":"x","n":1,"at_ms":1,"kind":"nope"}"#).is_err());
}

#[test]
fn only_facts_the_host_shows_become_events() {
    assert!(event_for(&Fact::ChapterRead("intro".into())).is_some());
    assert!(event_for(&Fact::OrderingSolved).is_some());
    assert!(
        event_for(&Fact::ChecklistTicked {
            item: "x".into(),
            ticked: true
        })
        .is_none()
    );
}

#[test]
fn the_first_answer_is_the_vote_in_any_arrival_order() {
    let c = catalog();
    // The trainee answered "retry", saw the feedback and changed to "outbox".
    let (first, second) = (decision(1, "retry"), decision(2, "outbox"));
    let mut a = Summary::default();
    a.apply("t", &first, &c);
    a.apply("t", &second, &c);
    let mut b = Summary::default();
    b.apply("t", &second, &c);
    b.apply("t", &first, &c);
    assert_eq!(a, b);
    let view = a.view("s", 2, 0, &c, &RoomTexts::default());
    assert_eq!(view.trainees[0].decisions["d1"], "retry");
    // Options nobody chose are there with 0, so every screen can number all of them.
    assert_eq!(
        view.decisions["d1"],
        BTreeMap::from([
            ("claim-check".to_owned(), 0),
            ("outbox".to_owned(), 0),
            ("retry".to_owned(), 1)
        ])
    );
}

#[test]
fn the_host_judges_quiz_answers_from_the_content() {
    let c = catalog();
    let mut s = Summary::default();
    let answer = |n, opts: &[&str]| {
        ev(
            n,
            EventKind::QuizAnswer {
                attempt: 1,
                question: "q1".into(),
                options: opts.iter().map(|o| (*o).to_owned()).collect(),
            },
        )
    };
    s.apply("right", &answer(1, &["c", "a"]), &c);
    s.apply("wrong", &answer(1, &["a"]), &c);
    let view = s.view("s", 2, 0, &c, &RoomTexts::default());
    assert_eq!(view.quiz["q1"], tally(2, 1));
    assert_eq!(view.trainees.iter().map(|t| t.quiz.correct).sum::<u32>(), 1);
}

fn tally(answered: u32, correct: u32) -> summary::QuizTally {
    summary::QuizTally { answered, correct }
}

#[test]
fn validation_names_the_bad_id() {
    let c = catalog();
    assert!(c.validate(&decision(1, "outbox")).is_ok());
    let bad = c
        .validate(&decision(1, "base64"))
        .expect_err("unknown option");
    assert!(bad.contains("base64"), "{bad}");
    let chapter = ev(
        1,
        EventKind::ChapterRead {
            chapter: "nope".into(),
        },
    );
    assert!(c.validate(&chapter).expect_err("unknown").contains("nope"));
    let mut odd = decision(1, "outbox");
    odd.id = "a b".into();
    assert!(c.validate(&odd).is_err());
}

#[test]
fn backoff_grows_with_jitter_and_a_ceiling() {
    assert_eq!(retry_delay_ms(1, 0.0), 250);
    assert_eq!(retry_delay_ms(1, 1.0), 500);
    assert_eq!(retry_delay_ms(3, 0.0), 1000);
    assert_eq!(retry_delay_ms(40, 1.0), 30_000);
}

#[test]
fn names_are_trimmed_and_bounded() {
    assert_eq!(check_name("  Ada "), Ok("Ada".to_owned()));
    assert_eq!(check_name(" "), Err(NameRefusal::Empty));
    assert_eq!(check_name(&"x".repeat(40)), Ok("x".repeat(40)));
    assert_eq!(
        check_name(&format!(" {} ", "x".repeat(41))),
        Err(NameRefusal::TooLong("x".repeat(41)))
    );
    assert_eq!(
        check_name("a\u{7}b"),
        Err(NameRefusal::Control("a\u{7}b".to_owned()))
    );
    assert_eq!(
        NameRefusal::Control("a".into()).to_string(),
        "the name \"a\" contains control characters"
    );
}

#[test]
fn quiz_attempt_numbers_are_bounded() {
    let c = catalog();
    let answer = |attempt: i64| {
        ev(
            1,
            EventKind::QuizAnswer {
                attempt,
                question: "q1".into(),
                options: vec!["a".into()],
            },
        )
    };
    let score = |attempt: i64| ev(2, EventKind::QuizScore { attempt, score: 1 });
    for ok in [1, catalog::MAX_QUIZ_ATTEMPT] {
        assert_eq!(c.validate(&answer(ok)), Ok(()), "{ok}");
        assert_eq!(c.validate(&score(ok)), Ok(()), "{ok}");
    }
    for bad in [0, -5, catalog::MAX_QUIZ_ATTEMPT + 1, i64::MAX, i64::MIN] {
        let err = c.validate(&answer(bad)).expect_err("refused");
        assert!(err.contains("attempt number"), "{err}");
        assert!(c.validate(&score(bad)).is_err(), "{bad}");
    }
}

#[test]
fn the_room_shows_where_a_trainee_is_by_title_in_the_session_language() {
    let content = content::load(&content::ContentSource::Embedded).expect("content");
    let course = content.course(content::Lang::De);
    let chapter = course.chapters[2].clone();
    let c = Catalog::new(&content);
    let mut s = Summary::default();
    s.apply(
        "t",
        &ev(
            1,
            EventKind::ChapterRead {
                chapter: chapter.id.clone(),
            },
        ),
        &c,
    );
    let de = RoomTexts::of(&content, content::Lang::De);
    let view = s.view("s", 1, 0, &c, &de);
    assert_eq!(
        view.trainees[0].screen.as_deref(),
        Some(format!("Kapitel {}", chapter.title).as_str())
    );
    // A stuck signal names the screen by its title, never `reader`; an older event arriving
    // late does not move the trainee back.
    s.apply(
        "t",
        &ev(
            3,
            EventKind::Stuck {
                screen: "reader".into(),
                text: String::new(),
            },
        ),
        &c,
    );
    s.apply("t", &ev(2, EventKind::OrderingAttempt), &c);
    let view = s.view("s", 3, 0, &c, &de);
    let t = &view.trainees[0];
    assert_eq!(t.screen.as_deref(), Some("Kapitelansicht"));
    assert_eq!(t.stuck_screen.as_deref(), Some("Kapitelansicht"));
    let en = RoomTexts::of(&content, content::Lang::En);
    let view = s.view("s", 3, 0, &c, &en);
    assert_eq!(
        view.trainees[0].stuck_screen.as_deref(),
        Some("Chapter reader")
    );
    // A name this version does not know reads as "another screen", never as sent (the host
    // keeps only known screen names; no text of a trainee's choosing travels as a screen).
    assert_eq!(en.screen("tomorrow-screen"), "another screen");
}

#[test]
fn chapters_read_count_by_the_rule_of_the_trainees_home() {
    let content = content::load(&content::ContentSource::Embedded).expect("content");
    let course = content.course(content::Lang::En);
    let c = Catalog::new(&content);
    let ids: Vec<String> = course
        .chapters
        .iter()
        .take(3)
        .map(|ch| ch.id.clone())
        .collect();
    let mut s = Summary::default();
    // Read twice (a backfill after a rejoin, a redelivery): each chapter counts once.
    for (n, id) in ids.iter().chain(ids.iter()).enumerate() {
        s.apply(
            "t",
            &ev(
                n as u64 + 1,
                EventKind::ChapterRead {
                    chapter: id.clone(),
                },
            ),
            &c,
        );
    }
    let view = s.view("s", 6, 0, &c, &RoomTexts::default());
    let mut home = crate::progress::Progress::default();
    for id in &ids {
        home.apply(&crate::Fact::ChapterRead(id.clone()));
    }
    let on_home = crate::progress::chapters_read_count(
        course.chapters.iter().map(|ch| ch.id.as_str()),
        &home.chapters_read,
    );
    assert_eq!(view.trainees[0].chapters_read, on_home);
    assert_eq!(on_home, 3);
}

fn lab(n: u64, lab: &str, reason: &str) -> Event {
    ev(
        n,
        EventKind::LabChecked {
            lab: lab.to_owned(),
            passed: reason.is_empty(),
            reason: reason.to_owned(),
        },
    )
}

#[test]
fn lab_checks_are_known_labs_with_a_reason_exactly_when_they_failed() {
    let c = catalog();
    assert!(c.validate(&lab(1, "01-inbox", "duplicate-effect")).is_ok());
    assert!(c.validate(&lab(1, "01-inbox", "")).is_ok());
    assert!(c.validate(&lab(1, "09-nope", "")).is_err(), "unknown lab");
    let mut passed_with_reason = lab(1, "01-inbox", "x");
    if let EventKind::LabChecked { passed, .. } = &mut passed_with_reason.kind {
        *passed = true;
    }
    assert!(c.validate(&passed_with_reason).is_err());
    for bad in ["Duplicate", "a b", &"x".repeat(49), "<script>"] {
        assert!(c.validate(&lab(1, "01-inbox", bad)).is_err(), "{bad}");
    }
}

#[test]
fn the_room_sees_who_solved_a_lab_and_where_the_others_stand_whatever_the_order() {
    let c = catalog();
    let texts = RoomTexts::default();
    let events = [
        ("ada", lab(1, "01-inbox", "duplicate-effect")),
        ("ada", lab(2, "01-inbox", "")),
        // A failing check after the pass: still solved.
        ("ada", lab(3, "01-inbox", "lost-order")),
        ("bo", lab(1, "01-inbox", "duplicate-effect")),
        ("bo", lab(2, "01-inbox", "lost-order")),
        ("cy", lab(1, "02-outbox", "published-without-order")),
    ];
    let view_of = |order: &[usize]| {
        let mut s = Summary::default();
        for &i in order {
            let (who, e) = &events[i];
            s.name(who, who);
            s.apply(who, e, &c);
        }
        s.view("room", 0, 0, &c, &texts)
    };
    let view = view_of(&[0, 1, 2, 3, 4, 5]);
    // Redelivered and reordered, the same summary.
    assert_eq!(view, view_of(&[5, 4, 2, 3, 1, 0, 4]));
    assert_eq!(view.labs["01-inbox"].solved, 1);
    assert_eq!(
        view.labs["01-inbox"].failing,
        BTreeMap::from([("lost-order".to_owned(), 1)]),
        "Bo's newest check, not his first"
    );
    assert_eq!(
        view.labs["02-outbox"].failing,
        BTreeMap::from([("published-without-order".to_owned(), 1)])
    );
    let solved: Vec<(&str, &[String])> = view
        .trainees
        .iter()
        .map(|t| (t.name.as_str(), t.labs_solved.as_slice()))
        .collect();
    assert_eq!(
        solved,
        vec![
            ("ada", &["01-inbox".to_owned()][..]),
            ("bo", &[][..]),
            ("cy", &[][..])
        ]
    );
}

//! The instructor's dashboard as characters, drawn from one fixed summary (the same type
//! `GET /api/summary` serves): every section at 80x24 German and 100x30 English, a stuck
//! trainee first in the room, revealed and hidden decisions, the QR code where it fits.

use crate::support::screen as support;

use queuelab::app::dashboard::{Access, DashMsg, Dashboard};
use queuelab::app::input::{Key, KeyCode};
use queuelab::content::Lang;
use queuelab::content::key;
use queuelab::domain::workshop::summary::door::Door;
use queuelab::domain::workshop::summary::{
    LabRoom, OrderingTally, Place, QuizTally, RelayCounts, TraineeView,
};
use queuelab::domain::workshop::{Pace, PaceKind, SummaryView};
use queuelab::ui::dashboard::draw;
use queuelab::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::collections::BTreeMap;
use support::{content, text};

/// The summary's clock: ten minutes after the first fact.
const NOW_MS: i64 = 1_800_000_600_000;
const URL: &str = "https://192.168.1.20:8740/join?code=K7PQ2MXR9T&fp=3f6c0e1a2b9d8c7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e";
const KEY: &str = "W4N8QX2RT6ZK3MPA9HD5JCVB";

fn trainee(name: &str, chapters: u32, decisions: &[(&str, &str)], quiz: (u32, u32)) -> TraineeView {
    TraineeView {
        id: format!("{name:0>32}"),
        name: name.to_owned(),
        chapters_read: chapters,
        decisions: decisions
            .iter()
            .map(|(d, o)| ((*d).to_owned(), (*o).to_owned()))
            .collect(),
        quiz: QuizTally {
            answered: quiz.0,
            correct: quiz.1,
        },
        ordering: OrderingTally::default(),
        scenarios: Vec::new(),
        stuck: false,
        stuck_screen: None,
        stuck_text: None,
        last_seen_ms: NOW_MS - 42_000,
        last_contact_ms: NOW_MS - 5_000,
        left: false,
        stuck_since_ms: None,
        stuck_acknowledged: false,
        screen: None,
        level: None,
        labs_solved: Vec::new(),
        instructor_copy: None,
        second_votes: BTreeMap::new(),
    }
}

/// Ada (all four decisions, two labs solved, away for two hours), Bob (stuck, seen by the
/// instructor) and Chris (a long name, reading chapter 6).
fn three_trainees(c: &queuelab::content::Content, lang: Lang, labs: &[String]) -> Vec<TraineeView> {
    let texts = queuelab::domain::workshop::RoomTexts::of(c, lang);
    let course = c.course(Lang::En);
    let d: Vec<&str> = course.decisions.iter().map(|d| d.id.as_str()).collect();
    let opt = |i: usize, j: usize| course.decisions[i].options[j].id.as_str();
    let mut bob = trainee("Bob", 3, &[(d[0], opt(0, 0))], (2, 1));
    bob.stuck = true;
    bob.stuck_screen = Some(texts.screen("simulator"));
    bob.screen.clone_from(&bob.stuck_screen);
    bob.stuck_text = Some("what does the lock token protect?".into());
    bob.last_seen_ms = NOW_MS - 3_000;
    bob.stuck_since_ms = Some(NOW_MS - 180_000);
    bob.stuck_acknowledged = true;
    let mut ada = trainee(
        "Ada Lovelace",
        9,
        &[
            (d[0], opt(0, 1)),
            (d[1], opt(1, 0)),
            (d[2], opt(2, 2)),
            (d[3], opt(3, 3)),
        ],
        (10, 9),
    );
    // Ada closed her laptop two hours ago: in the room (she did not leave), but not active.
    ada.last_seen_ms = NOW_MS - 7_200_000;
    ada.last_contact_ms = NOW_MS - 7_200_000;
    ada.labs_solved = vec![labs[0].clone(), labs[1].clone()];
    ada.screen = Some(texts.place(&Place::Quiz));
    let mut chris = trainee(
        "Chris Maier-Lüdenscheid",
        5,
        &[(d[0], opt(0, 1)), (d[1], opt(1, 2))],
        (0, 0),
    );
    chris.screen = Some(texts.place(&Place::Chapter(course.chapters[5].id.clone())));
    vec![ada, bob, chris]
}

/// How many trainees chose each option of each decision.
fn tally_decisions(trainees: &[TraineeView]) -> BTreeMap<String, BTreeMap<String, u32>> {
    let mut decisions: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    for t in trainees {
        for (k, v) in &t.decisions {
            *decisions
                .entry(k.clone())
                .or_default()
                .entry(v.clone())
                .or_default() += 1;
        }
    }
    decisions
}

/// The summary as a host serving in `lang` sends it: places and screens by their titles.
fn summary(lang: Lang) -> SummaryView {
    let c = content();
    let course = c.course(Lang::En);
    let d: Vec<&str> = course.decisions.iter().map(|d| d.id.as_str()).collect();
    let labs: Vec<String> = c.labs.iter().map(|l| l.id.clone()).collect();
    let trainees = three_trainees(&c, lang, &labs);
    let decisions = tally_decisions(&trainees);
    let q = &course.quiz.questions;
    let quiz = [(0, 1, 2), (3, 0, 2), (7, 2, 2)]
        .into_iter()
        .map(|(i, correct, answered)| (q[i].id.clone(), QuizTally { answered, correct }))
        .collect();
    let mut scenarios: Vec<_> = c.scenarios.iter().collect();
    scenarios.sort_by_key(|s| s.position);
    // After the discussion of decision 1, Bob moved to Ada's and Chris's answer: the second
    // vote stands beside the first.
    let second: BTreeMap<String, u32> = course.decisions[0]
        .options
        .iter()
        .enumerate()
        .map(|(j, o)| (o.id.clone(), if j == 1 { 3 } else { 0 }))
        .collect();
    SummaryView {
        session: "Resilience workshop, room 2".into(),
        date: "2027-01-15".into(),
        trainees,
        decisions,
        quiz,
        ordering: OrderingTally {
            solved: 2,
            attempts: 3,
            mistakes: 4,
        },
        scenarios: [(scenarios[0].id.clone(), 2), (scenarios[2].id.clone(), 1)].into(),
        events: 57,
        duplicates: 3,
        revealed: vec![d[0].to_owned()],
        second_votes: [(d[0].to_owned(), second)].into(),
        last_pace: Some(Pace {
            id: 1,
            at_ms: NOW_MS - 60_000,
            kind: PaceKind::RevealDecision {
                decision: d[0].to_owned(),
            },
        }),
        options: std::collections::BTreeMap::new(),
        relay: Some(RelayCounts {
            queued: 1,
            sent: 5,
            retrying: 2,
            failed: 0,
        }),
        // Ada solved labs 1 and 2; Bob and Chris stand at lab 1's duplicate effect and at
        // lab 2's message published without its order.
        labs: [
            (
                labs[0].clone(),
                LabRoom {
                    solved: 1,
                    failing: [("duplicate-effect".to_owned(), 2)].into(),
                },
            ),
            (
                labs[1].clone(),
                LabRoom {
                    solved: 1,
                    failing: [("published-without-order".to_owned(), 1)].into(),
                },
            ),
        ]
        .into(),
        // A quiet, open room with no look-alike names: the door shows nothing.
        door: Door::default(),
        lookalikes: Vec::new(),
        now_ms: NOW_MS,
    }
}

fn dashboard(lang: Lang, width: u16, height: u16) -> Dashboard {
    let access = Access {
        join_url: URL.into(),
        projector_url: "https://192.168.1.20:8740/dashboard".into(),
        key: KEY.into(),
        discovery: Some("Resilience workshop, room 2".into()),
        check_digits: "4821 0937 5516".into(),
    };
    let mut dash = Dashboard::new(content(), lang, access, false);
    dash.update(DashMsg::Resized { width, height });
    dash.update(DashMsg::Refreshed {
        summary: Box::new(summary(lang)),
        now_ms: NOW_MS,
    });
    dash
}

fn screen(dash: &Dashboard) -> String {
    let mut terminal =
        Terminal::new(TestBackend::new(dash.size.0, dash.size.1)).expect("test terminal");
    terminal
        .draw(|frame| draw(frame, dash, &Theme::new(false)))
        .expect("draws");
    text(terminal.backend().buffer())
}

fn keys(dash: &mut Dashboard, keys: &str) {
    for c in keys.chars() {
        let key = match c {
            '\n' => Key::plain(KeyCode::Enter),
            '↓' => Key::plain(KeyCode::Down),
            '\x1b' => Key::plain(KeyCode::Esc),
            c => Key::char(c),
        };
        dash.update(DashMsg::Key(key));
    }
}

#[test]
fn every_section_at_80x24_in_german() {
    let mut dash = dashboard(Lang::De, 80, 24);
    insta::assert_snapshot!("dashboard_de_80x24_room", screen(&dash));
    keys(&mut dash, "2");
    insta::assert_snapshot!("dashboard_de_80x24_answers", screen(&dash));
    keys(&mut dash, &"↓".repeat(40));
    insta::assert_snapshot!("dashboard_de_80x24_answers_end", screen(&dash));
    keys(&mut dash, "3");
    insta::assert_snapshot!("dashboard_de_80x24_join", screen(&dash));
}

#[test]
fn every_section_at_100x30_in_english() {
    let mut dash = dashboard(Lang::En, 100, 30);
    insta::assert_snapshot!("dashboard_en_100x30_room", screen(&dash));
    keys(&mut dash, "2");
    insta::assert_snapshot!("dashboard_en_100x30_answers", screen(&dash));
    keys(&mut dash, "3");
    let join = screen(&dash);
    assert!(
        join.contains('▀') || join.contains('▄'),
        "the QR code fits: {join}"
    );
    insta::assert_snapshot!("dashboard_en_100x30_join", join);
}

#[test]
fn the_join_section_hides_the_instructor_key_until_v() {
    for (lang, width, height) in [(Lang::De, 80, 24), (Lang::En, 100, 30)] {
        let mut dash = dashboard(lang, width, height);
        keys(&mut dash, "3");
        let projected = screen(&dash);
        assert!(!projected.contains(KEY), "{lang:?}: {projected}");
        assert!(projected.contains(" v "), "{lang:?} says how: {projected}");
        keys(&mut dash, "v");
        assert!(screen(&dash).contains(KEY), "{lang:?}");
        keys(&mut dash, "v");
        assert!(!screen(&dash).contains(KEY), "{lang:?}");
    }
}

#[test]
fn the_pacing_prompt_and_its_confirmation_use_the_footer() {
    let mut dash = dashboard(Lang::En, 80, 24);
    keys(&mut dash, "r2");
    let typing = screen(&dash);
    assert!(typing.contains("Reveal decision (number): 2_"), "{typing}");
    keys(&mut dash, "\x1bc99\n");
    let refused = screen(&dash);
    assert!(refused.contains("No such number: 99"), "{refused}");
}

#[test]
fn pacing_prompts_list_what_they_offer_by_title() {
    let c = content();
    let course = c.course(Lang::De);
    let mut dash = dashboard(Lang::De, 100, 30);
    keys(&mut dash, "c");
    let chapters = screen(&dash);
    for (i, chapter) in course.chapters.iter().take(5).enumerate() {
        let row = format!("{:>2}. {}", i + 1, chapter.title);
        assert!(chapters.contains(&row), "{row}: {chapters}");
    }
    keys(&mut dash, "\x1bs");
    let scenarios = screen(&dash);
    let mut sorted: Vec<_> = c.scenarios.iter().collect();
    sorted.sort_by_key(|s| s.position);
    let first = &sorted[0].text(Lang::De).expect("German").title;
    assert!(scenarios.contains(&format!(" 1. {first}")), "{scenarios}");
    assert!(
        scenarios.contains("Modi: sicher · naiv · Falle"),
        "the mode words the prompt takes: {scenarios}"
    );
    assert!(
        scenarios.contains("Nummer oder ID, dann sicher/naiv/Falle"),
        "{scenarios}"
    );
    keys(&mut dash, "\x1br");
    let decisions = screen(&dash);
    for (i, d) in course.decisions.iter().enumerate() {
        let n = course
            .chapters
            .iter()
            .position(|ch| ch.id == d.chapter)
            .expect("the decision's chapter")
            + 1;
        let row = format!("{}. {} · in Kapitel {n}, ", i + 1, d.title);
        assert!(decisions.contains(&row), "{row}: {decisions}");
    }
    // Esc puts the list away: the section is back.
    keys(&mut dash, "\x1b");
    assert!(screen(&dash).contains("Teilnehmende (3)"));
}

#[test]
fn any_size_draws_without_panic() {
    for (w, h) in [
        (0, 0),
        (1, 1),
        (20, 5),
        (39, 8),
        (40, 8),
        (61, 17),
        (200, 60),
    ] {
        let mut dash = dashboard(Lang::De, w, h);
        for section in ["1", "2", "3"] {
            keys(&mut dash, section);
            let _ = screen(&dash);
        }
    }
}

#[test]
fn a_hidden_decision_with_a_second_vote_keeps_its_state_whole_at_80_columns() {
    let mut hidden_room = summary(Lang::De);
    hidden_room.revealed.clear();
    let mut dash = dashboard(Lang::De, 80, 24);
    dash.update(DashMsg::Refreshed {
        summary: Box::new(hidden_room),
        now_ms: NOW_MS,
    });
    keys(&mut dash, "2");
    let text = screen(&dash);
    let hidden = content()
        .course(Lang::De)
        .strings
        .get(key::dash::HIDDEN)
        .to_owned();
    assert!(
        text.lines().any(|l| l.trim_end().ends_with(&hidden)),
        "the state stands whole: {text}"
    );
}

#[test]
fn the_door_during_a_flood_at_80x24_in_german_and_100x30_in_english() {
    for (lang, width, height, name) in [
        (Lang::De, 80, 24, "dashboard_de_80x24_door"),
        (Lang::En, 100, 30, "dashboard_en_100x30_door"),
    ] {
        let mut dash = dashboard(lang, width, height);
        let mut flooded = summary(lang);
        flooded.door = Door::new(true, 312, 300);
        flooded.lookalikes = vec![vec!["Alice".to_owned(), "\u{410}lice".to_owned()]];
        dash.update(DashMsg::Refreshed {
            summary: Box::new(flooded),
            now_ms: NOW_MS,
        });
        insta::assert_snapshot!(name, screen(&dash));
    }
}

#[test]
fn before_the_reveal_the_answers_section_shows_options_only_and_p_shows_a_private_view() {
    let c = content();
    for (lang, width, height) in [(Lang::De, 80, 24), (Lang::En, 100, 30)] {
        let mut hidden_room = summary(lang);
        hidden_room.revealed.clear();
        let mut dash = dashboard(lang, width, height);
        dash.update(DashMsg::Refreshed {
            summary: Box::new(hidden_room),
            now_ms: NOW_MS,
        });
        keys(&mut dash, "2");
        let s = &c.course(lang).strings;
        let first = &c.course(lang).decisions[0];
        let whole = screen(&dash);
        // The decisions part (the quiz's share correct below names no right option).
        let quiz_title = s.get(key::dash::QUIZ_TITLE);
        let projected = whole
            .split(quiz_title)
            .next()
            .unwrap_or_default()
            .to_owned();
        // Every option by its number, none marked, no bar, no count.
        assert!(projected.contains("   1  "), "{lang:?}: {projected}");
        for mark in ['*', '█', '▌', '#'] {
            assert!(
                !projected.contains(mark),
                "{lang:?} shows {mark}: {projected}"
            );
        }
        let option = &first.options[1].text;
        let prefix: String = option.chars().take(20).collect();
        assert!(projected.contains(&prefix), "{lang:?}: {projected}");
        assert!(
            !projected.contains(s.get(key::dash::PRIVATE_VIEW)),
            "{projected}"
        );
        keys(&mut dash, "p");
        let private = screen(&dash);
        let banner: String = s.get(key::dash::PRIVATE_VIEW).chars().take(30).collect();
        assert!(private.contains(&banner), "{lang:?}: {private}");
        assert!(
            private.contains('*'),
            "{lang:?} the right option: {private}"
        );
        keys(&mut dash, "p");
        assert_eq!(screen(&dash), whole, "{lang:?}: p ends it");
    }
}

#[test]
fn the_prompts_that_take_a_trainee_list_the_rows_by_number_and_follow_the_arrows() {
    let mut dash = dashboard(Lang::De, 80, 24);
    keys(&mut dash, "a");
    let list = screen(&dash);
    assert!(list.contains(" 1. Ada Lovelace · im Raum"), "{list}");
    assert!(list.contains(" 2. Bob · aktiv · STECKT FEST"), "{list}");
    assert!(
        list.contains("Nummer, Namensanfang oder ↑↓ und Enter\n"),
        "{list}"
    );
    keys(&mut dash, "↓↓");
    let moved = screen(&dash);
    assert!(moved.contains(" > 2. Bob"), "{moved}");
}

//! The banner and the one-key follow as scripted messages through `App::update`.

use super::*;
use crate::test_app::{chars, content, test_app};
use crate::{App, Msg, Screen};
use content::Lang;
use content::key;

fn notice(id: u64, kind: PaceKind) -> Msg {
    Msg::PaceReceived(PaceNotice {
        pace: Pace { id, at_ms: 1, kind },
        distribution: None,
        second_distribution: None,
    })
}

fn chapter_pace(app: &App, id: u64, index: usize) -> Msg {
    let chapter = app.session.course().chapters[index].id.clone();
    notice(id, PaceKind::OpenChapter { chapter })
}

#[test]
fn the_banner_waits_for_one_key_and_that_key_opens_the_chapter() {
    let mut app = test_app(Lang::En, 80, 24);
    let msg = chapter_pace(&app, 3, 2);
    assert!(app.update(msg).is_empty(), "nothing opens by itself");
    assert!(matches!(app.screen, Screen::Home(_)), "never forced");
    let text = banner(&app.session).expect("a banner");
    assert!(
        text.contains("open chapter 3") && text.contains("F follow"),
        "{text}"
    );
    chars(&mut app, "j");
    assert!(app.session.pace.is_some(), "other keys work as always");
    chars(&mut app, "F");
    assert!(matches!(app.screen, Screen::Reader(_)));
    assert!(app.session.pace.is_none(), "followed once, gone");
}

#[test]
fn following_replaces_the_screens_above_home_and_a_joined_q_on_home_asks() {
    let mut app = test_app(Lang::En, 80, 24);
    app.session.workshop = Some(crate::WorkshopLine {
        session: "Room".into(),
        reachable: true,
        pending: 0,
    });
    for (id, chapter) in [(1, 2), (2, 2), (3, 0)] {
        let msg = chapter_pace(&app, id, chapter);
        app.update(msg);
        chars(&mut app, "F");
        assert!(matches!(app.screen, Screen::Reader(_)));
    }
    chars(&mut app, "q");
    assert!(matches!(app.screen, Screen::Home(_)), "one q back to Home");
    chars(&mut app, "q");
    assert!(!app.session.quitting, "joined: one q too many asks");
    let asked = app.session.status.as_ref().map(|s| s.text.clone());
    assert!(
        asked.is_some_and(|t| t.starts_with("y quits")),
        "the key first"
    );
    chars(&mut app, "n");
    assert!(!app.session.quitting, "any other key stays");
    chars(&mut app, "q");
    chars(&mut app, "y");
    assert!(app.session.quitting);
}

#[test]
fn a_command_seen_before_is_not_shown_again_and_x_dismisses() {
    let mut app = test_app(Lang::De, 80, 24);
    let first = chapter_pace(&app, 5, 1);
    app.update(first.clone());
    chars(&mut app, "X");
    assert!(app.session.pace.is_none());
    assert!(matches!(app.screen, Screen::Home(_)));
    app.update(first);
    assert!(app.session.pace.is_none(), "the same id again is ignored");
    let older = chapter_pace(&app, 4, 1);
    app.update(older);
    assert!(app.session.pace.is_none(), "an older id is ignored");
    let newer = chapter_pace(&app, 6, 0);
    app.update(newer);
    let text = banner(&app.session).expect("a newer one shows");
    assert!(
        text.contains("Kursleitung") && text.contains("Kapitel 1"),
        "{text}"
    );
}

#[test]
fn a_scenario_opens_in_its_mode_and_a_reveal_shows_the_rooms_answers() {
    let c = content();
    let mut app = test_app(Lang::En, 100, 30);
    let scenario = c.scenarios[0].id.clone();
    app.update(notice(
        1,
        PaceKind::OpenScenario {
            scenario,
            mode: "naive".into(),
        },
    ));
    chars(&mut app, "F");
    let Screen::Simulator(state) = &app.screen else {
        panic!("the simulator opens");
    };
    assert_eq!(state.settings.mode, Mode::Naive);
    // The room watches the run unfold from its first event: no compare view with the result.
    assert!(state.compare.is_none(), "no compare view");
    assert_eq!(state.timeline.total, 0, "at the first event");
    assert!(!state.timeline.finished);
    let d = &c.course(Lang::En).decisions[1];
    let counts = [(d.options[0].id.clone(), 3), (d.options[2].id.clone(), 12)].into();
    app.update(Msg::PaceReceived(PaceNotice {
        pace: Pace {
            id: 2,
            at_ms: 1,
            kind: PaceKind::RevealDecision {
                decision: d.id.clone(),
            },
        },
        distribution: Some(counts),
        second_distribution: None,
    }));
    let text = banner(&app.session).expect("a banner");
    let shares: Vec<String> = d
        .options
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let n = [3, 0, 12].get(i).copied().unwrap_or(0);
            let mark = if o.correct { " \u{2713}" } else { "" };
            format!("[{}] {n}{mark}", i + 1)
        })
        .collect();
    assert!(text.contains(&shares.join(" · ")), "{text}");
    assert!(
        text.starts_with(&d.title) || text.contains(&d.title),
        "{text}"
    );
    assert_eq!(text.matches('\u{2713}').count(), 1, "{text}");
    chars(&mut app, "F");
    assert!(
        matches!(app.screen, Screen::Reader(_)),
        "the decision's chapter opens"
    );
}

/// The card text of decision 1 after the trainee chose a wrong option, in a joined session
/// whose votes are `votes`.
fn held_card_text(lang: Lang, votes: Option<RoomVotes>) -> (String, String, String) {
    let mut app = test_app(lang, 100, 30);
    let course = app.session.course().clone();
    let d = &course.decisions[0];
    let wrong = d
        .options
        .iter()
        .position(|o| !o.correct)
        .expect("a wrong option");
    let right = d
        .options
        .iter()
        .position(|o| o.correct)
        .expect("a right option");
    if let Some(votes) = votes {
        app.update(Msg::WorkshopUpdated(crate::WorkshopLine {
            session: "Room".into(),
            reachable: true,
            pending: 0,
        }));
        app.update(Msg::VotesUpdated(votes));
    }
    app.session
        .progress
        .decisions
        .insert(d.id.clone(), d.options[wrong].id.clone());
    let chapter = course
        .chapters
        .iter()
        .position(|c| c.id == d.chapter)
        .expect("the decision's chapter");
    crate::test_app::open_chapter(&mut app, chapter);
    let Screen::Reader(state) = &app.screen else {
        panic!("the reader is open");
    };
    let text: Vec<String> = crate::reader::lines(&app.session, state)
        .iter()
        .map(crate::doc_layout::DocLine::text)
        .collect();
    (
        text.join("\n"),
        format!("[{}]", right + 1),
        format!("[{}]", wrong + 1),
    )
}

#[test]
fn held_feedback_says_saved_and_shows_right_and_own_only_after_the_reveal() {
    let content = content();
    for lang in [Lang::En, Lang::De] {
        let strings = &content.course(lang).strings;
        let (verdict, held) = (
            strings.get(key::decision::WRONG),
            strings.get(key::decision::HELD),
        );
        let d = content.course(lang).decisions[0].id.clone();
        let votes = RoomVotes {
            held: true,
            ..RoomVotes::default()
        };
        let (text, _, own) = held_card_text(lang, Some(votes.clone()));
        assert!(
            text.contains(strings.get(key::decision::VOTE_SAVED)),
            "{text}"
        );
        assert!(text.contains(&held[..20]), "{text}");
        assert!(
            !text.contains(verdict),
            "no right/wrong before the reveal: {text}"
        );
        assert!(!text.contains('✓') && !text.contains('✗'), "{text}");
        assert!(
            text.contains(&format!(" • {own}")),
            "the own answer is marked: {text}"
        );
        // What the chapter says below the card explains the answer: it waits for the reveal,
        // so nobody reads the answer out before the room has voted.
        let held_veil = strings.get(key::reader::AFTER_HELD_CARD);
        assert!(text.contains(&held_veil[..30]), "{text}");
        let held_lines = text.lines().count();
        let revealed = RoomVotes {
            revealed: [d].into_iter().collect(),
            ..votes
        };
        let (text, right, own) = held_card_text(lang, Some(revealed));
        assert!(text.contains(verdict), "after the reveal: {text}");
        assert!(
            !text.contains(&held_veil[..30]) && text.lines().count() > held_lines + 10,
            "the chapter goes on after the reveal: {text}"
        );
        assert!(
            text.contains(&format!(" ✓ {right}")),
            "the right option: {text}"
        );
        assert!(
            text.contains(&format!(" ✗ {own}")),
            "the own answer: {text}"
        );
        // Outside a session nothing is held.
        let (text, _, _) = held_card_text(lang, None);
        assert!(text.contains(verdict), "{text}");
    }
}

#[test]
fn the_stuck_key_says_solved_the_second_time_and_an_acknowledgement_is_shown() {
    use crate::{Effect, StoreRequest};
    let mut app = test_app(Lang::En, 80, 24);
    app.update(Msg::WorkshopUpdated(crate::WorkshopLine {
        session: "Room".into(),
        reachable: true,
        pending: 0,
    }));
    let effects = chars(&mut app, "!");
    assert!(
        matches!(effects.as_slice(), [Effect::Store(StoreRequest::Stuck(_))]),
        "{effects:?}"
    );
    let content = content();
    let strings = &content.course(Lang::En).strings;
    app.update(Msg::StuckUpdated(Some(true)));
    let status = app.session.status.clone().expect("a status");
    assert_eq!(status.text, strings.get(key::workshop::STUCK_ACKNOWLEDGED));
    // The same acknowledgement again is no news.
    app.session.status = None;
    app.update(Msg::StuckUpdated(Some(true)));
    assert!(app.session.status.is_none());
    let effects = chars(&mut app, "!");
    assert_eq!(effects, [Effect::Store(StoreRequest::Solved)]);
    let status = app.session.status.clone().expect("a status");
    assert_eq!(status.text, strings.get(key::workshop::SOLVED_SENT));
    // Stuck again after solving.
    let effects = chars(&mut app, "!");
    assert!(matches!(
        effects.as_slice(),
        [Effect::Store(StoreRequest::Stuck(_))]
    ));
}

/// The text of the open reader (the chapter of decision 1).
fn reader_text(app: &App) -> String {
    let Screen::Reader(state) = &app.screen else {
        panic!("the reader is open");
    };
    let lines: Vec<String> = crate::reader::lines(&app.session, state)
        .iter()
        .map(crate::doc_layout::DocLine::text)
        .collect();
    lines.join("\n")
}

#[test]
fn a_second_vote_asks_again_records_it_as_such_and_the_reveal_shows_both_rounds() {
    use crate::{Effect, StoreRequest};
    use domain::progress::Fact;
    for lang in [Lang::En, Lang::De] {
        let mut app = test_app(lang, 100, 30);
        let course = app.session.course().clone();
        let strings = course.strings.clone();
        let d = &course.decisions[0];
        app.update(Msg::WorkshopUpdated(crate::WorkshopLine {
            session: "Room".into(),
            reachable: true,
            pending: 0,
        }));
        let held = RoomVotes {
            held: true,
            ..RoomVotes::default()
        };
        app.update(Msg::VotesUpdated(held.clone()));
        let chapter = course
            .chapters
            .iter()
            .position(|c| c.id == d.chapter)
            .expect("the decision's chapter");
        crate::test_app::open_chapter(&mut app, chapter);
        // The first round: an ordinary answer.
        let effects = chars(&mut app, "1");
        let first = Fact::DecisionAnswered {
            decision: d.id.clone(),
            option: d.options[0].id.clone(),
        };
        assert!(
            effects.contains(&Effect::Store(StoreRequest::Save(first))),
            "{effects:?}"
        );
        // The instructor opens a second vote: the banner says so, the card asks again.
        let second = PaceKind::SecondVote {
            decision: d.id.clone(),
        };
        app.update(notice(4, second));
        let text = banner(&app.session).expect("a banner");
        assert!(text.contains(&d.title), "{text}");
        let open = RoomVotes {
            second_open: [d.id.clone()].into(),
            ..held.clone()
        };
        app.update(Msg::VotesUpdated(open.clone()));
        let card = reader_text(&app);
        assert!(
            card.contains(strings.get(key::decision::SECOND_VOTE)),
            "{card}"
        );
        let keys = format!("1-{}", d.options.len());
        let asks = strings.fill(key::decision::SECOND_OPEN, &[("keys", &keys)]);
        assert!(card.contains(&asks[..24]), "{card}");
        // The answer now is the second vote, and the card says it is saved.
        let effects = chars(&mut app, "2");
        let vote = Fact::SecondVote {
            decision: d.id.clone(),
            option: d.options[1].id.clone(),
        };
        assert!(
            effects.contains(&Effect::Store(StoreRequest::Save(vote))),
            "{effects:?}"
        );
        let saved = strings.get(key::decision::SECOND_SAVED);
        assert!(reader_text(&app).contains(saved), "{}", reader_text(&app));
        // A poll that comes before the host counted it does not take "saved" back.
        app.update(Msg::VotesUpdated(open.clone()));
        assert!(reader_text(&app).contains(saved), "{}", reader_text(&app));
        reveal_both_rounds(&mut app, d, open, &strings);
        // After the reveal an answer is an ordinary one again.
        let effects = chars(&mut app, "3");
        assert!(
            effects.iter().any(|e| matches!(
                e,
                Effect::Store(StoreRequest::Save(Fact::DecisionAnswered { .. }))
            )),
            "{effects:?}"
        );
    }
}

/// The reveal after a second vote: the banner shows both rounds of the room, the card no longer
/// says "saved" but right or wrong for the second answer.
fn reveal_both_rounds(
    app: &mut App,
    d: &content::Decision,
    open: RoomVotes,
    strings: &content::Strings,
) {
    let saved = strings.get(key::decision::SECOND_SAVED);
    // The reveal shows right/wrong, and its banner both rounds of the room.
    let both: BTreeMap<String, u32> = [(d.options[1].id.clone(), 2)].into();
    let firsts: BTreeMap<String, u32> = [(d.options[0].id.clone(), 2)].into();
    app.update(Msg::PaceReceived(PaceNotice {
        pace: Pace {
            id: 5,
            at_ms: 1,
            kind: PaceKind::RevealDecision {
                decision: d.id.clone(),
            },
        },
        distribution: Some(firsts),
        second_distribution: Some(both),
    }));
    app.update(Msg::VotesUpdated(RoomVotes {
        revealed: [d.id.clone()].into(),
        ..open
    }));
    let text = banner(&app.session).expect("a banner");
    assert!(
        text.contains("[1] 2→0") && text.contains("[2] 0→2"),
        "{text}"
    );
    let card = reader_text(app);
    assert!(!card.contains(saved), "{card}");
    let verdict = if d.options[1].correct {
        strings.get(key::decision::CORRECT)
    } else {
        strings.get(key::decision::WRONG)
    };
    assert!(card.contains(verdict), "{card}");
}

//! The room's summary beyond first answers: a second vote counted apart and first in its
//! round, and who counts as in the room.

use super::tests::{catalog, decision, ev};
use super::*;

fn second_vote(n: u64, option: &str) -> Event {
    ev(
        n,
        EventKind::SecondVote {
            decision: "d1".into(),
            option: option.into(),
        },
    )
}

#[test]
fn a_second_vote_is_counted_apart_from_the_first_and_first_in_its_round() {
    let c = catalog();
    // Voted "retry", then during the second vote "outbox", then changed to "claim-check".
    let events = [
        decision(1, "retry"),
        second_vote(2, "outbox"),
        second_vote(3, "claim-check"),
    ];
    let mut a = Summary::default();
    for e in &events {
        a.apply("t", e, &c);
    }
    let mut b = Summary::default();
    for e in events.iter().rev() {
        b.apply("t", e, &c);
    }
    assert_eq!(a, b, "any arrival order");
    // Another trainee voted only once.
    a.apply("u", &decision(1, "retry"), &c);
    let opened = ["d1".to_owned()];
    let second = a.second_distributions(&c, &opened);
    assert_eq!(second["d1"]["outbox"], 1);
    assert_eq!(second["d1"]["claim-check"], 0);
    assert_eq!(
        second["d1"]["retry"], 0,
        "every option, 0 when nobody chose it"
    );
    assert_eq!(
        a.distributions(&c)["d1"]["retry"],
        2,
        "the first votes stay"
    );
    assert!(
        a.second_distributions(&c, &[]).is_empty(),
        "only opened ones"
    );
    assert!(a.second_given("t", "d1"));
    assert!(!a.second_given("u", "d1"));
    let view = a.view("s", 4, 0, &c, &RoomTexts::default());
    assert_eq!(view.trainees[0].second_votes["d1"], "outbox");
    assert!(view.trainees[1].second_votes.is_empty());
    // A second vote names a real option like any answer.
    assert!(c.validate(&second_vote(9, "nope")).is_err());
    assert_eq!(
        event_for(&Fact::SecondVote {
            decision: "d1".into(),
            option: "outbox".into()
        }),
        Some(EventKind::SecondVote {
            decision: "d1".into(),
            option: "outbox".into()
        })
    );
}

#[test]
fn active_means_the_host_heard_from_the_client_recently() {
    let c = catalog();
    let mut s = Summary::default();
    s.apply("t", &ev(1, EventKind::OrderingAttempt), &c);
    assert!(
        !s.touch("stranger", 5_000),
        "nothing to store for a stranger"
    );
    assert_eq!(
        s.trainee_count(),
        1,
        "a poll with an unknown id makes no row"
    );
    let view = |s: &Summary| s.view("s", 1, 0, &c, &RoomTexts::default()).trainees[0].clone();
    assert!(!view(&s).left, "joined: in the room before any contact");
    assert!(!view(&s).active(5_000), "not heard from yet");
    assert!(
        s.touch("t", 5_000 + summary::CONTACT_STORE_MS),
        "first contact: store it"
    );
    s.contact_stored("t", 5_000 + summary::CONTACT_STORE_MS);
    assert!(
        !s.touch("t", 6_000 + summary::CONTACT_STORE_MS),
        "a second later: the stored one is near enough"
    );
    s.touch("t", 4_000);
    let t = view(&s);
    let seen = 6_000 + summary::CONTACT_STORE_MS;
    assert_eq!(t.last_contact_ms, seen, "the newest contact counts");
    assert!(t.active(seen + summary::ACTIVE_MS));
    assert!(!t.active(seen + 1 + summary::ACTIVE_MS));
    assert_eq!(
        t.presence(seen + 1 + summary::ACTIVE_MS),
        summary::Presence::InRoom
    );
}

#[test]
fn leaving_ends_being_in_the_room_and_joining_again_starts_it() {
    let c = catalog();
    let mut s = Summary::default();
    let in_room = |s: &Summary| !s.view("s", 1, 0, &c, &RoomTexts::default()).trainees[0].left;
    s.apply("t", &ev(1, EventKind::Joined), &c);
    assert!(in_room(&s));
    s.apply("t", &ev(3, EventKind::Left), &c);
    s.touch("t", 9_000);
    assert!(!in_room(&s), "left");
    let view = s.view("s", 1, 0, &c, &RoomTexts::default());
    assert!(
        !view.trainees[0].active(9_000),
        "a trainee who left is not active"
    );
    assert_eq!(view.presence_counts(9_000), (0, 0));
    // A late "joined" from before the leave changes nothing; a newer one brings them back.
    s.apply("t", &ev(2, EventKind::Joined), &c);
    assert!(!in_room(&s));
    s.apply("t", &ev(4, EventKind::Joined), &c);
    assert!(in_room(&s));
}

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
fn in_the_room_means_the_host_heard_from_the_client_recently() {
    let c = catalog();
    let mut s = Summary::default();
    s.apply("t", &ev(1, EventKind::OrderingAttempt), &c);
    s.touch("stranger", 5_000);
    assert_eq!(
        s.trainee_count(),
        1,
        "a poll with an unknown id makes no row"
    );
    let view = |s: &Summary| s.view("s", 1, 0, &c, &RoomTexts::default()).trainees[0].clone();
    assert!(
        !view(&s).in_room(5_000),
        "not heard from since the host started"
    );
    s.touch("t", 5_000);
    s.touch("t", 4_000);
    let t = view(&s);
    assert_eq!(t.last_contact_ms, 5_000, "the newest contact counts");
    assert!(t.in_room(5_000 + summary::IN_ROOM_MS));
    assert!(!t.in_room(5_001 + summary::IN_ROOM_MS));
}

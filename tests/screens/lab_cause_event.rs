//! The lab check and the simulator name one cause event. Lab 2's starting file breaks on its
//! named seed; the check's text says "cause event #N". The same run opened in the simulator
//! (as `s` on the lab screen does), stepped to the same moment, offers "w why (#N)" with the
//! same N, and `w` shows event #N: the broker outage, not the empty receive before it.

use crate::support::lab;
use crate::support::sim_harness as harness;

use harness::{Harness, sim};
use queuelab::app::simulator::LabRun;
use queuelab::app::simulator::lab_run::{self, Broke};
use queuelab::app::{Msg, Options};
use queuelab::content::{ContentSource, Lang, load};
use queuelab::sim::lab::lab_check::broken_details;
use queuelab::sim::moments::event_number;
use queuelab::sim::{EventKind, Moment};

/// The number after `marker` in the first of `lines` that holds it.
fn number_after(lines: &[String], marker: &str) -> Option<u64> {
    lines.iter().find_map(|l| {
        let rest = &l[l.find(marker)? + marker.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

/// Steps the simulator with `]` until the story explains `moment` (the same kind, message and
/// event as the check's).
fn step_to(h: &mut Harness, moment: &Moment) {
    for _ in 0..200 {
        let s = sim(h);
        if s.story.current(s.shown_index()).is_some_and(|m| {
            (m.kind, &m.message_id, m.event) == (moment.kind, &moment.message_id, moment.event)
        }) {
            return;
        }
        h.keys("]");
    }
    let s = sim(h);
    panic!(
        "the simulator never reached the check's moment {moment:?}; its moments: {:?}, shown {:?}",
        s.story.moments.iter().take(3).collect::<Vec<_>>(),
        s.shown_index()
    );
}

#[test]
fn the_check_and_the_simulator_name_the_same_cause_event() {
    let content = load(&ContentSource::Embedded).expect("content loads");
    let lab = lab::lab(2);
    let failure = lab::start_failure(&lab);
    let moment = failure
        .moment
        .clone()
        .expect("the starting file fails at a moment");
    for (lang, cause_marker, why_marker) in [
        (Lang::De, "Ursache Ereignis #", "w warum (#"),
        (Lang::En, "cause event #", "w why (#"),
    ] {
        let text = broken_details(&content, lang, "start.sql", &failure);
        let checked = number_after(&text, cause_marker)
            .unwrap_or_else(|| panic!("{lang}: no cause event in {text:#?}"));
        assert_eq!(checked, moment.cause_number(), "{lang}");

        let mut h = Harness::new(lang, 100, 30, Options::default());
        let run = LabRun::new(lab.id.clone(), lab.number, lab.start.clone());
        let at = Broke {
            scenario: &failure.scenario,
            broker: failure.broker,
            seed: failure.seed,
            statement: None,
        };
        let mut effects = lab_run::open(&mut h.app.session, run, &at);
        // Any message applies the screen change the call asked for.
        effects.extend(h.app.update(Msg::Resized {
            width: 100,
            height: 30,
        }));
        h.carry_out(effects);
        step_to(&mut h, &moment);
        let screen = h.screen();
        let why = number_after(
            &screen.lines().map(str::to_owned).collect::<Vec<_>>(),
            why_marker,
        )
        .unwrap_or_else(|| panic!("{lang}: no why key on screen:\n{screen}"));
        assert_eq!(
            why, checked,
            "{lang}: the check and the why key disagree:\n{screen}"
        );

        h.keys("w");
        let s = sim(&h);
        let shown = s.shown_index().expect("an event is shown");
        assert_eq!(
            event_number(shown),
            checked,
            "{lang}: `w` shows event #{checked}"
        );
        let kind = s
            .shown()
            .and_then(|snapshot| snapshot.last_event.as_ref())
            .map(|e| e.kind);
        assert_eq!(
            kind,
            Some(EventKind::BrokerDown),
            "{lang}: the cause is the outage"
        );
    }
}

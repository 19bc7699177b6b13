//! The compare sentence and the failing box, from hand-made reports and pictures.

use super::labels::consumer_state_key;
use super::view::{compare_rows, compare_sentence, failing};
use content::Strings;
use content::key;
use model::RunPaths;
use model::{
    Actor, BrokerKind, Event, EventKind, InvariantCheck, Metrics, Mode, Outcome, RunReport,
    Snapshot, Stage,
};

fn report(mode: Mode, invariants: InvariantCheck) -> RunReport {
    RunReport {
        scenario: "ordered-group".into(),
        mode,
        broker: BrokerKind::Asb,
        seed: 1,
        messages: 12,
        metrics: Metrics::default(),
        invariants,
        trace_hash: String::new(),
        events: 0,
        duration_ms: 0,
        paths: RunPaths {
            dir: "run".into(),
            service_db: "run/service.db".into(),
            broker_db: "run/broker.db".into(),
            provider_db: "run/provider.db".into(),
            blobs: "run/blobs".into(),
        },
    }
}

fn strings() -> Strings {
    Strings::from_pairs([
        (key::simulator::COMPARE_SAME, "same"),
        (key::simulator::COMPARE_DIFF, "{metric}: {safe} vs {naive}"),
        (
            key::simulator::COMPARE_VERDICTS,
            "invariants: {safe_verdict} vs {naive_verdict}",
        ),
        (key::simulator::INVARIANTS_OK, "hold"),
        (key::simulator::INVARIANTS_BROKEN, "BROKEN"),
        (key::metric::OUT_OF_ORDER, "out of order"),
    ])
}

#[test]
fn same_result_is_never_said_while_the_verdicts_differ() {
    let safe = report(Mode::Safe, InvariantCheck::default());
    let broken = InvariantCheck {
        violations: vec!["DLQ entry 3 (msg-000003) carries a reason of another message".into()],
        ..InvariantCheck::default()
    };
    let pitfall = report(Mode::Pitfall, broken);
    assert_eq!(
        compare_sentence(&strings(), &safe, &pitfall),
        "invariants: hold vs BROKEN"
    );
    assert_eq!(compare_sentence(&strings(), &safe, &safe.clone()), "same");
}

#[test]
fn orders_out_of_order_are_a_compare_row_and_the_difference() {
    let safe = report(Mode::Safe, InvariantCheck::default());
    let late = InvariantCheck {
        out_of_order: 2,
        violations: vec!["customer-1: order 7 took effect before the earlier order 5".into()],
        ..InvariantCheck::default()
    };
    let pitfall = report(Mode::Pitfall, late);
    let rows = compare_rows(&safe, &pitfall);
    assert!(
        rows.contains(&(key::metric::OUT_OF_ORDER, 0, 2)),
        "{rows:?}"
    );
    assert_eq!(
        compare_sentence(&strings(), &safe, &pitfall),
        "out of order: 0 vs 2"
    );
}

fn picture(actor: Actor, kind: EventKind) -> Snapshot {
    let state = model::state::State::default();
    Snapshot {
        scalars: state.scalars,
        metrics: Metrics::default(),
        tokens: Vec::new(),
        last_event: Some(Event::new(actor, Stage::Broker, kind).outcome(Outcome::Failed)),
        tables: state.tables,
    }
}

#[test]
fn a_consumers_failure_at_the_broker_marks_the_consumer_box() {
    // A refused settle or the renewal limit is the consumer's doing; the broker is fine.
    let settle = picture(Actor::Consumer(0), EventKind::LockLost);
    assert_eq!(failing(&settle).map(|f| f.0), Some(Stage::Consumer));
    let renewal = picture(Actor::Consumer(1), EventKind::RenewalLimitReached);
    assert_eq!(failing(&renewal).map(|f| f.0), Some(Stage::Consumer));
    let broker = picture(Actor::Broker, EventKind::LockExpired);
    assert_eq!(failing(&broker).map(|f| f.0), Some(Stage::Broker));
}

#[test]
fn a_consumer_at_its_renewal_limit_is_still_working() {
    for broker in BrokerKind::ALL {
        for kind in [
            EventKind::RenewalLimitReached,
            EventKind::VisibilityLimitReached,
        ] {
            assert_eq!(consumer_state_key(kind, broker), key::consumer::PROCESSING);
        }
    }
}

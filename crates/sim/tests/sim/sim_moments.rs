//! The `moments` contract: over every scenario × mode × broker on several seeds, the moment counts
//! equal the run's metrics and every moment names an earlier cause.

use std::collections::HashMap;

use crate::support::sim_run;
use content::Lang;
use queuelab_sim::moments::{self, MomentKind};

use queuelab_sim::scenario::IDS;
use queuelab_sim::{BrokerKind, EventKind, Mode, Story};
use sim_run::{named, start};

const SEEDS: [u64; 3] = [1, 2, 3];

/// Runs one configuration with a story and checks the contract; returns the moment counts.
fn check(id: &str, mode: Mode, broker: BrokerKind, seed: u64) -> HashMap<MomentKind, u64> {
    let (mut sim, _dir) = start(named(id), mode, broker, seed);
    let mut story = Story::for_run(&sim);
    let mut last_index = 0;
    let mut stale_deletes = 0;
    while sim.step().expect("step").is_some() {
        let (e, facts) = sim.last_step().expect("the event just stepped");
        last_index = e.index;
        if matches!(
            e.kind,
            EventKind::DeletedStaleHandle | EventKind::ForwardedToDlqStaleDelete
        ) {
            stale_deletes += 1;
        }
        for m in story.observe(e, facts) {
            assert_eq!(
                m.event, e.index,
                "a moment belongs to the event that made it visible"
            );
        }
    }
    story.finish();
    let report = sim.report().expect("report");
    let texts = moments::builtin();
    let what = format!("{id} {} {} seed {seed}", mode.as_str(), broker.as_str());
    let mut counts: HashMap<MomentKind, u64> = HashMap::new();
    for m in story.moments() {
        *counts.entry(m.kind).or_default() += 1;
        assert!(
            m.cause_event < m.event,
            "{what}: {} at event {} has cause {}",
            m.kind.as_str(),
            m.event,
            m.cause_event
        );
        assert!(m.event <= last_index, "{what}: moment after the last event");
        assert!(m.cause_ms <= m.at_ms, "{what}: cause later in time");
        assert!(!m.message_id.is_empty() && m.order > 0, "{what}: {m:?}");
        for lang in [Lang::En, Lang::De] {
            let text = moments::render(&texts, lang, m);
            assert!(
                !text.contains('{') && !text.starts_with("moment.") && !text.contains("term."),
                "{what}: unfilled text {text:?}"
            );
        }
    }
    let n = |k| counts.get(&k).copied().unwrap_or(0);
    let metrics = &report.metrics;
    let pairs = [
        (
            MomentKind::DuplicateEffect,
            metrics.duplicate_effects,
            "duplicate_effects",
        ),
        (
            MomentKind::PreventedDuplicate,
            metrics.prevented_duplicates,
            "prevented_duplicates",
        ),
        (MomentKind::LostOrder, metrics.lost, "lost"),
        (
            MomentKind::DeadLettered,
            metrics.dead_lettered,
            "dead_lettered",
        ),
    ];
    for (kind, metric, label) in pairs {
        assert_eq!(
            n(kind),
            metric,
            "{what}: {} moments vs {label}",
            kind.as_str()
        );
    }
    // A stale SQS delete is a lost hold that refuses nothing: counted, but no lock-lost moment.
    assert_eq!(
        n(MomentKind::LockLost) + stale_deletes,
        metrics.lock_lost,
        "{what}: lock-lost moments and stale deletes vs lock_lost"
    );
    counts
}

fn check_scenario(id: &str) {
    for mode in Mode::ALL {
        for broker in BrokerKind::ALL {
            for seed in SEEDS {
                check(id, mode, broker, seed);
            }
        }
    }
}

macro_rules! moment_tests {
    ($($name:ident => $id:literal),* $(,)?) => {
        $(#[test] fn $name() { check_scenario($id); })*

        /// Scenarios added later (ordered-group, lock-renewal, ...) are covered here until
        /// they get their own test above.
        #[test]
        fn every_other_scenario() {
            let tested = [$($id),*];
            for id in IDS.iter().filter(|id| !tested.contains(id)) {
                check_scenario(id);
            }
            assert!(IDS.len() >= tested.len());
        }
    };
}

moment_tests! {
    happy_path => "happy-path",
    broker_outage => "broker-outage",
    claim_check => "claim-check",
    lost_ack => "lost-ack",
    poison_dlq => "poison-dlq",
    twin_consumers => "twin-consumers",
    duplicate_publish => "duplicate-publish",
    execute_update_trap => "execute-update-trap",
    two_phase_claim => "two-phase-claim",
    dedup_window => "dedup-window",
    backlog => "backlog",
    chaos => "chaos",
}

/// The negative controls: the naive runs that must break do show their duplicates as moments,
/// and the safe twin run (SQS standard hands the copy to the other consumer at once) shows a
/// prevented duplicate (a test of counts alone could pass on
/// zero = zero everywhere).
#[test]
fn the_lessons_show_up_as_moments() {
    let dup = check("lost-ack", Mode::Naive, BrokerKind::Asb, 1);
    assert!(dup.get(&MomentKind::DuplicateEffect).copied().unwrap_or(0) > 0);
    let twin = check("twin-consumers", Mode::Safe, BrokerKind::Sqs, 1);
    assert!(
        twin.get(&MomentKind::PreventedDuplicate)
            .copied()
            .unwrap_or(0)
            > 0
    );
    let dlq = check("poison-dlq", Mode::Safe, BrokerKind::Asb, 1);
    assert!(dlq.get(&MomentKind::DeadLettered).copied().unwrap_or(0) > 0);
    let outage = check("broker-outage", Mode::Safe, BrokerKind::Asb, 1);
    assert!(outage.get(&MomentKind::OutboxWaiting).copied().unwrap_or(0) > 0);
}

/// The duplicate in `lost-ack` naive is explained by its cause: the first delivery that wrote
/// the effect and lost its connection.
#[test]
fn a_duplicate_names_the_first_delivery_as_its_cause() {
    let (mut sim, _dir) = start(named("lost-ack"), Mode::Naive, BrokerKind::Asb, 1);
    let mut story = Story::for_run(&sim);
    let mut kinds = HashMap::new();
    while sim.step().expect("step").is_some() {
        let (e, facts) = sim.last_step().expect("event");
        kinds.insert(e.index, e.kind);
        story.observe(e, facts);
    }
    story.finish();
    let dup = story
        .moments()
        .iter()
        .find(|m| m.kind == MomentKind::DuplicateEffect)
        .expect("a duplicate effect");
    assert_eq!(
        kinds[&dup.cause_event],
        EventKind::NaiveEffectThenConnectionLost
    );
    let text = moments::render(&moments::builtin(), Lang::En, dup);
    assert!(text.contains("lost its connection"), "{text}");
    assert!(text.contains(&format!("Order {}", dup.order)), "{text}");
}

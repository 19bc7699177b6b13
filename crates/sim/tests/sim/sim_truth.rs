//! The simulator never teaches a falsehood: every scenario × mode × broker runs on several seeds,
//! and each caption and moment is checked against the run's events and files (`support/truth.rs`).
//! The checker itself must catch a deliberately wrong caption, a wrong duration and a wrong count,
//! or its silence proves nothing.

use crate::support::truth;

use std::time::Instant;

use content::{self, Captions, ContentSource, load};
use queuelab_sim::moments::{self, Arg};
use queuelab_sim::scenario::IDS;
use queuelab_sim::{BrokerKind, EventKind, Mode};
use truth::{Skip, falsehoods, run};

/// Every check is on: the engine announces "reachable again" only after the last overlapping
/// outage, so the overlapping-outage check holds.
const SKIP: Skip = Skip {
    overlapping_outage: false,
};

fn texts() -> (Captions, Captions) {
    let content = load(&ContentSource::Embedded).expect("valid content");
    (
        Captions::clone(&content.captions),
        Captions::clone(&content.moments),
    )
}

/// Scenarios whose runs cost the most (claim-check writes its blobs, chaos and backlog are
/// long): the part `cargo test` runs plays them on one seed only.
const HEAVY: [&str; 3] = ["claim-check", "chaos", "backlog"];

/// Runs the matrix on `seeds` (`heavy_seeds` for the [`HEAVY`] scenarios) and fails with every
/// falsehood found.
fn check_matrix(seeds: &[u64], heavy_seeds: &[u64]) {
    let (captions, texts) = texts();
    let started = Instant::now();
    let mut runs = 0;
    let mut found = Vec::new();
    for id in IDS.iter() {
        let scenario_started = Instant::now();
        for mode in Mode::ALL {
            for broker in BrokerKind::ALL {
                let seeds = if HEAVY.contains(id) {
                    heavy_seeds
                } else {
                    seeds
                };
                for &seed in seeds {
                    let dir = tempfile::tempdir().expect("tempdir");
                    let r = run(id, mode, broker, seed, dir.path());
                    found.extend(falsehoods(&r, &captions, &texts, SKIP));
                    runs += 1;
                }
            }
        }
        eprintln!("{id}: {:?}", scenario_started.elapsed());
    }
    eprintln!("{runs} runs checked in {:?}", started.elapsed());
    let shown: Vec<&String> = found.iter().take(40).collect();
    assert!(
        found.is_empty(),
        "{} falsehoods, the first ones:\n{shown:#?}",
        found.len()
    );
}

/// The representative part `cargo test` runs: every scenario, mode and broker on two seeds
/// (the heavy ones on one), about 150 runs.
#[test]
fn captions_and_moments_are_true_on_representative_seeds() {
    check_matrix(&[1, 13], &[1]);
}

/// The whole matrix: every scenario, mode and broker on seeds 1-20, so scenarios x 3 x 2 x 20
/// runs (it prints the count; about half an hour on two busy cores, half of it claim-check
/// writing its blobs; `cargo test --test sim sim_truth:: -- --ignored`).
#[test]
#[ignore = "the full seeds matrix takes about half an hour; cargo test runs a representative part"]
fn captions_and_moments_are_true_on_seeds_1_to_20() {
    let all: Vec<u64> = (1..=20).collect();
    check_matrix(&all, &all);
}

/// The shipped captions with the text `from` replaced by `to`: a deliberately wrong caption.
fn captions_with(shipped: &Captions, from: &str, to: &str) -> Captions {
    let wrong_file = include_str!("../../../../assets/sim/captions.toml").replace(from, to);
    let mut problems = Vec::new();
    let wrong = content::captions_parse("captions.toml", &wrong_file, &mut problems)
        .expect("the fixture parses");
    assert_ne!(&wrong, shipped, "the fixture changed the caption");
    wrong
}

/// A caption in the other broker's words is caught: SQS's delete told as Service Bus's
/// complete, on a run against SQS.
#[test]
fn a_caption_in_the_other_brokers_words_is_caught() {
    let (captions, texts) = texts();
    let wrong = captions_with(
        &captions,
        "Consumer deleted the message with DeleteMessage (receipt handle {0}): it is gone from the queue.",
        "Consumer completed the message ({0}): the broker deletes it.",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run("happy-path", Mode::Safe, BrokerKind::Sqs, 1, dir.path());
    assert!(falsehoods(&r, &captions, &texts, SKIP).is_empty());
    let caught = falsehoods(&r, &wrong, &texts, SKIP);
    assert!(
        caught
            .iter()
            .any(|f| f.contains("names 'completed', not sqs's")),
        "{caught:#?}"
    );
}

/// The old lock-lost caption ("... and the message went to someone else") must be caught
/// where nobody else received the message afterwards.
#[test]
fn a_caption_that_claims_too_much_is_caught() {
    let (captions, texts) = texts();
    let wrong = captions_with(
        &captions,
        "so this instance no longer holds the message; the broker can hand it to another instance (lock lost).",
        "and the message went to someone else (lock lost).",
    );
    // Refused settles of naive consumers on Service Bus, where a lock runs out under a slow
    // consumer; at least one of these runs refuses a settle.
    let mut caught = Vec::new();
    let mut refused = 0;
    for id in ["twin-consumers", "lock-renewal", "chaos", "lost-ack"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let r = run(id, Mode::Naive, BrokerKind::Asb, 1, dir.path());
        refused += r
            .events
            .iter()
            .filter(|e| e.kind == EventKind::LockLost)
            .count();
        assert!(falsehoods(&r, &captions, &texts, SKIP).is_empty());
        caught.extend(falsehoods(&r, &wrong, &texts, SKIP));
    }
    assert!(refused > 0, "some run refuses a settle");
    assert!(
        caught.iter().any(|f| f.contains("nobody else received it")),
        "{caught:#?}"
    );
}

/// A caption duration that never elapsed and a count the DLQ does not store are caught.
#[test]
fn a_wrong_duration_and_a_wrong_count_are_caught() {
    let (captions, texts) = texts();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut r = run("poison-dlq", Mode::Naive, BrokerKind::Asb, 1, dir.path());
    assert!(falsehoods(&r, &captions, &texts, SKIP).is_empty());
    let dead = r
        .moments
        .iter_mut()
        .find(|m| m.text == "moment.dead-lettered")
        .expect("a dead-lettered moment");
    dead.args[2] = Arg::Text("99".into());
    let caught = falsehoods(&r, &captions, &texts, SKIP);
    assert!(
        caught.iter().any(|f| f.contains("the DLQ stores")),
        "{caught:#?}"
    );

    let dir = tempfile::tempdir().expect("tempdir");
    let mut r = run("chaos", Mode::Naive, BrokerKind::Asb, 1, dir.path());
    assert!(falsehoods(&r, &captions, &texts, SKIP).is_empty());
    let expiry = r
        .events
        .iter_mut()
        .find(|e| e.kind == EventKind::LockExpired)
        .expect("a lock runs out in chaos");
    // A duration the lock never ran: no receive or renewal lies that far back.
    expiry.args[1] = "5001".into();
    let caught = falsehoods(&r, &captions, &texts, SKIP);
    assert!(
        caught
            .iter()
            .any(|f| f.contains("says the lock ran 5001 ms")),
        "{caught:#?}"
    );
    let text = moments::caption(&captions, content::Lang::En, expiry_event(&r));
    assert!(text.contains("5 s"), "{text}");
}

fn expiry_event(r: &truth::Run) -> &queuelab_sim::Event {
    r.events
        .iter()
        .find(|e| e.kind == EventKind::LockExpired)
        .expect("the tampered event")
}

/// Plays `scenarios` (safe and naive) on `broker` until a run has an event of `kind`, sets its
/// argument `arg` to what `wrong` makes of it, and returns what the checker says.
fn tamper(
    scenarios: &[&str],
    broker: BrokerKind,
    kind: EventKind,
    arg: usize,
    wrong: impl Fn(u64) -> u64,
) -> Vec<String> {
    let (captions, texts) = texts();
    for id in scenarios {
        for mode in [Mode::Safe, Mode::Naive] {
            let dir = tempfile::tempdir().expect("tempdir");
            let mut r = run(id, mode, broker, 1, dir.path());
            if !r.events.iter().any(|e| e.kind == kind) {
                continue;
            }
            assert!(
                falsehoods(&r, &captions, &texts, SKIP).is_empty(),
                "{id} {mode:?} is true before the tampering"
            );
            let e = r
                .events
                .iter_mut()
                .find(|e| e.kind == kind)
                .expect("found above");
            let was: u64 = e.args[arg].parse().expect("a number");
            e.args[arg] = wrong(was).to_string();
            return falsehoods(&r, &captions, &texts, SKIP);
        }
    }
    panic!("no run of {scenarios:?} on {broker:?} has a {kind} event");
}

/// "Its lock runs out in N ms" counts from the receive: the lock's whole duration (what the
/// caption said before) is caught.
#[test]
fn a_wrong_lock_time_after_a_lost_connection_is_caught() {
    let caught = tamper(
        &["lost-ack", "chaos"],
        BrokerKind::Asb,
        EventKind::AppliedThenConnectionLost,
        0,
        |_| 60_000,
    );
    assert!(
        caught
            .iter()
            .any(|f| f.contains("says the lock runs out in")),
        "{caught:#?}"
    );
}

/// "Backs off N ms", "retry in N ms" and "seen N ms ago" must be the history's times.
#[test]
fn wrong_backoff_retry_and_seen_times_are_caught() {
    let caught = tamper(
        &["poison-dlq", "transient-retry", "chaos"],
        BrokerKind::Asb,
        EventKind::Abandoned,
        1,
        |ms| ms * 1000,
    );
    assert!(
        caught.iter().any(|f| f.contains("backs off")),
        "{caught:#?}"
    );
    let caught = tamper(
        &["poison-dlq", "transient-retry", "chaos"],
        BrokerKind::Sqs,
        EventKind::RetryDelayed,
        0,
        |ms| ms * 1000,
    );
    assert!(
        caught.iter().any(|f| f.contains("says retry in")),
        "{caught:#?}"
    );
    // A replay that keeps its MessageId inside the duplicate detection window.
    let (captions, texts) = texts();
    for broker in BrokerKind::ALL {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut r = same_id_replay(broker, dir.path());
        assert!(
            falsehoods(&r, &captions, &texts, SKIP).is_empty(),
            "{:#?}",
            falsehoods(&r, &captions, &texts, SKIP)
        );
        let dropped = r
            .events
            .iter_mut()
            .find(|e| e.kind == EventKind::ReplayDroppedDuplicate)
            .expect("the same-id replay is dropped");
        let ago: u64 = dropped.args[1].parse().expect("ms");
        dropped.args[1] = (ago + 1).to_string();
        let caught = falsehoods(&r, &captions, &texts, SKIP);
        assert!(caught.iter().any(|f| f.contains("was seen")), "{caught:#?}");
    }
}

/// `poison-dlq` with duplicate detection, its replays left to the operator: once four messages
/// sit in the DLQ the cause is fixed and two are replayed under their own `MessageId`s.
fn same_id_replay(broker: BrokerKind, dir: &std::path::Path) -> truth::Run {
    let mut sc = queuelab_sim::scenario::find("poison-dlq").expect("scenario");
    sc.script
        .retain(|s| matches!(s.action, queuelab_sim::scenario::ScriptAction::Fault(_)));
    sc.setup.dedup = true;
    let sim = queuelab_sim::Simulation::new(queuelab_sim::RunConfig {
        scenario: sc,
        mode: Mode::Safe,
        broker,
        seed: 1,
        messages: None,
        dir: dir.join("run"),
    })
    .expect("new run");
    let mut replayed = false;
    truth::play(sim, format!("same-id replay {}", broker.as_str()), |s| {
        if !replayed && s.dlq().expect("dlq").len() >= 4 {
            replayed = true;
            s.fix_cause();
            s.replay_dlq(2);
        }
    })
}

/// A replay under a new `MessageId` keeps the logical message id in the envelope, so the
/// inbox recognises a message it already processed: the moment must not claim the opposite
/// (the retracted "the inbox does not know the new id").
#[test]
fn the_new_id_replay_moment_says_the_envelope_keeps_the_inbox_id() {
    let (_, texts) = texts();
    for (lang, keeps, retracted) in [
        (
            content::Lang::En,
            "envelope keeps",
            "does not know the new id",
        ),
        (
            content::Lang::De,
            "Umschlag behält",
            "kennt die neue ID nicht",
        ),
    ] {
        let text = texts
            .get(lang, "moment.replayed.new-id")
            .expect("the moment text");
        assert!(text.contains(keeps) && !text.contains(retracted), "{text}");
    }
}

/// The lock a moment names is the one of the delivery it speaks of: a later delivery's lock
/// (another consumer's, or the next receive's) is another time. These runs named one before.
#[test]
fn a_moment_names_the_lock_of_its_own_delivery() {
    let (captions, texts) = texts();
    let cases = [
        ("chaos", Mode::Safe, BrokerKind::Asb, 4),
        ("chaos", Mode::Safe, BrokerKind::Sqs, 4),
        ("chaos", Mode::Safe, BrokerKind::Sqs, 11),
        ("lock-renewal", Mode::Pitfall, BrokerKind::Asb, 14),
    ];
    for (id, mode, broker, seed) in cases {
        let dir = tempfile::tempdir().expect("tempdir");
        let r = run(id, mode, broker, seed, dir.path());
        let found = falsehoods(&r, &captions, &texts, SKIP);
        assert!(found.is_empty(), "{found:#?}");
    }
}

/// A moment that names another delivery's lock is caught: the lock-lost moment of
/// `lock-renewal` pitfall on seed 14 given the time of consumer-B's later lock.
#[test]
fn a_lock_of_another_delivery_is_caught() {
    let (captions, texts) = texts();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut r = run(
        "lock-renewal",
        Mode::Pitfall,
        BrokerKind::Asb,
        14,
        dir.path(),
    );
    let lost = r
        .moments
        .iter()
        .position(|m| {
            m.text == "moment.lock-lost.check" && m.message_id == "msg-000001" && m.event > 40
        })
        .expect("consumer-A's lock-lost moment");
    let later_end = r
        .events
        .iter()
        .find(|e| {
            e.kind == EventKind::LockExpired
                && e.message_id.as_deref() == Some("msg-000001")
                && e.index > 40
                && e.index < r.moments[lost].event
        })
        .expect("the later delivery's lock end")
        .at_ms;
    assert!(falsehoods(&r, &captions, &texts, SKIP).is_empty());
    r.moments[lost].args[4] = Arg::Ms(later_end);
    let caught = falsehoods(&r, &captions, &texts, SKIP);
    assert!(
        caught.iter().any(|f| f.contains("'s delivery")),
        "{caught:#?}"
    );
}

/// A refused ChangeMessageVisibility is a refused release for a retry, not a settle: the
/// history records an abandon and the moment names the call.
#[test]
fn a_refused_visibility_change_is_told_as_what_it_is() {
    let (captions, texts) = texts();
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run("chaos", Mode::Naive, BrokerKind::Sqs, 6, dir.path());
    assert!(falsehoods(&r, &captions, &texts, SKIP).is_empty());
    let refused = r
        .events
        .iter()
        .find(|e| e.kind == EventKind::LockLost && e.message_id.as_deref() == Some("msg-000091"))
        .expect("the refused call");
    let ops = queuelab_sim::history::operations(refused);
    assert_eq!(ops[1].f, "abandon", "{ops:?}");
    let m = r
        .moments
        .iter()
        .find(|m| m.event == refused.index && m.kind == moments::MomentKind::LockLost)
        .expect("its moment");
    let shown = moments::render(&texts, content::Lang::En, m);
    assert!(
        shown.contains("ChangeMessageVisibility") && !shown.contains("tried to settle"),
        "{shown}"
    );
}

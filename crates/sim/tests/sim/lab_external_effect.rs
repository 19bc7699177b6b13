//! Lab 4's particulars, the external effect, checked for real: the starting file's charge inside
//! a transaction is refused at its line; a redelivery that meets a claim in progress waits
//! instead of being completed; the provider answers 409 while a call with the same key still
//! runs and forgets keys after the scenario's retention. What every lab must do is
//! `lab_catalogue.rs`.

use crate::support::lab as support;

use std::path::Path;
use std::sync::Arc;

use queuelab_sim::lab::probe::{Probe, ProbeState, Site};
use queuelab_sim::lab::{LabSql, Section, lab_simulation};
use queuelab_sim::{BrokerKind, Simulation, scenario};
use support::{failed_as, lab, start_failure};

/// Lab 4's handler reads the scenario's claim lease (`:claim_lease_ms`): each brief documents
/// it, beside what every lab's brief documents.
#[test]
fn lab_four_brief_documents_the_claim_lease() {
    let lab = lab(4);
    assert!(lab.charged && !lab.poison);
    for lang in content::Lang::ALL {
        let brief = &lab.brief[&lang];
        for name in Section::Handle.scenario_parameters() {
            assert!(brief.contains(&format!("`{name}`")), "{lang}: {name}");
        }
    }
}

#[test]
fn the_starting_file_has_its_charge_inside_the_transaction_refused_at_its_line() {
    let lab = lab(4);
    let f = start_failure(&lab);
    assert_eq!(failed_as(&f), "charge-in-transaction");
    assert_eq!(failed_as(&f), lab.start_fails.moment);
    assert!(f.checker_agrees, "{:?}", f.violations);
    // The charge call, line 12 of start.sql, inside BEGIN IMMEDIATE.
    let statement = f.statement.as_ref().expect("the statement is named");
    assert_eq!((statement.line, statement.column), (12, 1));
    // Refused: the provider is never called, and the orders go to the DLQ, charged nowhere.
    let dir = tempfile::tempdir().expect("tempdir");
    let trap = scenario::find("execute-update-trap").expect("scenario");
    let (sim, _) = run(
        &lab.start,
        &trap,
        BrokerKind::Asb,
        Probe::Discover,
        dir.path(),
    );
    assert!(
        (sim.lab_breaches().iter()).all(|b| b.invariant.as_str() == "charge-in-transaction"),
        "{:?}",
        sim.lab_breaches()
    );
    assert_eq!(charges(dir.path()), (0, 0));
}

/// (charges, orders charged) at the provider of the run in `dir`.
fn charges(dir: &Path) -> (i64, i64) {
    let provider = rusqlite::Connection::open(dir.join("provider.db")).expect("db");
    provider
        .query_row(
            "SELECT COUNT(*), COUNT(DISTINCT order_id) FROM charges",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("charges")
}

/// `text` run as lab 4 on `scenario` × `broker` × seed 1, with `probe` aimed, to its end:
/// the simulation and the SQL the consumers' events showed.
fn run(
    text: &str,
    scenario: &queuelab_sim::Scenario,
    broker: BrokerKind,
    probe: Probe,
    dir: &Path,
) -> (Simulation, Vec<(Option<String>, String)>) {
    let lab = lab(4);
    let sql = Arc::new(LabSql::prepare(text, &lab.sections).expect("prepares"));
    let kind = (lab.poison, lab.charged);
    let mut sim =
        lab_simulation(sql, scenario, broker, 1, kind, dir.to_path_buf()).expect("lab run");
    sim.lab_set_probe(probe);
    let mut seen = Vec::new();
    while let Some(ev) = sim.step().expect("step") {
        seen.push((ev.message_id.clone(), ev.sql.join(" ")));
    }
    sim.lab_check_charges().expect("charges read");
    (sim, seen)
}

/// `charge` is not rolled back, and the provider answers a key it knows with its first
/// charge: a handler that charges and then fails leaves one charge per order however often
/// the message comes back.
#[test]
fn a_charge_survives_the_failure_after_it_and_a_known_key_is_not_charged_again() {
    let lab = lab(4);
    let text = lab.solution.replace(
        "UPDATE inbox SET processed_ms",
        "SELECT CASE WHEN :delivery_count < 2 THEN json('not json') END;\nUPDATE inbox SET processed_ms",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let lost_ack = scenario::find("lost-ack").expect("scenario");
    let (sim, _) = run(
        &text,
        &lost_ack,
        BrokerKind::Sqs,
        Probe::Discover,
        dir.path(),
    );
    assert!(sim.lab_breaches().is_empty(), "{:?}", sim.lab_breaches());
    assert_eq!(charges(dir.path()), (10, 10));
    let report = sim.report().expect("report");
    assert!(report.invariants.ok(), "{:?}", report.invariants.violations);
}

/// The consumer crashes right after committing its claim. The redelivery meets the claim
/// before its lease ran out: the UNIQUE violation is no duplicate (the ledger holds no effect
/// of the message), so the delivery waits; a later one takes the claim over, and the order is
/// charged and takes effect once.
#[test]
fn a_redelivery_that_meets_a_claim_in_progress_waits_and_is_not_completed() {
    let lab = lab(4);
    let commit = LabSql::prepare(&lab.solution, &lab.sections)
        .expect("prepares")
        .statements(Section::Handle)
        .iter()
        .position(|s| s.sql.trim().eq_ignore_ascii_case("COMMIT"))
        .expect("the claim's commit");
    let crash = Probe::Crash {
        site: Site {
            section: Section::Handle,
            index: commit,
        },
        client_retry: false,
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let two_phase = scenario::find("two-phase-claim").expect("scenario");
    let (sim, seen) = run(
        &lab.solution,
        &two_phase,
        BrokerKind::Sqs,
        crash,
        dir.path(),
    );
    assert!(
        sim.lab_probe().is_some_and(ProbeState::landed),
        "the crash struck"
    );
    let waited: Vec<_> = seen
        .iter()
        .filter(|(_, sql)| sql.contains("a claim not yet processed"))
        .collect();
    assert!(!waited.is_empty(), "a delivery met the claim in progress");
    assert!(sim.lab_breaches().is_empty(), "{:?}", sim.lab_breaches());
    let messages = i64::from(scenario::find("two-phase-claim").expect("s").setup.messages);
    assert_eq!(charges(dir.path()), (messages, messages));
    let report = sim.report().expect("report");
    assert!(report.invariants.ok(), "{:?}", report.invariants.violations);
}

/// The provider's answer times out while it is still at work; the immediate retry's call with
/// the same key gets 409 "in progress" and waits, and the order is charged once.
#[test]
fn a_call_while_the_same_key_still_runs_gets_409_and_waits() {
    let lab = lab(4);
    let (_, text) = (lab.right.iter())
        .find(|(n, _)| n == "charge-before-the-transaction.sql")
        .expect("the variant ships");
    let mut waited = 0;
    for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut two_phase = scenario::find("two-phase-claim").expect("scenario");
        two_phase.setup.immediate_retries = 1;
        let messages = i64::from(two_phase.setup.messages);
        let (sim, seen) = run(text, &two_phase, broker, Probe::Discover, dir.path());
        waited += seen.iter().filter(|(_, s)| s.contains("409")).count();
        assert!(sim.lab_breaches().is_empty(), "{:?}", sim.lab_breaches());
        assert_eq!(charges(dir.path()), (messages, messages));
        assert!(sim.report().expect("report").invariants.ok());
    }
    assert!(waited > 0, "some call met a call still running");
}

/// A provider that keeps keys for a millisecond: the delivery after a timed-out charge calls
/// with the same key, and the provider, having forgotten it, charges a second time.
#[test]
fn a_key_the_provider_has_forgotten_charges_again() {
    let lab = lab(4);
    let (_, text) = (lab.right.iter())
        .find(|(n, _)| n == "charge-before-the-transaction.sql")
        .expect("the variant ships");
    let dir = tempfile::tempdir().expect("tempdir");
    let mut two_phase = scenario::find("two-phase-claim").expect("scenario");
    two_phase.setup.provider_key_retention_ms = 1;
    let messages = i64::from(two_phase.setup.messages);
    let (sim, _) = run(
        text,
        &two_phase,
        BrokerKind::Sqs,
        Probe::Discover,
        dir.path(),
    );
    let (n, orders) = charges(dir.path());
    assert_eq!(orders, messages);
    assert!(n > messages, "{n} charges for {messages} orders");
    let report = sim.report().expect("report");
    assert!(
        (report.invariants.violations.iter()).any(|v| v.contains("charged 2 times")),
        "{:?}",
        report.invariants.violations
    );
}

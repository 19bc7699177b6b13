//! Lab 4, the external effect, checked for real: the starting file charges twice on its named
//! seed; the reference solution (an idempotency key from the message, the charge before the
//! commit) passes every seed; each plausible wrong answer fails.

#[path = "support/lab.rs"]
mod support;

use std::sync::Arc;

use queuelab::sim::lab::{CheckOutcome, LabSql, Section};
use queuelab::sim::{BrokerKind, Mode, MomentKind, RunConfig, Simulation, scenario};
use support::{check, failed_as, lab, start_failure};

#[test]
fn lab_four_ships_complete_in_both_languages() {
    let lab = lab(4);
    assert_eq!(
        lab.sections,
        [Section::Schema, Section::Check, Section::Handle]
    );
    assert_eq!(
        lab.scenarios,
        ["execute-update-trap", "two-phase-claim", "lost-ack"]
    );
    assert!(lab.charged && !lab.poison);
    support::assert_brief_documents_the_sections(&lab);
}

#[test]
fn the_starting_file_charges_twice_on_its_named_seed() {
    let lab = lab(4);
    let f = start_failure(&lab);
    assert_eq!(failed_as(&f), lab.start_fails.moment);
    let moment = f.moment.as_ref().expect("a moment");
    assert_eq!(moment.kind, MomentKind::DuplicateEffect);
    assert!(moment.cause_event < moment.event);
    assert!(f.checker_agrees, "{:?}", f.violations);
    assert!(
        f.violations.iter().any(|v| v.contains("charged 2 times")),
        "{:?}",
        f.violations
    );
    // The statement that made the second charge: the charge call, line 12 of start.sql.
    let statement = f.statement.as_ref().expect("the statement is named");
    assert_eq!((statement.line, statement.column), (12, 1));
    assert_eq!(statement.message_id, moment.message_id);
}

#[test]
fn the_reference_solution_passes_every_seed_of_the_check() {
    let lab = lab(4);
    match check(&lab, &lab.solution) {
        CheckOutcome::Passed { runs, .. } => assert_eq!(runs, lab.seeds * 6),
        other => panic!("solution must pass: {other:?}"),
    }
}

/// `charge` is not rolled back, and the provider answers a key it knows with its first
/// charge: a handler that charges and then fails leaves one charge per order however often
/// the message comes back.
#[test]
fn a_charge_survives_the_rollback_and_a_known_key_is_not_charged_again() {
    let lab = lab(4);
    let text = lab.solution.replace(
        "INSERT INTO inbox",
        "SELECT CASE WHEN :delivery_count < 2 THEN json('not json') END;\nINSERT INTO inbox",
    );
    let sql = Arc::new(LabSql::prepare(&text, &lab.sections).expect("prepares"));
    let dir = tempfile::tempdir().expect("tempdir");
    let config = RunConfig {
        scenario: scenario::find("lost-ack").expect("scenario"),
        mode: Mode::Safe,
        broker: BrokerKind::Sqs,
        seed: 1,
        messages: None,
        dir: dir.path().to_path_buf(),
    };
    let mut sim = Simulation::with_lab(config, sql).expect("lab run");
    while sim.step().expect("step").is_some() {}
    sim.lab_check_charges().expect("charges read");
    assert!(sim.lab_breaches().is_empty(), "{:?}", sim.lab_breaches());
    let provider = rusqlite::Connection::open(dir.path().join("provider.db")).expect("db");
    let (charges, orders): (i64, i64) = provider
        .query_row(
            "SELECT COUNT(*), COUNT(DISTINCT order_id) FROM charges",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("charges");
    assert_eq!((charges, orders), (10, 10));
    let report = sim.report().expect("report");
    assert!(report.invariants.ok(), "{:?}", report.invariants.violations);
}

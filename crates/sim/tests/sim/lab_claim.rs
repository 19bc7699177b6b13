//! Lab 3's particulars, the dispatcher's lease, checked for real: the starting file (a plain
//! SELECT of the unpublished rows) lets two live dispatchers send the same row; a lease without
//! an end is stuck after duplicate-publish; a claim of the wrong shape cannot run, named at its
//! statement. What every lab must do is `lab_catalogue.rs`.

use crate::support::lab as support;

use content::{LabInvariant, Lang, Strings};
use queuelab_sim::BrokerKind;
use queuelab_sim::lab::{CheckOutcome, LabFileErrorKind, Section};
use support::{broken, check_on, failed_as, lab, start_failure};

#[test]
fn the_starting_file_lets_two_dispatchers_send_one_row_on_its_named_seed() {
    let lab = lab(3);
    let f = start_failure(&lab);
    assert_eq!(failed_as(&f), lab.start_fails.moment);
    let breach = f.breach.as_ref().expect("a lab invariant");
    assert_eq!(breach.invariant, LabInvariant::TwoDispatchersOneRow);
    assert!(
        f.moment.is_none(),
        "no order is harmed: the inbox catches the copy"
    );
    assert!(f.checker_agrees, "{:?}", f.violations);
    // The statement that took the row a second time: the SELECT of @claim.
    let statement = f.statement.as_ref().expect("the statement is named");
    assert_eq!(statement.section, Section::Claim);
    assert_eq!(statement.message_id, breach.message_id);
    assert_eq!((statement.line, statement.column), (3, 1));
}

/// A lease without an end fails on the scenario the lab did not add, too: the crash in
/// duplicate-publish leaves the row with a dead dispatcher.
#[test]
fn a_lease_without_an_end_is_stuck_after_duplicate_publish_on_both_brokers() {
    let lab = lab(3);
    let text = &lab
        .wrong
        .iter()
        .find(|(n, _)| n == "lease-without-expiry.sql")
        .expect("file")
        .1;
    for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
        let f = broken(
            broker.as_str(),
            check_on(&lab, text, &["duplicate-publish"], &[broker], (1, 1)),
        );
        assert_eq!(failed_as(&f), "outbox-row-stuck", "{}", broker.as_str());
    }
}

/// A claim whose rows lack a column the dispatcher needs cannot run, at the statement that
/// returned them, in both languages.
#[test]
fn a_claim_of_the_wrong_shape_cannot_run_at_its_statement() {
    let lab = lab(3);
    let text = lab.solution.replace(
        "RETURNING id, message_id, order_id, body, group_id",
        "RETURNING id, message_id",
    );
    assert_ne!(text, lab.solution);
    let CheckOutcome::CannotRun(e) = check_on(
        &lab,
        &text,
        &["dispatcher-lease"],
        &[BrokerKind::Asb],
        (1, 1),
    ) else {
        panic!("a claim without order_id cannot run");
    };
    assert_eq!(e.kind, LabFileErrorKind::ClaimShape("order_id".into()));
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("UPDATE outbox"))
        .expect("claim");
    assert_eq!((e.line, e.column), (line, 1));
    for lang in Lang::ALL {
        let strings = Strings::built(lang);
        let rendered = e.render("lab.sql", &strings);
        assert!(
            rendered.starts_with(&format!("lab.sql:{line}:1: ")),
            "{rendered}"
        );
        assert!(
            rendered.contains("order_id") && rendered.contains("group_id"),
            "{rendered}"
        );
    }
}

/// A claim that keeps returning a published row would publish it for ever: the run stops with
/// the file's error instead of running on.
#[test]
fn a_claim_that_returns_published_rows_ends_the_run() {
    let lab = lab(3);
    let text = lab.start.replace(
        "WHERE published_ms IS NULL\n  AND failed_reason IS NULL",
        "WHERE failed_reason IS NULL",
    );
    assert_ne!(text, lab.start);
    let CheckOutcome::CannotRun(e) = check_on(
        &lab,
        &text,
        &["dispatcher-lease"],
        &[BrokerKind::Asb],
        (1, 1),
    ) else {
        panic!("an endless claim cannot run");
    };
    assert!(
        matches!(e.kind, LabFileErrorKind::ClaimedTooOften(_)),
        "{e}"
    );
}

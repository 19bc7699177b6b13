//! Lab 5's particulars, order per customer, checked for real: the starting file (commit, then
//! `publish`, which carries no group) loses an order and lets a customer's later order take
//! effect first; outbox rows without a group break order on both brokers; one group for all is
//! slow but in order; and the group of each message is the one the outbox row names. What every
//! lab must do is `lab_catalogue.rs`.

use crate::support::lab as support;

use queuelab_sim::lab::{CheckOutcome, Section};
use queuelab_sim::{BrokerKind, MomentKind};
use support::{broken, check, check_on, failed_as, lab, start_failure};

/// The starting file does not hand over lab 2's answer: it commits, then publishes, and the
/// API that crashes in between loses the order, named at the commit.
#[test]
fn the_starting_file_loses_an_order_on_its_named_seed() {
    let lab = lab(5);
    assert!(
        !lab.start.contains("INSERT INTO outbox"),
        "no outbox row yet"
    );
    let f = start_failure(&lab);
    assert_eq!(failed_as(&f), lab.start_fails.moment);
    let moment = f.moment.as_ref().expect("a moment");
    assert_eq!(moment.kind, MomentKind::LostOrder);
    assert!(f.checker_agrees, "{:?}", f.violations);
    let statement = f.statement.as_ref().expect("the statement is named");
    assert_eq!(statement.section, Section::Accept);
    assert_eq!(statement.message_id, moment.message_id);
}

/// Outbox rows without a group break order on both brokers (a queue without sessions, an SQS
/// standard queue), named at the credit insert of `@handle` that applied the later order first.
#[test]
fn outbox_rows_without_a_group_break_order_on_both_brokers() {
    let lab = lab(5);
    let text = wrong_answer(&lab, "outbox-without-a-group.sql");
    for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
        let f = broken(
            broker.as_str(),
            check_on(&lab, &text, &["ordered-group"], &[broker], (1, lab.seeds)),
        );
        let moment = f.moment.as_ref().expect("a moment");
        let statement = f.statement.as_ref().expect("the statement is named");
        assert_eq!(statement.section, Section::Handle);
        assert_eq!(statement.message_id, moment.message_id);
        assert_eq!(failed_as(&f), "out-of-order", "{}", broker.as_str());
        assert!(f.checker_agrees, "{:?}", f.violations);
    }
}

/// One group for every message keeps each customer in order too (the chapter's "single
/// lane": slower, not wrong), so the check passes it.
#[test]
fn one_group_for_everything_is_slow_but_in_order() {
    let lab = lab(5);
    let text = lab.solution.replace(":customer, :now_ms", "'all', :now_ms");
    assert_ne!(
        text, lab.solution,
        "the solution names the customer as the group"
    );
    match check(&lab, &text) {
        CheckOutcome::Passed { .. } => {}
        other => panic!("a single group keeps order: {other:?}"),
    }
}

/// `publish()` has no group: on an ordered scenario its message carries none, so the queue
/// is a plain one and the starting file's failing run breaks order too, as the independent
/// checker finds.
#[test]
fn a_message_published_directly_carries_no_group() {
    let lab = lab(5);
    assert!(lab.start.contains("SELECT publish(:message_id, :body)"));
    let f = broken("publish", check(&lab, &lab.start));
    assert!(
        f.violations
            .iter()
            .any(|v| v.contains("took effect before the earlier order")),
        "{:?}",
        f.violations
    );
}

fn wrong_answer(lab: &content::Lab, name: &str) -> String {
    match lab.wrong.iter().find(|(n, _)| n == name) {
        Some((_, text)) => text.clone(),
        None => panic!("wrong/{name}"),
    }
}

/// Once the first message made the queue one with sessions / a FIFO queue, a row without a
/// group is refused (Service Bus wants a `SessionId`, SQS a `MessageGroupId`) and the
/// dispatcher gives it up after its tries: the order is lost, and the check ends instead of
/// retrying for ever.
#[test]
fn a_row_without_a_group_on_an_ordered_queue_is_given_up() {
    let lab = lab(5);
    // The first order gets its customer's group, every later one none.
    let text = lab.solution.replace(
        ":customer, :now_ms FROM orders",
        "CASE WHEN id = 1 THEN :customer END, :now_ms FROM orders",
    );
    assert_ne!(text, lab.solution);
    for broker in [BrokerKind::Asb, BrokerKind::Sqs] {
        let f = broken(
            broker.as_str(),
            check_on(&lab, &text, &["ordered-group"], &[broker], (1, 1)),
        );
        assert_eq!(failed_as(&f), "lost-order", "{}", broker.as_str());
        assert!(f.checker_agrees, "{:?}", f.violations);
    }
}

use std::collections::HashSet;

use super::Ledger;

#[test]
fn an_outbox_row_leaves_the_backlog_once_however_often_it_is_marked() {
    let mut l = Ledger::new(3);
    l.outbox_written(10, 1);
    l.outbox_written(20, 2);
    assert_eq!(l.oldest_unpublished(), Some((10, 1)));
    l.rows_marked_published(&HashSet::from([1]));
    l.rows_marked_published(&HashSet::from([1]));
    assert_eq!(l.stages.outbox_pending, 1);
    assert_eq!(l.unpublished_rows(), 1);
    assert_eq!(l.oldest_unpublished(), Some((20, 2)));
}

#[test]
fn rows_given_up_leave_the_backlog_and_the_pending_count() {
    let mut l = Ledger::new(3);
    l.outbox_written(1, 1);
    l.outbox_written(2, 2);
    l.rows_leased(2);
    l.batch_let_go(2);
    l.rows_given_up(&[1, 2]);
    assert_eq!((l.stages.dispatching, l.stages.outbox_pending), (0, 0));
    assert_eq!(l.oldest_unpublished(), None);
}

#[test]
fn only_a_second_delivery_counts_as_a_redelivery_and_a_lock_ends_once() {
    let mut l = Ledger::new(1);
    l.delivered(1);
    l.delivered(2);
    assert_eq!((l.metrics.delivered, l.metrics.redeliveries), (2, 1));
    assert_eq!(l.stages.in_flight, 2);
    l.lock_ended();
    l.lock_ended();
    l.lock_ended();
    assert_eq!(l.stages.in_flight, 0, "never below zero");
}

#[test]
fn an_effect_counts_for_its_order_and_records_the_message_age() {
    let mut l = Ledger::new(2);
    assert!(l.has_no_effect(2));
    l.effect_applied(2, 150);
    l.effect_applied(9, u64::MAX);
    assert!(!l.has_no_effect(2));
    assert!(l.has_no_effect(1));
    assert!(!l.has_no_effect(9), "an order outside the run is not open");
    assert_eq!((l.stages.effects, l.metrics.effects), (2, 2));
    assert_eq!(l.first_ages(5), [150, u32::MAX]);
    assert_eq!(l.first_ages(1), [150]);
}

#[test]
fn business_keys_count_up_from_one() {
    let mut l = Ledger::new(1);
    assert_eq!(l.next_business_key(), 1);
    assert_eq!(l.next_business_key(), 2);
}

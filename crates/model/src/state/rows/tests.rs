use super::*;

/// Checks that every column of `row` has the expected header and text at its place, and that
/// the row has exactly the table's columns: two swapped cells or headers fail here.
fn assert_row<R: TableRow>(row: &R, want: &[(R::Column, &str, &str)])
where
    R::Column: std::fmt::Debug,
{
    let cells = cells(row);
    let headers = R::Column::TABLE.columns();
    assert_eq!(cells.len(), headers.len(), "{:?}", R::Column::TABLE);
    assert_eq!(want.len(), headers.len(), "every column is checked");
    for (column, header, text) in want {
        assert_eq!(headers[column.index()], *header, "{column:?}");
        assert_eq!(cells[column.index()], *text, "{column:?}");
    }
}

/// A column's place among the table's columns is its index, for every table.
fn assert_places<C: TableColumn + PartialEq + std::fmt::Debug>() {
    assert_eq!(C::ALL.len(), C::HEADERS.len());
    for (i, c) in C::ALL.iter().enumerate() {
        assert_eq!(c.index(), i, "{c:?}");
        let column: Column = (*c).into();
        assert_eq!((column.table(), column.index()), (C::TABLE, i));
    }
}

#[test]
fn every_column_sits_at_its_place_under_its_table() {
    assert_places::<OrderColumn>();
    assert_places::<OutboxColumn>();
    assert_places::<QueueColumn>();
    assert_places::<DlqColumn>();
    assert_places::<InboxColumn>();
    assert_places::<EffectColumn>();
}

#[test]
fn order_cells_line_up_with_their_headers() {
    let row = OrderRow {
        id: 4,
        request_id: "req-4".into(),
        amount_cents: 1250,
        created_ms: 77,
    };
    assert_row(
        &row,
        &[
            (OrderColumn::Id, "id", "4"),
            (OrderColumn::RequestId, "request_id", "req-4"),
            (OrderColumn::AmountCents, "amount_cents", "1250"),
            (OrderColumn::CreatedMs, "created_ms", "77"),
        ],
    );
}

#[test]
fn outbox_cells_line_up_with_their_headers() {
    let row = OutboxRow {
        id: 5,
        message_id: "msg-5".into(),
        created_ms: 10,
        published_ms: Some(20),
        lease_owner: Some("dispatcher-1".into()),
        lease_until_ms: Some(30),
        attempts: 2,
    };
    assert_row(
        &row,
        &[
            (OutboxColumn::Id, "id", "5"),
            (OutboxColumn::MessageId, "message_id", "msg-5"),
            (OutboxColumn::CreatedMs, "created_ms", "10"),
            (OutboxColumn::PublishedMs, "published_ms", "20"),
            (OutboxColumn::LeaseOwner, "lease_owner", "dispatcher-1"),
            (OutboxColumn::LeaseUntilMs, "lease_until_ms", "30"),
            (OutboxColumn::Attempts, "attempts", "2"),
        ],
    );
}

#[test]
fn a_written_outbox_row_is_unpublished_unleased_and_not_attempted() {
    let cells = cells(&OutboxRow::written(1, "msg-1".into(), 3));
    assert_eq!(cells, ["1", "msg-1", "3", "", "", "", "0"]);
}

#[test]
fn queue_cells_line_up_with_their_headers() {
    let row = QueueRow {
        seq: 6,
        message_id: "msg-6".into(),
        visible_ms: 40,
        lock_token: Some("lock-9".into()),
        delivery_count: 3,
        group_id: Some("customer-2".into()),
    };
    assert_row(
        &row,
        &[
            (QueueColumn::Seq, "seq", "6"),
            (QueueColumn::MessageId, "message_id", "msg-6"),
            (QueueColumn::VisibleMs, "visible_ms", "40"),
            (QueueColumn::LockToken, "lock_token", "lock-9"),
            (QueueColumn::DeliveryCount, "delivery_count", "3"),
            (QueueColumn::GroupId, "group_id", "customer-2"),
        ],
    );
}

#[test]
fn dlq_cells_line_up_with_their_headers() {
    let row = DlqRow {
        seq: 7,
        message_id: "msg-7".into(),
        reason: "MaxDeliveryCountExceeded".into(),
        description: "schema v2".into(),
        delivery_count: 10,
        replayed_ms: None,
    };
    assert_row(
        &row,
        &[
            (DlqColumn::Seq, "seq", "7"),
            (DlqColumn::MessageId, "message_id", "msg-7"),
            (DlqColumn::Reason, "reason", "MaxDeliveryCountExceeded"),
            (DlqColumn::Description, "description", "schema v2"),
            (DlqColumn::DeliveryCount, "delivery_count", "10"),
            (DlqColumn::ReplayedMs, "replayed_ms", ""),
        ],
    );
}

#[test]
fn inbox_cells_line_up_with_their_headers() {
    let row = InboxRow {
        id: 8,
        message_id: "msg-8".into(),
        consumer: "billing".into(),
        instance: "consumer-0".into(),
        received_ms: 50,
        processed_ms: Some(60),
    };
    assert_row(
        &row,
        &[
            (InboxColumn::Id, "id", "8"),
            (InboxColumn::MessageId, "message_id", "msg-8"),
            (InboxColumn::Consumer, "consumer", "billing"),
            (InboxColumn::Instance, "instance", "consumer-0"),
            (InboxColumn::ReceivedMs, "received_ms", "50"),
            (InboxColumn::ProcessedMs, "processed_ms", "60"),
        ],
    );
}

#[test]
fn effect_cells_line_up_with_their_headers() {
    let row = EffectRow {
        id: 9,
        business_key: "CR-00000009".into(),
        order_id: 3,
        message_id: "msg-3".into(),
        kind: "credit".into(),
        applied_ms: 70,
        instance: "consumer-1".into(),
    };
    assert_row(
        &row,
        &[
            (EffectColumn::Id, "id", "9"),
            (EffectColumn::BusinessKey, "business_key", "CR-00000009"),
            (EffectColumn::OrderId, "order_id", "3"),
            (EffectColumn::MessageId, "message_id", "msg-3"),
            (EffectColumn::Kind, "kind", "credit"),
            (EffectColumn::AppliedMs, "applied_ms", "70"),
            (EffectColumn::Instance, "instance", "consumer-1"),
        ],
    );
}

#[test]
fn typed_reads_take_the_cell_under_the_named_column() {
    let mut t = crate::state::Tables::default();
    let row = DlqRow {
        seq: 1,
        message_id: "msg-1".into(),
        reason: "r".into(),
        description: "d".into(),
        delivery_count: 4,
        replayed_ms: None,
    };
    t.apply(&crate::state::RowChange::put(&row));
    let (key, cells) = t.rows_of::<DlqColumn>().next().expect("one row");
    assert_eq!(key, 1);
    assert_eq!(&cells[DlqColumn::Description], "d");
    assert_eq!(cells.get(DlqColumn::DeliveryCount), "4");
    assert!(cells.is_empty(DlqColumn::ReplayedMs));
    assert!(!cells.is_empty(DlqColumn::Reason));
}

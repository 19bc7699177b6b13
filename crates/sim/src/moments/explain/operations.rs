//! Explanations of what happens to a message in operation: dead-lettered, lock lost, lost,
//! replayed from the DLQ, an outbox that waits.

use super::super::order_state::{Mark, OrderState, Setting};
use super::super::{Arg, Loss, MomentKind};
use super::{Draft, lock_term, message, order, receive_before, receive_by, settle_term};
use crate::model::{Actor, BrokerKind};

/// `delivery_count`: the count stored with the DLQ entry, the one the triage view shows.
pub(in crate::moments) fn dead_lettered(
    st: &OrderState,
    now: Mark,
    description: &str,
    delivery_count: u32,
    broker: BrokerKind,
) -> Draft {
    let deliveries = Arg::Text(delivery_count.to_string());
    // SQS stores no reason with a redriven message: its text says where to look instead.
    let (text, args) = if broker == BrokerKind::Sqs || description.is_empty() {
        (
            "moment.dead-lettered-redrive",
            vec![order(st), message(st), deliveries],
        )
    } else {
        (
            "moment.dead-lettered",
            vec![
                order(st),
                message(st),
                deliveries,
                Arg::Text(description.to_owned()),
            ],
        )
    };
    Draft::new(
        MomentKind::DeadLettered,
        st,
        now,
        &[st.receives.first().map(|r| r.at)],
        text,
        args,
    )
}

/// What the consumer was doing when it found its lock gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::moments) enum LostAt {
    /// The careful consumer's own lock check before its commit: no call was refused.
    Check,
    /// Its settle (complete) was refused.
    Settle,
    /// Another broker call on the delivery was refused (`Abandon`, `DeadLetter`,
    /// `ChangeMessageVisibility`), named as the consumer made it.
    Call(&'static str),
}

/// The lock named is the one of this consumer's own delivery: a later delivery's lock
/// belongs to another receive.
pub(in crate::moments) fn lock_lost(
    st: &OrderState,
    now: Mark,
    actor: Actor,
    setting: Setting,
    at: LostAt,
) -> Draft {
    let mine = receive_by(st, actor, now);
    let expired = mine.and_then(|r| r.lock_expired);
    let mut args = vec![
        order(st),
        message(st),
        Arg::Text(actor.to_string()),
        lock_term(setting.broker),
    ];
    // A time is named only when the expiry is on record (it can fall in the same millisecond,
    // after the refused call).
    if let Some(l) = expired {
        args.push(Arg::Ms(l.ms()));
    }
    let text = match (at, expired.is_some()) {
        (LostAt::Settle, true) => "moment.lock-lost",
        (LostAt::Settle, false) => "moment.lock-lost.untimed",
        (LostAt::Check, true) => "moment.lock-lost.check",
        (LostAt::Check, false) => "moment.lock-lost.check-untimed",
        (LostAt::Call(call), timed) => {
            args.push(Arg::Text(call.to_string()));
            if timed {
                "moment.lock-lost.call"
            } else {
                "moment.lock-lost.call-untimed"
            }
        }
    };
    Draft::new(
        MomentKind::LockLost,
        st,
        now,
        &[expired.or(mine.map(|r| r.at))],
        text,
        args,
    )
}

pub(in crate::moments) fn lost(
    st: &OrderState,
    now: Mark,
    loss: Loss,
    setting: Setting,
    broker_down: Option<Mark>,
) -> Draft {
    let (text, cause) = match loss {
        Loss::DirectPublishFailed => ("moment.lost-order.direct", broker_down),
        Loss::SettledBeforeCommit => ("moment.lost-order.settled-early", receive_before(st, now)),
        Loss::FailedAfterSettle => (
            "moment.lost-order.failed-after-settle",
            receive_before(st, now),
        ),
        Loss::GaveUp => ("moment.lost-order.gave-up", None),
        Loss::NoMessage => ("moment.lost-order.no-message", None),
        Loss::ReplayDropped => ("moment.lost-order.replay-dropped", st.dead_lettered),
    };
    let mut args = vec![order(st), message(st)];
    if matches!(loss, Loss::SettledBeforeCommit | Loss::FailedAfterSettle) {
        args.push(settle_term(setting.broker));
    }
    Draft::new(MomentKind::LostOrder, st, now, &[cause], text, args)
}

pub(in crate::moments) fn lost_at_end(st: &OrderState, end: Mark) -> Draft {
    Draft::new(
        MomentKind::LostOrder,
        st,
        end,
        &[st.last],
        "moment.lost-order.other",
        vec![order(st), message(st)],
    )
}

/// `as_id`: the new message id of a replay under a new id (the inbox cannot recognise it).
pub(in crate::moments) fn replayed(st: &OrderState, now: Mark, as_id: Option<&str>) -> Draft {
    let dead = st.dead_lettered;
    let mut args = vec![
        order(st),
        message(st),
        Arg::Ms(dead.map_or(now.ms(), Mark::ms)),
    ];
    let text = match as_id {
        Some(id) => {
            args.push(Arg::Text(id.to_owned()));
            "moment.replayed.new-id"
        }
        None => "moment.replayed",
    };
    Draft::new(MomentKind::Replayed, st, now, &[dead], text, args)
}

pub(in crate::moments) fn outbox_waiting(
    st: &OrderState,
    now: Mark,
    age_ms: u64,
    broker_down: Option<Mark>,
) -> Draft {
    Draft::new(
        MomentKind::OutboxWaiting,
        st,
        now,
        &[broker_down],
        "moment.outbox-waiting",
        vec![order(st), Arg::Ms(age_ms)],
    )
}

//! Which explanation a moment gets and what fills it: the cause chain of an order, read from
//! what the story remembers about it.

use super::order_state::{Mark, OrderState, Receive, Setting};
use super::{Arg, Moment, MomentKind};
use crate::model::{Actor, BrokerKind, Mode};
use crate::moments::Guard;

mod operations;

pub(in crate::moments) use operations::{
    LostAt, dead_lettered, lock_lost, lost, lost_at_end, outbox_waiting, replayed,
};

/// A moment before it knows its order and message.
#[derive(Debug, Clone)]
pub(super) struct Draft {
    kind: MomentKind,
    at: Mark,
    cause: Mark,
    text: &'static str,
    args: Vec<Arg>,
}

impl Draft {
    /// A draft whose cause is the first candidate earlier than `at` (the order's accept event
    /// is always a candidate; the event just before is the last resort).
    fn new(
        kind: MomentKind,
        st: &OrderState,
        at: Mark,
        causes: &[Option<Mark>],
        text: &'static str,
        args: Vec<Arg>,
    ) -> Draft {
        let cause = causes
            .iter()
            .chain(std::iter::once(&st.accepted))
            .flatten()
            .find(|m| m.index < at.index)
            .copied()
            .unwrap_or(Mark {
                index: at.index.saturating_sub(1),
                ..at
            });
        Draft {
            kind,
            at,
            cause,
            text,
            args,
        }
    }

    pub fn into_moment(self, order: i64, message_id: String) -> Moment {
        Moment {
            kind: self.kind,
            at_ms: self.at.ms(),
            event: u64::from(self.at.index),
            cause_event: u64::from(self.cause.index),
            cause_ms: self.cause.ms(),
            order,
            message_id,
            text: self.text,
            args: self.args,
        }
    }
}

fn order(st: &OrderState) -> Arg {
    Arg::Text(st.order.to_string())
}

fn message(st: &OrderState) -> Arg {
    Arg::Text(st.message_id())
}

fn lock_term(broker: BrokerKind) -> Arg {
    Arg::Term(match broker {
        BrokerKind::Asb => "term.lock.asb",
        BrokerKind::Sqs => "term.lock.sqs",
    })
}

fn settle_term(broker: BrokerKind) -> Arg {
    Arg::Term(match broker {
        BrokerKind::Asb => "term.settle.asb",
        BrokerKind::Sqs => "term.settle.sqs",
    })
}

/// The newest receive of the order's message before `now`.
fn receive_before(st: &OrderState, now: Mark) -> Option<Mark> {
    st.receives
        .iter()
        .rev()
        .map(|r| r.at)
        .find(|m| m.index < now.index)
}

/// The newest receive by `actor` before `now`.
fn receive_by(st: &OrderState, actor: Actor, now: Mark) -> Option<Receive> {
    st.receives
        .iter()
        .rev()
        .find(|r| r.actor == actor && r.at.index <= now.index)
        .copied()
}

/// `seq`: the queue row delivered again. The lock named is the one of that row's previous
/// delivery, never a lock of another copy or a later delivery.
pub(super) fn redelivered(
    st: &OrderState,
    now: Mark,
    seq: i64,
    delivery: u32,
    broker: BrokerKind,
) -> Draft {
    let previous_of_row = st
        .receives
        .iter()
        .rev()
        .find(|r| r.seq == seq && r.at.index < now.index);
    let previous = previous_of_row.map(|r| r.at).or(receive_before(st, now));
    let expired = previous_of_row.and_then(|r| Some((r.lock_expired?, r.delivery)));
    let n = Arg::Text(delivery.to_string());
    match expired {
        Some((l, expired_delivery)) => Draft::new(
            MomentKind::Redelivered,
            st,
            now,
            &[Some(l)],
            "moment.redelivered.lock",
            vec![
                order(st),
                message(st),
                n,
                lock_term(broker),
                Arg::Ms(l.ms()),
                Arg::Text(expired_delivery.to_string()),
            ],
        ),
        None => Draft::new(
            MomentKind::Redelivered,
            st,
            now,
            &[previous],
            "moment.redelivered.retry",
            vec![order(st), message(st), n],
        ),
    }
}

/// Order `st` took effect while the customer's `earlier` order had none yet.
pub(super) fn out_of_order(
    st: &OrderState,
    now: Mark,
    earlier: i64,
    customer: &str,
    cause: Option<Mark>,
) -> Draft {
    Draft::new(
        MomentKind::OutOfOrder,
        st,
        now,
        &[cause],
        "moment.out-of-order",
        vec![
            order(st),
            Arg::Text(earlier.to_string()),
            Arg::Text(customer.to_owned()),
        ],
    )
}

pub(super) fn copied(st: &OrderState, now: Mark) -> Draft {
    Draft::new(
        MomentKind::Redelivered,
        st,
        now,
        &[receive_before(st, now)],
        "moment.redelivered.copy",
        vec![order(st), message(st)],
    )
}

/// A message the producer sent twice: the broker holds two messages with one id.
pub(super) fn sent_twice(st: &OrderState, now: Mark) -> Draft {
    Draft::new(
        MomentKind::Redelivered,
        st,
        now,
        &[],
        "moment.redelivered.sent-twice",
        vec![order(st), message(st)],
    )
}

pub(super) fn duplicate_effect(
    st: &OrderState,
    now: Mark,
    actor: Actor,
    setting: Setting,
    swept: Option<(Mark, u64)>,
    marker_only: bool,
) -> Draft {
    let Some((first, first_actor)) = st.first_effect else {
        return Draft::new(
            MomentKind::DuplicateEffect,
            st,
            now,
            &[],
            "moment.duplicate-effect.other",
            vec![order(st), Arg::Ms(now.ms())],
        );
    };
    let at_first = Arg::Ms(first.ms());
    let expired = st.lock_expired.filter(|l| l.index > first.index);
    let (text, args) = if marker_only {
        (
            "moment.duplicate-effect.trap-stays",
            vec![order(st), at_first],
        )
    } else if let (true, Some(l)) = (st.first_effect_then_lost, expired) {
        let text = if setting.mode == Mode::Naive {
            "moment.duplicate-effect.connection-naive"
        } else {
            "moment.duplicate-effect.connection-trap"
        };
        let args = vec![
            order(st),
            at_first,
            lock_term(setting.broker),
            Arg::Ms(l.ms()),
        ];
        (text, args)
    } else if let Some((_, retention)) = swept.filter(|(m, _)| m.index > first.index) {
        let args = vec![order(st), at_first, Arg::Ms(retention)];
        ("moment.duplicate-effect.swept", args)
    } else if receive_by(st, actor, now).is_some_and(|r| r.at.index < first.index) {
        let args = vec![
            order(st),
            at_first,
            Arg::Text(first_actor.to_string()),
            Arg::Text(actor.to_string()),
        ];
        ("moment.duplicate-effect.race", args)
    } else {
        ("moment.duplicate-effect.other", vec![order(st), at_first])
    };
    Draft::new(
        MomentKind::DuplicateEffect,
        st,
        now,
        &[Some(first)],
        text,
        args,
    )
}

pub(super) fn duplicate_charge(st: &OrderState, now: Mark, first: Mark) -> Draft {
    Draft::new(
        MomentKind::DuplicateEffect,
        st,
        now,
        &[Some(first)],
        "moment.duplicate-effect.charge",
        vec![order(st), Arg::Ms(first.ms())],
    )
}

pub(super) fn prevented(
    st: &OrderState,
    now: Mark,
    actor: Actor,
    guard: Guard,
    setting: Setting,
) -> Draft {
    let first_receive = st
        .receives
        .iter()
        .map(|r| r.at)
        .find(|m| m.index < now.index);
    // The time the text names: when the inbox row (or the charge) that recognised the
    // duplicate was written.
    let first = match guard {
        Guard::IdempotencyKey => st.first_charge.or(first_receive),
        Guard::InboxCheck | Guard::UniqueIndex => st
            .marker
            .filter(|m| m.index <= now.index)
            .or(st.first_effect.map(|(m, _)| m))
            .or(first_receive),
        _ => st.first_effect.map(|(m, _)| m).or(first_receive),
    };
    let first_at = Arg::Ms(first.or(st.accepted).map_or(0, Mark::ms));
    // The provider answers a consumer's call: name the consumer that made it.
    let caller = match actor {
        Actor::Provider => st
            .receives
            .iter()
            .rev()
            .find(|r| r.at.index < now.index)
            .map_or(actor, |r| r.actor),
        other => other,
    };
    let who = Arg::Text(caller.to_string());
    let (text, args) = match guard {
        Guard::UniqueIndex => (
            "moment.prevented-duplicate.unique",
            vec![order(st), message(st), who, first_at],
        ),
        Guard::InboxCheck => (
            "moment.prevented-duplicate.check",
            vec![order(st), message(st), who, first_at],
        ),
        Guard::MarkerOnly => (
            "moment.prevented-duplicate.marker-only",
            vec![order(st), message(st), who, first_at],
        ),
        Guard::IdempotencyKey => (
            "moment.prevented-duplicate.key",
            vec![order(st), message(st), who, first_at],
        ),
        Guard::BrokerDedup => {
            let term = Arg::Term(match setting.broker {
                BrokerKind::Asb => "term.dedup.asb",
                BrokerKind::Sqs => "term.dedup.sqs",
            });
            (
                "moment.prevented-duplicate.broker",
                vec![order(st), message(st), term],
            )
        }
    };
    Draft::new(
        MomentKind::PreventedDuplicate,
        st,
        now,
        &[first],
        text,
        args,
    )
}

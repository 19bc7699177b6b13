//! What the story remembers: an event by index and time, the run's settings, and per order
//! the marks of what happened to it. Shared by the tracker (`story`) and the explanations
//! (`explain`), which therefore need not import each other.
//!
//! A story keeps one state per order for the whole run (a duplicate may arrive at any time and
//! must name the first effect), so a state is kept small: a run of 1,000,000 messages (the
//! most `--messages` allows) has about 6.4 million events and lasts about 77 million virtual
//! ms, both far below `u32::MAX`, so a mark holds two `u32`s.

use crate::model::{Actor, BrokerKind, Mode, Pitfall, order_message_id};

/// An event by index and virtual time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mark {
    pub index: u32,
    pub at_ms: u32,
}

impl Mark {
    /// The mark of the event with `index` at `at_ms` (saturating, see the module comment).
    pub fn new(index: u64, at_ms: u64) -> Mark {
        Mark {
            index: u32::try_from(index).unwrap_or(u32::MAX),
            at_ms: u32::try_from(at_ms).unwrap_or(u32::MAX),
        }
    }

    /// The event's virtual time, ms.
    pub fn ms(self) -> u64 {
        u64::from(self.at_ms)
    }
}

/// One receive of an order's message: when, who, from which queue row, its delivery count,
/// and when the lock of this very delivery ran out (a later delivery's lock is another one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Receive {
    pub at: Mark,
    pub actor: Actor,
    pub seq: i64,
    pub delivery: u32,
    pub lock_expired: Option<Mark>,
}

/// What the story remembers about one order.
#[derive(Debug, Clone, Default)]
pub(super) struct OrderState {
    pub order: i64,
    /// The order's message id when it is not the one the API gives the order's number
    /// ([`order_message_id`]), which most are and which is read rather than stored.
    other_message_id: Option<Box<str>>,
    pub accepted: Option<Mark>,
    /// Receives of the order's message, oldest first (a boxed slice: most orders are received
    /// once or twice, and a `Vec` would reserve room for four).
    pub receives: Box<[Receive]>,
    pub first_effect: Option<(Mark, Actor)>,
    pub effects: u32,
    /// The first effect's delivery lost its connection right after writing it.
    pub first_effect_then_lost: bool,
    pub first_charge: Option<Mark>,
    pub charges: u32,
    pub lock_expired: Option<Mark>,
    /// The delivery whose lock ran out at `lock_expired` (a story may hold several expiries).
    pub lock_expired_delivery: u32,
    /// When the inbox row of the order's message was first written (not when an effect was
    /// written without its marker).
    pub marker: Option<Mark>,
    pub dead_lettered: Option<Mark>,
    pub dlq_open: u32,
    /// Index into the moments of this order's provisional `lost-order` moment.
    pub lost_moment: Option<u32>,
    /// The newest event that concerned this order.
    pub last: Option<Mark>,
}

impl OrderState {
    /// A state for `order`, whose message is `message_id`.
    pub fn new(order: i64, message_id: &str) -> OrderState {
        let usual = u32::try_from(order).is_ok_and(|n| order_message_id(n) == message_id);
        OrderState {
            order,
            other_message_id: (!usual).then(|| message_id.into()),
            ..OrderState::default()
        }
    }

    /// The order's message id.
    pub fn message_id(&self) -> String {
        match &self.other_message_id {
            Some(id) => id.to_string(),
            None => u32::try_from(self.order)
                .map(order_message_id)
                .unwrap_or_default(),
        }
    }

    /// Whether `message_id` is the order's message id.
    pub fn is_message(&self, message_id: &str) -> bool {
        match &self.other_message_id {
            Some(id) => &**id == message_id,
            None => u32::try_from(self.order).is_ok_and(|n| order_message_id(n) == message_id),
        }
    }

    /// Records a receive of the order's message.
    pub fn received(&mut self, receive: Receive) {
        let mut all = std::mem::take(&mut self.receives).into_vec();
        all.push(receive);
        self.receives = all.into_boxed_slice();
    }

    /// Records that the lock of the newest delivery from queue row `seq` ran out at `at`.
    pub fn lock_ran_out(&mut self, seq: i64, at: Mark) {
        if let Some(r) = self.receives.iter_mut().rev().find(|r| r.seq == seq) {
            r.lock_expired = Some(at);
            self.lock_expired = Some(at);
            self.lock_expired_delivery = r.delivery;
        }
    }
}

/// The run settings the explanations depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Setting {
    pub mode: Mode,
    pub broker: BrokerKind,
    pub pitfall: Option<Pitfall>,
}

//! What the story remembers: an event by index and time, the run's settings, and per order
//! the marks of what happened to it. Shared by the tracker (`story`) and the explanations
//! (`explain`), which therefore need not import each other.

use crate::sim::model::{Actor, BrokerKind, Mode, Pitfall};

/// An event by index and virtual time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mark {
    pub index: u64,
    pub at_ms: u64,
}

/// What the story remembers about one order.
#[derive(Debug, Clone, Default)]
pub(super) struct OrderState {
    pub order: i64,
    pub message_id: String,
    pub accepted: Option<Mark>,
    /// Receives of the order's message: (mark, who, delivery count).
    pub receives: Vec<(Mark, Actor, u32)>,
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
    pub lost_moment: Option<usize>,
    /// The newest event that concerned this order.
    pub last: Option<Mark>,
}

/// The run settings the explanations depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Setting {
    pub mode: Mode,
    pub broker: BrokerKind,
    pub pitfall: Option<Pitfall>,
}

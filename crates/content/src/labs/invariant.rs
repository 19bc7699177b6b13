//! The invariants a lab check holds a learner's file to beyond the engine's own (no effect
//! twice, no order lost, order per customer): rules about what the handler decided, which
//! only the lab run sees. Their names are what `start_fails.moment` and `--json` use; their
//! text lives in the strings (`lab.invariant.NAME`).

use crate::{Key, key};

/// A rule of the lab check about the learner's handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LabInvariant {
    /// A message the consumer cannot read (an unknown schema version: a permanent error) went
    /// down the retry path instead of to the DLQ at once.
    PoisonRetried,
    /// A message the consumer could read was dead-lettered by the handler.
    HealthyDeadLettered,
    /// The handler dead-lettered a message without a reason of its own.
    DeadLetterWithoutReason,
    /// An order took effect but the payment provider never charged it (a lab whose effect is
    /// a charge: `charged = true`).
    ChargeMissing,
    /// A message was published for an order that was never saved: `publish` in `@accept`
    /// went out, and the transaction that wrote the order rolled back (a rollback does not
    /// take a message back from the broker).
    PublishedWithoutOrder,
    /// A second dispatcher published an outbox row while the first one still held it (took
    /// it less than a lease ago, neither crashed nor marked it): a bug of the dispatcher's
    /// `@claim`, not the at-least-once duplicate a crash between publish and mark leaves.
    TwoDispatchersOneRow,
    /// At the end of the run an outbox row is still not marked published: its lease has no
    /// end, so after its dispatcher crashed no other dispatcher may claim it again.
    OutboxRowStuck,
    /// The engine's record shows an effect or a charge that is not what the message says: a
    /// credit for a body the consumer could not read, or an amount other than the order's.
    /// What a message is belongs to the engine, never to a column the handler fills.
    EffectUnlikeMessage,
    /// The handler called the payment provider while a transaction was open: a remote call
    /// that holds the database's write lock for as long as the provider takes. The engine
    /// refuses the call.
    ChargeInTransaction,
    /// A message found a claim that was never processed at every delivery and never took
    /// effect: the claim of a consumer that crashed never expired, so no later delivery could
    /// take it over.
    ClaimNeverExpires,
    /// A second delivery took over or ignored a claim while the consumer that holds it was
    /// still at work (younger than the scenario's claim lease): two deliveries call the
    /// provider in parallel.
    LiveClaimTakenOver,
}

impl LabInvariant {
    /// Every invariant.
    pub const ALL: [LabInvariant; 11] = [
        LabInvariant::PoisonRetried,
        LabInvariant::HealthyDeadLettered,
        LabInvariant::DeadLetterWithoutReason,
        LabInvariant::ChargeMissing,
        LabInvariant::PublishedWithoutOrder,
        LabInvariant::TwoDispatchersOneRow,
        LabInvariant::OutboxRowStuck,
        LabInvariant::EffectUnlikeMessage,
        LabInvariant::ChargeInTransaction,
        LabInvariant::ClaimNeverExpires,
        LabInvariant::LiveClaimTakenOver,
    ];

    /// The name (in `lab.toml`, `--json` and the strings key).
    pub fn as_str(self) -> &'static str {
        match self {
            LabInvariant::PoisonRetried => "poison-retried",
            LabInvariant::HealthyDeadLettered => "healthy-dead-lettered",
            LabInvariant::DeadLetterWithoutReason => "dead-letter-without-reason",
            LabInvariant::ChargeMissing => "charge-missing",
            LabInvariant::PublishedWithoutOrder => "published-without-order",
            LabInvariant::TwoDispatchersOneRow => "two-dispatchers-one-row",
            LabInvariant::OutboxRowStuck => "outbox-row-stuck",
            LabInvariant::EffectUnlikeMessage => "effect-unlike-message",
            LabInvariant::ChargeInTransaction => "charge-in-transaction",
            LabInvariant::ClaimNeverExpires => "claim-never-expires",
            LabInvariant::LiveClaimTakenOver => "live-claim-taken-over",
        }
    }

    /// Whether harm that shows later in the same run follows from it, so that a check names
    /// it instead of that harm's moment: a message published for an order that was never
    /// saved is credited to the order SQLite gives the rolled-back order's id to next, which
    /// then looks like a duplicate effect; a refused charge leaves its order without an effect.
    pub fn causes_later_harm(self) -> bool {
        matches!(
            self,
            LabInvariant::PublishedWithoutOrder | LabInvariant::ChargeInTransaction
        )
    }

    /// The strings key of its text (`{order}` and `{message}` are filled in).
    pub fn text_key(self) -> Key {
        match self {
            LabInvariant::PoisonRetried => key::lab::INVARIANT_POISON_RETRIED,
            LabInvariant::HealthyDeadLettered => key::lab::INVARIANT_HEALTHY_DEAD_LETTERED,
            LabInvariant::DeadLetterWithoutReason => key::lab::INVARIANT_DEAD_LETTER_WITHOUT_REASON,
            LabInvariant::ChargeMissing => key::lab::INVARIANT_CHARGE_MISSING,
            LabInvariant::PublishedWithoutOrder => key::lab::INVARIANT_PUBLISHED_WITHOUT_ORDER,
            LabInvariant::TwoDispatchersOneRow => key::lab::INVARIANT_TWO_DISPATCHERS_ONE_ROW,
            LabInvariant::OutboxRowStuck => key::lab::INVARIANT_OUTBOX_ROW_STUCK,
            LabInvariant::EffectUnlikeMessage => key::lab::INVARIANT_EFFECT_UNLIKE_MESSAGE,
            LabInvariant::ChargeInTransaction => key::lab::INVARIANT_CHARGE_IN_TRANSACTION,
            LabInvariant::ClaimNeverExpires => key::lab::INVARIANT_CLAIM_NEVER_EXPIRES,
            LabInvariant::LiveClaimTakenOver => key::lab::INVARIANT_LIVE_CLAIM_TAKEN_OVER,
        }
    }

    /// The strings key of its short title (`lab.reason.NAME`), as the instructor's dashboard
    /// names the failure a trainee's newest check stopped at.
    pub fn reason_key(self) -> Key {
        match self {
            LabInvariant::PoisonRetried => key::lab::REASON_POISON_RETRIED,
            LabInvariant::HealthyDeadLettered => key::lab::REASON_HEALTHY_DEAD_LETTERED,
            LabInvariant::DeadLetterWithoutReason => key::lab::REASON_DEAD_LETTER_WITHOUT_REASON,
            LabInvariant::ChargeMissing => key::lab::REASON_CHARGE_MISSING,
            LabInvariant::PublishedWithoutOrder => key::lab::REASON_PUBLISHED_WITHOUT_ORDER,
            LabInvariant::TwoDispatchersOneRow => key::lab::REASON_TWO_DISPATCHERS_ONE_ROW,
            LabInvariant::OutboxRowStuck => key::lab::REASON_OUTBOX_ROW_STUCK,
            LabInvariant::EffectUnlikeMessage => key::lab::REASON_EFFECT_UNLIKE_MESSAGE,
            LabInvariant::ChargeInTransaction => key::lab::REASON_CHARGE_IN_TRANSACTION,
            LabInvariant::ClaimNeverExpires => key::lab::REASON_CLAIM_NEVER_EXPIRES,
            LabInvariant::LiveClaimTakenOver => key::lab::REASON_LIVE_CLAIM_TAKEN_OVER,
        }
    }

    /// Parses a name.
    pub fn parse(name: &str) -> Option<LabInvariant> {
        LabInvariant::ALL.into_iter().find(|i| i.as_str() == name)
    }
}

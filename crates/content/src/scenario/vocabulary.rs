//! The words a scenario file may use for the engine: pitfall variants, jitter strategies,
//! faults and operator actions. They are the engine's own enums (the engine re-exports them),
//! deserialised straight from the file, so no second list of names has to be kept in step.

use serde::{Deserialize, Deserializer};

/// The flaw a scenario's `pitfall` mode builds in (`pitfall = ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pitfall {
    /// The API publishes inside the HTTP request, no outbox.
    PublishInRequest,
    /// The effect is committed outside the inbox transaction (like EF Core `ExecuteUpdate`).
    EffectOutsideTx,
    /// The consumer completes/deletes the message before its transaction commits.
    SettleBeforeCommit,
    /// The sweeper deletes inbox markers sooner than duplicates can still arrive.
    ShortRetention,
    /// The large payload travels inside the message instead of a claim-check reference.
    InlinePayload,
    /// Two consumers take messages of one customer without sessions / message groups.
    NoOrderingKey,
    /// The consumer works longer than the lock without renewing it.
    NoLockRenewal,
    /// The consumer keeps no inbox: it runs the handler for every delivery and completes the
    /// message when the handler succeeds.
    NoInbox,
    /// The operator replays the DLQ without having found and fixed the cause (the script's
    /// `fix-cause` step does not happen).
    ReplayUnfixed,
    /// The delivery limit is raised (`setup.raised_max_deliveries`) instead of fixing the
    /// cause, and the DLQ is replayed unfixed.
    RaiseDeliveryLimit,
}

impl Pitfall {
    /// All pitfalls.
    pub const ALL: [Pitfall; 10] = [
        Pitfall::PublishInRequest,
        Pitfall::EffectOutsideTx,
        Pitfall::SettleBeforeCommit,
        Pitfall::ShortRetention,
        Pitfall::InlinePayload,
        Pitfall::NoOrderingKey,
        Pitfall::NoLockRenewal,
        Pitfall::NoInbox,
        Pitfall::ReplayUnfixed,
        Pitfall::RaiseDeliveryLimit,
    ];

    /// The spelling used in scenario files.
    pub fn as_str(self) -> &'static str {
        match self {
            Pitfall::PublishInRequest => "publish-in-request",
            Pitfall::EffectOutsideTx => "effect-outside-tx",
            Pitfall::SettleBeforeCommit => "settle-before-commit",
            Pitfall::ShortRetention => "short-retention",
            Pitfall::InlinePayload => "inline-payload",
            Pitfall::NoOrderingKey => "no-ordering-key",
            Pitfall::NoLockRenewal => "no-lock-renewal",
            Pitfall::NoInbox => "no-inbox",
            Pitfall::ReplayUnfixed => "replay-unfixed",
            Pitfall::RaiseDeliveryLimit => "raise-delivery-limit",
        }
    }

    /// Whether the pitfall leaves the cause of the poison messages unfixed: the script's
    /// `fix-cause` step does not happen.
    pub fn leaves_cause_unfixed(self) -> bool {
        matches!(self, Pitfall::ReplayUnfixed | Pitfall::RaiseDeliveryLimit)
    }
}

/// How the delay of a delayed retry is spread (`setup.jitter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Jitter {
    /// Plain exponential backoff: every client retries at the same moment.
    None,
    /// Uniform in `[0, backoff]`.
    #[default]
    Full,
    /// Half fixed, half uniform: `backoff/2 + U[0, backoff/2]`.
    Equal,
    /// `min(cap, U[base, previous*3])`.
    Decorrelated,
}

impl Jitter {
    /// All variants.
    pub const ALL: [Jitter; 4] = [
        Jitter::None,
        Jitter::Full,
        Jitter::Equal,
        Jitter::Decorrelated,
    ];

    /// The spelling in scenario files.
    pub fn as_str(self) -> &'static str {
        match self {
            Jitter::None => "none",
            Jitter::Full => "full",
            Jitter::Equal => "equal",
            Jitter::Decorrelated => "decorrelated",
        }
    }
}

/// Declares [`Fault`] from one table, one row per kind: its documentation, the variant (with its
/// one parameter and that parameter's default, for a fault that has one) and its name in
/// scenario files, traces and the UI menu. A row's place is the kind's place in the menu and
/// its slot in a per-kind table, so the enum, [`FAULT_KINDS`], [`Fault::MENU`],
/// [`Fault::as_str`] and [`Fault::slot`] cannot disagree.
macro_rules! faults {
    ($(
        $(#[$doc:meta])*
        $variant:ident $({
            $(#[$field_doc:meta])*
            $field:ident: $ty:ty = $default:expr
        })? => $name:literal,
    )+) => {
        /// A named fault. Most faults arm a trigger that fires at the next matching step;
        /// `BrokerDown` takes effect at once for its duration.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Fault {
            $(
                $(#[$doc])*
                $variant $({
                    $(#[$field_doc])*
                    $field: $ty
                })?,
            )+
        }

        /// The kinds without their parameters, in table order: a kind's discriminant is its
        /// slot.
        #[derive(Clone, Copy)]
        enum Kind {
            $($variant,)+
        }

        /// Number of distinct fault kinds.
        pub const FAULT_KINDS: usize = [$(Kind::$variant),+].len();

        impl Fault {
            /// One of each kind, in menu order (a parameter at its default: `BrokerDown` with
            /// the default outage).
            pub const MENU: [Fault; FAULT_KINDS] = [$(Fault::$variant $({ $field: $default })?,)+];

            /// The name used in scenario files, traces and the UI menu.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Fault::$variant { .. } => $name,)+
                }
            }

            /// Index into a per-kind table (the engine's armed triggers): the kind's place in
            /// the menu.
            pub fn slot(self) -> usize {
                match self {
                    $(Fault::$variant { .. } => Kind::$variant as usize,)+
                }
            }
        }
    };
}

/// Default outage when `broker-down` is injected without a duration.
pub const DEFAULT_OUTAGE_MS: u64 = 10_000;

faults! {
    /// The API commits, then the client times out (outcome unknown) and retries with the same request id.
    ApiTimeoutAfterCommit => "api-timeout-after-commit",
    /// The broker is unreachable for the given virtual milliseconds.
    BrokerDown {
        /// How long the outage lasts.
        duration_ms: u64 = DEFAULT_OUTAGE_MS
    } => "broker-down",
    /// A dispatcher crashes after publishing, before marking the outbox rows.
    DispatcherCrashAfterPublish => "dispatcher-crash-after-publish",
    /// A consumer loses its connection right after its first durable write, before settling.
    ConsumerLostConnectionAfterEffect => "consumer-lost-connection-after-effect",
    /// A consumer takes longer than the lock / visibility timeout.
    ConsumerSlowerThanLock => "consumer-slower-than-lock",
    /// The broker delivers one message twice (SQS standard does this occasionally).
    DuplicateDelivery => "duplicate-delivery",
    /// The next accepted order carries a body the consumer cannot process (until the cause is fixed).
    PoisonMessage => "poison-message",
    /// The external provider performs the call, then the response times out.
    ProviderTimeoutAfterPerform => "provider-timeout-after-perform",
    /// The next claim-check blob disappears before it is read.
    BlobMissing => "blob-missing",
    /// The next claim-check blob is altered after the checksum was taken.
    BlobHashMismatch => "blob-hash-mismatch",
}

impl Fault {
    /// Parses a name; `duration_ms` is used for `broker-down` only.
    pub fn parse(name: &str, duration_ms: Option<u64>) -> Option<Fault> {
        let f = Fault::MENU.into_iter().find(|f| f.as_str() == name)?;
        Some(match f {
            Fault::BrokerDown { .. } => Fault::BrokerDown {
                duration_ms: duration_ms.unwrap_or(DEFAULT_OUTAGE_MS),
            },
            other => other,
        })
    }
}

/// What a scripted step does (`do = ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptAction {
    /// Inject a named fault (`count` times).
    Fault(Fault),
    /// The operator fixes the cause of the poison messages (the consumer learns the new schema).
    FixCause,
    /// The operator replays up to `count` messages from the DLQ.
    ReplayDlq,
    /// The operator replays up to `count` messages from the DLQ under new message ids.
    ReplayDlqNewIds,
}

impl ScriptAction {
    /// Parses a fault name or `fix-cause` / `replay-dlq` / `replay-dlq-new-id`.
    pub fn parse(name: &str) -> Option<ScriptAction> {
        match name {
            "fix-cause" => Some(ScriptAction::FixCause),
            "replay-dlq" => Some(ScriptAction::ReplayDlq),
            "replay-dlq-new-id" => Some(ScriptAction::ReplayDlqNewIds),
            other => Fault::parse(other, None).map(ScriptAction::Fault),
        }
    }
}

impl<'de> Deserialize<'de> for ScriptAction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        ScriptAction::parse(&name).ok_or_else(|| {
            let faults: Vec<&str> = Fault::MENU.iter().map(|f| f.as_str()).collect();
            serde::de::Error::custom(format!(
                "do = {name:?} is neither a fault ({}) nor fix-cause/replay-dlq/replay-dlq-new-id",
                faults.join(", ")
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_names_round_trip() {
        for f in Fault::MENU {
            assert_eq!(Fault::parse(f.as_str(), Some(DEFAULT_OUTAGE_MS)), Some(f));
            assert_eq!(
                ScriptAction::parse(f.as_str()),
                Some(ScriptAction::Fault(f))
            );
        }
        assert_eq!(Fault::parse("nope", None), None);
        assert_eq!(
            ScriptAction::parse("fix-cause"),
            Some(ScriptAction::FixCause)
        );
    }

    /// The names, their menu order and each kind's slot, spelled out: scenario files, traces
    /// and the fault menu's snapshots depend on them, so a reordered or renamed row fails here.
    #[test]
    fn the_fault_table_keeps_its_names_order_and_slots() {
        let names: Vec<&str> = Fault::MENU.iter().map(|f| f.as_str()).collect();
        assert_eq!(
            names,
            [
                "api-timeout-after-commit",
                "broker-down",
                "dispatcher-crash-after-publish",
                "consumer-lost-connection-after-effect",
                "consumer-slower-than-lock",
                "duplicate-delivery",
                "poison-message",
                "provider-timeout-after-perform",
                "blob-missing",
                "blob-hash-mismatch",
            ]
        );
        assert_eq!(FAULT_KINDS, 10);
        for (i, f) in Fault::MENU.into_iter().enumerate() {
            assert_eq!(f.slot(), i, "{}", f.as_str());
        }
        assert_eq!(
            Fault::MENU[1],
            Fault::BrokerDown {
                duration_ms: DEFAULT_OUTAGE_MS
            }
        );
        assert_eq!(
            Fault::BrokerDown { duration_ms: 1 }.slot(),
            1,
            "the parameter is no part of the kind"
        );
    }

    #[derive(Deserialize)]
    struct Probe {
        p: Pitfall,
        j: Jitter,
    }

    #[test]
    fn names_deserialise_into_the_enums() {
        for p in Pitfall::ALL {
            for j in Jitter::ALL {
                let text = format!("p = \"{}\"\nj = \"{}\"\n", p.as_str(), j.as_str());
                let probe: Probe = toml::from_str(&text).expect("valid names");
                assert_eq!((probe.p, probe.j), (p, j));
            }
        }
    }
}

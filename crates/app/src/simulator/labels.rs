//! The flow map in words: what each box's number means ("12 waiting · oldest 1.2 s") and what
//! each consumer instance is doing in plain language ("processing order 3"), in the chosen
//! language and with the broker's own terms. Labels follow the last event of the instance, so
//! none stays behind after the state it describes ended.

use content::key;
use content::{Lang, Strings};
use model::moments::human_ms;
use model::state::rows::OutboxColumn;
use model::{BrokerKind, Event, EventKind, Outcome, Snapshot, Stage, Table};

/// The title of a box, in words.
pub fn title(strings: &Strings, stage: Stage, broker: BrokerKind) -> String {
    let key = match stage {
        Stage::Api => key::flow::TITLE_API,
        Stage::Outbox => key::flow::TITLE_OUTBOX,
        Stage::Dispatcher => key::flow::TITLE_DISPATCHER,
        Stage::Broker => {
            return match broker {
                BrokerKind::Asb => "Service Bus".into(),
                BrokerKind::Sqs => "SQS".into(),
            };
        }
        Stage::Retry => key::flow::TITLE_RETRY,
        Stage::Dlq => key::flow::TITLE_DLQ,
        Stage::Consumer => key::flow::TITLE_CONSUMERS,
        Stage::Effect => key::flow::TITLE_EFFECT,
    };
    strings.get(key).to_owned()
}

/// The short title of a box, for a box narrower than its title ("Disp.", the broker's code
/// "ASB"); a whole word or an abbreviation, never a cut one.
pub fn short_title(strings: &Strings, stage: Stage, broker: BrokerKind) -> String {
    let key = match stage {
        Stage::Api => key::flow::SHORT_API,
        Stage::Outbox => key::flow::SHORT_OUTBOX,
        Stage::Dispatcher => key::flow::SHORT_DISPATCHER,
        Stage::Broker => return broker.as_str().to_uppercase(),
        Stage::Retry => key::flow::SHORT_RETRY,
        Stage::Dlq => key::flow::SHORT_DLQ,
        Stage::Consumer => key::flow::SHORT_CONSUMERS,
        Stage::Effect => key::flow::SHORT_EFFECT,
    };
    strings.get(key).to_owned()
}

/// The age of the oldest unpublished outbox row in the picture, ms.
fn oldest_outbox_ms(snap: &Snapshot) -> Option<u64> {
    snap.tables
        .rows_of::<OutboxColumn>()
        .filter(|(_, r)| r.is_empty(OutboxColumn::PublishedMs))
        .filter_map(|(_, r)| r[OutboxColumn::CreatedMs].parse::<u64>().ok())
        .min()
        .map(|created| snap.scalars.now_ms.saturating_sub(created))
}

/// What a box's numbers mean: in full words, as bare numbers, and the words alone (for the
/// legend when the box is too narrow for the full words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountWords {
    /// `["12 waiting", "oldest 1.2 s"]`: each part in words (split at " · ").
    pub parts: Vec<String>,
    /// "12 waiting · oldest 1.2 s".
    pub full: String,
    /// `["12", "1.2 s"]`: the numbers of each part ("2 · 1" for one part with two).
    pub numbers: Vec<String>,
    /// "waiting · oldest".
    pub legend: String,
}

impl CountWords {
    fn from_parts(strings: &Strings, parts: &[(content::Key, Vec<(&str, String)>)]) -> CountWords {
        let mut full = Vec::new();
        let mut numbers = Vec::new();
        let mut legend = Vec::new();
        for (key, args) in parts {
            let pairs: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            full.push(strings.fill(*key, &pairs));
            let blank: Vec<(&str, &str)> = args.iter().map(|(k, _)| (*k, "")).collect();
            legend.push(
                strings
                    .fill(*key, &blank)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            numbers.push(
                args.iter()
                    .map(|(_, v)| v.as_str())
                    .collect::<Vec<_>>()
                    .join(" · "),
            );
        }
        CountWords {
            full: full.join(" · "),
            // "2 visible · 1 locked" is two parts too: each may take its own row.
            parts: full
                .iter()
                .flat_map(|f| f.split(" · ").map(str::to_owned))
                .collect(),
            numbers,
            legend: legend.join(" · "),
        }
    }
}

/// What the numbers in a box mean (`None` for the consumers box, which lists its instances
/// instead).
pub fn count_line(
    strings: &Strings,
    lang: Lang,
    stage: Stage,
    broker: BrokerKind,
    snap: &Snapshot,
    tokens: u64,
    duplicates: u64,
) -> Option<CountWords> {
    let st = &snap.scalars.stages;
    let n = |v: u64| vec![("n", v.to_string())];
    let parts: Vec<(content::Key, Vec<(&str, String)>)> = match stage {
        Stage::Api => vec![(key::flow::API, n(snap.metrics.accepted))],
        Stage::Outbox => {
            let mut parts = vec![(key::flow::OUTBOX, n(st.outbox_pending))];
            if st.outbox_pending > 0
                && let Some(age) = oldest_outbox_ms(snap)
            {
                parts.push((key::flow::OUTBOX_OLDEST, vec![("age", human_ms(lang, age))]));
            }
            parts
        }
        Stage::Dispatcher => vec![(key::flow::DISPATCHER, n(st.dispatching))],
        Stage::Broker => {
            let key = match broker {
                BrokerKind::Asb => key::flow::BROKER_ASB,
                BrokerKind::Sqs => key::flow::BROKER_SQS,
            };
            vec![(
                key,
                vec![
                    ("n", st.queued.saturating_sub(st.in_flight).to_string()),
                    ("m", st.in_flight.to_string()),
                ],
            )]
        }
        Stage::Retry => vec![(key::flow::RETRY, n(tokens))],
        Stage::Dlq => vec![(key::flow::DLQ, n(st.dlq))],
        Stage::Consumer => return None,
        Stage::Effect => {
            let effects = snap
                .metrics
                .effects
                .max(snap.tables.len(Table::Effects) as u64);
            let mut parts = vec![(key::flow::EFFECT, n(effects))];
            if duplicates > 0 {
                parts.push((key::flow::EFFECT_DUPS, n(duplicates)));
            }
            parts
        }
    };
    Some(CountWords::from_parts(strings, &parts))
}

/// The order number in a message id (`msg-000003` -> `3`).
pub fn order_of(message_id: &str) -> String {
    // A DLQ replay under a new MessageId ("msg-000002-r1") is still order 2.
    let id = message_id
        .split_once("-r")
        .map_or(message_id, |(base, _)| base);
    id.strip_prefix("msg-")
        .map_or(id, |n| n.trim_start_matches('0'))
        .to_owned()
}

/// The string key of what a consumer is doing after `event` (its own last event).
pub fn consumer_state_key(kind: EventKind, broker: BrokerKind) -> content::Key {
    let asb = broker == BrokerKind::Asb;
    match kind {
        EventKind::Received
        | EventKind::ReceivedAgain
        | EventKind::ReceivedTwice
        | EventKind::LockLostAtBroker => key::consumer::RECEIVED,
        // At its renewal limit the consumer is still working on the message; only its lock
        // renewal has ended.
        EventKind::CheckNoneSafe
        | EventKind::CheckNoneNaive
        | EventKind::Claimed
        | EventKind::RenewalLimitReached
        | EventKind::VisibilityLimitReached => key::consumer::PROCESSING,
        EventKind::CheckFound | EventKind::DuplicatePrevented => key::consumer::DUPLICATE,
        EventKind::Applied
        | EventKind::AppliedNaive
        | EventKind::AppliedNoInbox
        | EventKind::TrapApplied
        | EventKind::TrapDuplicateEffectStays
        | EventKind::TwoPhaseFinished
        | EventKind::AppliedOutOfOrder => key::consumer::APPLIED,
        EventKind::Settled if asb => key::consumer::COMPLETED,
        EventKind::Settled => key::consumer::DELETED,
        EventKind::AppliedThenConnectionLost
        | EventKind::NaiveEffectThenConnectionLost
        | EventKind::NoInboxEffectThenConnectionLost
        | EventKind::TrapEffectThenConnectionLost
        | EventKind::SettledThenConnectionLost
            if asb =>
        {
            key::consumer::LOST_CONNECTION_ASB
        }
        EventKind::AppliedThenConnectionLost
        | EventKind::NaiveEffectThenConnectionLost
        | EventKind::NoInboxEffectThenConnectionLost
        | EventKind::TrapEffectThenConnectionLost
        | EventKind::SettledThenConnectionLost => key::consumer::LOST_CONNECTION_SQS,
        EventKind::LockLost | EventKind::LockCheckFailed if asb => key::consumer::LOCK_LOST_ASB,
        EventKind::LockLost | EventKind::LockCheckFailed => key::consumer::LOCK_LOST_SQS,
        EventKind::LockRenewed | EventKind::VisibilityExtended if asb => key::consumer::RENEWED_ASB,
        EventKind::LockRenewed | EventKind::VisibilityExtended => key::consumer::RENEWED_SQS,
        EventKind::Failed
        | EventKind::FailedRetryNow
        | EventKind::FailedAfterSettle
        | EventKind::SettleFailedBrokerDown => key::consumer::FAILED,
        EventKind::RetryDelayed | EventKind::Abandoned | EventKind::ScheduledCopy => {
            key::consumer::RETRY
        }
        EventKind::DeadLettered => key::consumer::DEAD_LETTERED,
        _ => key::consumer::IDLE,
    }
}

/// What consumer `actor_events`' newest event says about it, in words, with its outcome.
pub fn consumer_state(
    strings: &Strings,
    broker: BrokerKind,
    last: Option<&Event>,
) -> (String, Outcome) {
    let Some(e) = last else {
        return (strings.get(key::consumer::IDLE).to_owned(), Outcome::Ok);
    };
    let order = e.message_id.as_deref().map(order_of).unwrap_or_default();
    let key = consumer_state_key(e.kind, broker);
    (strings.fill(key, &[("order", &order)]), e.outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replayed_copy_carries_its_order_number() {
        assert_eq!(order_of("msg-000002"), "2");
        assert_eq!(order_of("msg-000002-r1"), "2");
        assert_eq!(order_of("msg-000120-r15"), "120");
        assert_eq!(order_of("other"), "other");
    }

    #[test]
    fn states_never_show_internal_names() {
        let s = Strings::from_pairs([
            (key::consumer::PROCESSING, "working on #{order}"),
            (key::consumer::IDLE, "idle"),
        ]);
        let e = Event {
            index: 3,
            at_ms: 1,
            actor: model::Actor::Consumer(0),
            stage: Stage::Consumer,
            message_id: Some("msg-000003".into()),
            kind: EventKind::CheckNoneNaive,
            sql: &[],
            outcome: Outcome::Ok,
            caption: EventKind::CheckNoneNaive.caption_key(),
            args: Vec::new(),
        };
        let (text, _) = consumer_state(&s, BrokerKind::Asb, Some(&e));
        assert_eq!(text, "working on #3");
        assert_eq!(consumer_state(&s, BrokerKind::Asb, None).0, "idle");
    }

    #[test]
    fn counts_come_in_words_numbers_and_legend() {
        let s = Strings::from_pairs([(key::flow::BROKER_ASB, "{n} visible · {m} locked")]);
        let mut snap = model::state::State::default();
        snap.scalars.stages.queued = 3;
        snap.scalars.stages.in_flight = 1;
        let snap = Snapshot {
            scalars: snap.scalars,
            metrics: model::Metrics::default(),
            tokens: Vec::new(),
            last_event: None,
            tables: snap.tables,
        };
        let words = count_line(&s, Lang::En, Stage::Broker, BrokerKind::Asb, &snap, 0, 0)
            .expect("the broker box has words");
        assert_eq!(words.full, "2 visible · 1 locked");
        assert_eq!(words.numbers, ["2 · 1"]);
        assert_eq!(words.legend, "visible · locked");
    }

    #[test]
    fn every_kind_has_a_plain_state() {
        for kind in EventKind::ALL {
            for broker in BrokerKind::ALL {
                let key = consumer_state_key(kind, broker);
                assert!(key.name().starts_with("consumer."), "{kind:?}");
            }
        }
    }
}

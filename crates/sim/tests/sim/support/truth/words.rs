//! Each broker's own words: a caption on a run against one broker must not name the other
//! broker's operations (Service Bus: peek-lock, lock, complete, abandon, sessions; SQS:
//! visibility timeout, receipt handle, `DeleteMessage`, `ChangeMessageVisibility`, redrive).

use queuelab_sim::BrokerKind;

/// Words of Service Bus's operations (peek-lock, lock, complete, abandon, sessions), in both
/// languages, that an SQS caption must not use.
const SERVICE_BUS_WORDS: [&str; 13] = [
    "lock",
    "locks",
    "locked",
    "complete",
    "completed",
    "completion",
    "abandon",
    "abandoned",
    "session",
    "sessionid",
    "abschließen",
    "abgeschlossen",
    "abschluss",
];
/// Words of SQS's operations (visibility timeout, receipt handle, `DeleteMessage`,
/// `ChangeMessageVisibility`, redrive) that a Service Bus caption must not use.
const SQS_WORDS: [&str; 9] = [
    "sqs",
    "visibility",
    "receipt",
    "receipthandle",
    "deletemessage",
    "changemessagevisibility",
    "redrive",
    "redrove",
    "messagegroupid",
];

/// The first word in `text` that belongs to the other broker's operations, if any. SQL's
/// `SKIP LOCKED` is the database's, not a broker's.
pub fn other_brokers_word(broker: BrokerKind, text: &str) -> Option<String> {
    let words: &[&str] = match broker {
        BrokerKind::Asb => &SQS_WORDS,
        BrokerKind::Sqs => &SERVICE_BUS_WORDS,
    };
    let text = text.to_lowercase().replace("skip locked", "");
    text.split(|c: char| !c.is_alphanumeric())
        .find(|w| words.contains(w))
        .map(str::to_owned)
}

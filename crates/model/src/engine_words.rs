//! The engine's own words for what went wrong (a failed statement, a refused publish, a
//! provider timeout, an unknown schema version). The history, the DLQ rows and the events keep
//! them in English, as a log line would be; the learner reads them in their language. Each is a
//! key of the captions file (`assets/sim/captions.toml`, both languages): the engine words one
//! with the English text, and a caption says each argument again in the reader's language by
//! reading it against the English shapes.

use std::sync::LazyLock;

use content::{CAPTIONS_PATH, Captions, ContentSource, Lang};

/// "line {0}: {1}": a statement of the learner's file failed with the error {1}.
pub const LINE: &str = "sim.words.line";
/// The API crashed right after a statement of the learner's `@accept`.
pub const API_CRASHED: &str = "sim.words.api-crashed";
/// The client timed out before any order was saved; the transaction rolled back.
pub const CLIENT_TIMED_OUT: &str = "sim.words.client-timed-out";
/// `publish({0})` was refused: the broker is unreachable.
pub const PUBLISH_REFUSED: &str = "sim.words.publish-refused";
/// `charge()` was called while a transaction was open, and refused.
pub const CHARGE_REFUSED: &str = "sim.words.charge-refused";
/// The provider performed the charge, then its response timed out.
pub const PROVIDER_TIMED_OUT: &str = "sim.words.provider-timed-out";
/// Another instance holds the two-phase claim.
pub const CLAIMED_ELSEWHERE: &str = "sim.words.claimed-elsewhere";
/// The two-phase claim expired before the effect was recorded.
pub const CLAIM_EXPIRED: &str = "sim.words.claim-expired";
/// The message body does not parse.
pub const BODY_UNREADABLE: &str = "sim.words.body-unreadable";
/// The body's schema version {0} is unknown to the consumer (a poison message).
pub const UNSUPPORTED_SCHEMA: &str = "sim.words.unsupported-schema";
/// The claim-check reference in the body is malformed.
pub const BAD_REFERENCE: &str = "sim.words.bad-reference";
/// The claim-check blob {0} is gone.
pub const BLOB_MISSING: &str = "sim.words.blob-missing";
/// The claim-check blob {0} hashes to {2}, the message says {1}.
pub const BLOB_MISMATCH: &str = "sim.words.blob-mismatch";

/// Every key of the engine's words (each in both languages of the captions file).
pub const ENGINE_WORDS: [&str; 13] = [
    LINE,
    API_CRASHED,
    CLIENT_TIMED_OUT,
    PUBLISH_REFUSED,
    CHARGE_REFUSED,
    PROVIDER_TIMED_OUT,
    CLAIMED_ELSEWHERE,
    CLAIM_EXPIRED,
    BODY_UNREADABLE,
    UNSUPPORTED_SCHEMA,
    BAD_REFERENCE,
    BLOB_MISSING,
    BLOB_MISMATCH,
];

/// The embedded captions (empty when the file is broken, which `check` and the tests catch).
static EMBEDDED: LazyLock<Captions> = LazyLock::new(|| {
    let mut problems = Vec::new();
    ContentSource::Embedded
        .read(CAPTIONS_PATH)
        .ok()
        .flatten()
        .and_then(|text| content::captions_parse(CAPTIONS_PATH, &text, &mut problems))
        .unwrap_or_default()
});

/// The engine's words for `key` with `args`: the English text of the embedded captions.
pub fn english(key: &str, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    EMBEDDED.render(Lang::En, key, &args)
}

/// `text` in `lang` when it is one of the engine's words (its arguments said again the same
/// way, so "line 10: publish(...): ..." reads in one language); any other text as it is.
pub fn say(captions: &Captions, lang: Lang, text: &str) -> String {
    if lang == Lang::En {
        return text.to_owned();
    }
    ENGINE_WORDS
        .iter()
        .find_map(|key| {
            let shape = captions.get(Lang::En, key)?;
            let values = crate::violation_words::read(shape, text)?;
            let args: Vec<String> = values
                .into_iter()
                .map(|(_, value)| say(captions, lang, value))
                .collect();
            Some(captions.render(lang, key, &args))
        })
        .unwrap_or_else(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_reads_back_in_german_and_stays_in_english() {
        let samples: [(&str, &[&str]); 13] = [
            (LINE, &["10", "no such table: inbox"]),
            (API_CRASHED, &[]),
            (CLIENT_TIMED_OUT, &[]),
            (PUBLISH_REFUSED, &["msg-000005"]),
            (CHARGE_REFUSED, &[]),
            (PROVIDER_TIMED_OUT, &[]),
            (CLAIMED_ELSEWHERE, &[]),
            (CLAIM_EXPIRED, &[]),
            (BODY_UNREADABLE, &[]),
            (UNSUPPORTED_SCHEMA, &["v2"]),
            (BAD_REFERENCE, &[]),
            (BLOB_MISSING, &["ab12"]),
            (BLOB_MISMATCH, &["ab12", "00ff", "ee11"]),
        ];
        for (key, args) in samples {
            let text = english(key, args);
            assert_eq!(say(&EMBEDDED, Lang::En, &text), text);
            let german = say(&EMBEDDED, Lang::De, &text);
            let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
            assert_eq!(german, EMBEDDED.render(Lang::De, key, &args), "{key}");
            assert_ne!(german, text, "{key} reads the same in German");
        }
    }

    #[test]
    fn nested_words_read_in_one_language() {
        let inner = english(PUBLISH_REFUSED, &["msg-000005"]);
        let text = english(LINE, &["10", &inner]);
        assert_eq!(
            text,
            "line 10: publish(msg-000005): the broker is unreachable"
        );
        assert_eq!(
            say(&EMBEDDED, Lang::De, &text),
            "Zeile 10: publish(msg-000005): Der Broker ist nicht erreichbar"
        );
        assert_eq!(say(&EMBEDDED, Lang::De, "something else"), "something else");
    }
}

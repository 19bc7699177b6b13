//! Every kind's name round-trips, and every kind has a caption in both languages.

use super::*;

#[test]
fn names_round_trip_and_caption_keys_carry_the_prefix() {
    for k in EventKind::ALL {
        assert_eq!(EventKind::parse(k.as_str()), Some(k));
        assert_eq!(k.caption_key().strip_prefix("sim."), Some(k.as_str()));
    }
}

/// Every kind has a caption in de and en, and every caption belongs to a kind.
#[test]
fn captions_and_kinds_match() {
    use content::{ContentSource, Lang, load};
    let content = load(&ContentSource::Embedded).expect("embedded content");
    for lang in Lang::ALL {
        let keys: Vec<&str> = content.captions.keys(lang).collect();
        for k in EventKind::ALL {
            assert!(
                keys.contains(&k.caption_key()),
                "{lang}: {k} has no caption"
            );
        }
        for k in EventKind::ALL
            .into_iter()
            .filter_map(EventKind::sqs_caption_key)
            .chain(crate::engine::LAB_CAPTIONS)
            .chain(crate::engine_words::ENGINE_WORDS)
        {
            assert!(keys.contains(&k), "{lang}: {k} has no caption");
        }
        for key in keys {
            let sqs_kind = EventKind::ALL
                .into_iter()
                .any(|k| k.sqs_caption_key() == Some(key));
            let name = key.strip_prefix("sim.").unwrap_or(key);
            let lab = crate::engine::LAB_CAPTIONS.contains(&key);
            let words = crate::engine_words::ENGINE_WORDS.contains(&key);
            assert!(
                sqs_kind || lab || words || EventKind::parse(name).is_some(),
                "caption {key} has no kind"
            );
        }
    }
    let text = content
        .captions
        .render(Lang::En, "sim.broker-down", &["5000".into()]);
    assert_eq!(text, "The broker is unreachable for 5000 ms.");
}

/// A run on SQS gets the SQS wording where a kind has one, every other run the common key.
#[test]
fn the_caption_key_follows_the_broker() {
    use crate::model::BrokerKind;
    assert_eq!(
        EventKind::Settled.caption_key_on(BrokerKind::Sqs),
        "sim.sqs.settled"
    );
    assert_eq!(
        EventKind::Settled.caption_key_on(BrokerKind::Asb),
        "sim.settled"
    );
    assert_eq!(
        EventKind::BrokerDown.caption_key_on(BrokerKind::Sqs),
        "sim.broker-down"
    );
}

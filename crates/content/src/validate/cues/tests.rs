//! Each cue rule fails on a crafted item that carries its cue and passes the same item written
//! the way a careful author would.

use super::*;

fn item<'a>(stem: &'a str, right: &'a str, wrong: &[&'a str]) -> Item<'a> {
    Item {
        path: "x.toml".to_owned(),
        name: "question \"q\"".to_owned(),
        stem: vec![stem],
        right: vec![right],
        wrong: wrong.to_vec(),
    }
}

fn problems(item: &Item<'_>, terms: &[&str], absolutes: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    check_item(item, terms, absolutes, &mut out);
    out.into_iter().map(|p| p.message).collect()
}

#[test]
fn a_shared_opening_of_the_wrong_options_is_caught() {
    let cued = item(
        "The broker is down. What do you do?",
        "Write an outbox row in the same commit; a dispatcher sends it.",
        &[
            "Commit the order, then publish and retry until it answers.",
            "Commit the order, publish, and log a failure.",
            "Commit the order and keep the message in memory.",
        ],
    );
    assert_eq!(
        shared_affix(&cued, false).as_deref(),
        Some("commit the order")
    );
    let found = problems(&cued, &[], &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("open with \"commit the order\""),
        "{found:?}"
    );
    // The right option in the same shape: no odd one out.
    let same_shape = item(
        cued.stem[0],
        "Commit the order with an outbox row; a dispatcher sends it.",
        &cued.wrong,
    );
    assert!(problems(&same_shape, &[], &[]).is_empty());
    // Two shared words are chance, not a pattern.
    let two = item(
        "?",
        "Group by reason first.",
        &["The 37 go back now.", "The 37 wait a day."],
    );
    assert_eq!(shared_affix(&two, false), None);
}

#[test]
fn a_shared_closing_of_the_wrong_options_is_caught() {
    let cued = item(
        "What goes into the message?",
        "A private key, the SHA-256 and metadata.",
        &[
            "The PDF as Base64, plus the customer and order id.",
            "A presigned URL, plus the customer and order id.",
            "The PDF with gzip, plus the customer and order id!",
        ],
    );
    let found = problems(&cued, &[], &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("close with \"plus the customer and order id\""),
        "{found:?}"
    );
}

#[test]
fn a_course_term_only_in_the_right_option_is_caught() {
    let terms = ["Inbox", "Consumer"];
    let cued = item(
        "The same message arrives twice. What does the consumer do?",
        "Record the id in the inbox with the credit; skip if it is there.",
        &[
            "Run the handler again and book the credit as for any delivery.",
            "Skip credits of the same amount today, then settle the message.",
        ],
    );
    let found = problems(&cued, &terms, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("course term \"Inbox\""), "{found:?}");
    // Named in the question or in a wrong option as well: no cue.
    let in_stem = item("Where does the inbox row go?", cued.right[0], &cued.wrong);
    assert!(problems(&in_stem, &terms, &[]).is_empty());
    let in_wrong = item(
        cued.stem[0],
        cued.right[0],
        &[
            "Check the inbox first, then run the handler.",
            cued.wrong[1],
        ],
    );
    assert!(problems(&in_wrong, &terms, &[]).is_empty());
}

#[test]
fn absolutes_on_one_side_only_are_caught() {
    let absolutes = ["never", "only", "nur", "kein"];
    let wrong_side = item(
        "?",
        "Lease the rows first.",
        &["It never fails.", "Send the rows twice."],
    );
    let found = problems(&wrong_side, &[], &absolutes);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("only on the wrong options"), "{found:?}");
    let right_side = item("?", "Nur mit Lease.", &["Zweimal senden.", "Warten."]);
    assert!(problems(&right_side, &[], &absolutes)[0].contains("only on the right options"));
    let both = item(
        "?",
        "Only with a lease.",
        &["It never fails.", "Send twice."],
    );
    assert!(problems(&both, &[], &absolutes).is_empty());
    // Whole words only: "Nurse" and "knowledge" are no absolutes.
    let inside = item(
        "?",
        "Ask the nurse.",
        &["Knowledge helps.", "Nobody's fault."],
    );
    assert!(problems(&inside, &[], &absolutes).is_empty());
}

#[test]
fn the_longest_right_option_on_a_card_is_caught() {
    let mut out = Vec::new();
    let card = item(
        "?",
        "A much longer right option than the others.",
        &["Short.", "Shorter."],
    );
    check_longest(&card, &mut out);
    assert_eq!(out.len(), 1, "{out:?}");
    let mut out = Vec::new();
    check_longest(
        &item("?", "Short.", &["A longer wrong one.", "x"]),
        &mut out,
    );
    assert!(out.is_empty());
}

#[test]
fn a_phrase_every_wrong_option_shares_mid_sentence_is_caught() {
    let cued = item(
        "The broker is down. How does the API hand an order on?",
        "Store the message as a row in the same commit; a worker publishes it.",
        &[
            "Publish inside the request after the Commit, retrying with backoff.",
            "Publish in the same request after the commit and log a failure.",
            "Put the message in a retry queue after the commit; a job drains it.",
        ],
    );
    assert_eq!(shared_phrase(&cued).as_deref(), Some("after the commit"));
    let found = problems(&cued, &[], &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("contains \"after the commit\""),
        "{found:?}"
    );
    // The right option saying it too: no odd one out.
    let right_too = item(
        cued.stem[0],
        "After the commit is taken with an outbox row, a worker publishes it.",
        &cued.wrong,
    );
    assert_eq!(shared_phrase(&right_too), None);
    // Shared by two wrong options of three is no pattern of the wrong side.
    let two_of_three = item(
        cued.stem[0],
        cued.right[0],
        &[cued.wrong[0], cued.wrong[1], "Keep it in memory."],
    );
    assert_eq!(shared_phrase(&two_of_three), None);
    // Two shared words are chance.
    let two_words = item(
        "?",
        "Group them by reason.",
        &["Replay the 37 now.", "Raise the limit; the 37 wait."],
    );
    assert_eq!(shared_phrase(&two_words), None);
    // A shared opening is reported once, by the affix rule.
    let opening = item(
        "?",
        "Write an outbox row in the same commit.",
        &[
            "Commit the order, then publish it.",
            "Commit the order and log a failure.",
        ],
    );
    let found = problems(&opening, &[], &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("open with"), "{found:?}");
}

#[test]
fn a_right_option_far_longer_than_every_wrong_one_is_caught() {
    let cued = item(
        "The provider is down for an hour. What do you do?",
        "Let a circuit breaker open and pause receiving (StopProcessingAsync, or stop calling ReceiveMessage) until a trial call succeeds.",
        &[
            "Raise MaxDeliveryCount to 1,000 so that messages do not reach the DLQ.",
            "Let the retries run; replay whatever lands in the DLQ afterwards.",
            "Add more immediate retries to the handler so each gets through.",
        ],
    );
    assert_eq!(right_stands_out_by_length(&cued), Some((129, 70)));
    let found = problems(&cued, &[], &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("129 characters"), "{found:?}");
    // Within a quarter of the longest wrong option: a careful author's spread.
    let balanced = item(
        cued.stem[0],
        "Let a circuit breaker open and stop receiving until a trial call succeeds.",
        &cued.wrong,
    );
    assert_eq!(right_stands_out_by_length(&balanced), None);
    assert!(problems(&balanced, &[], &[]).is_empty());
}

#[test]
fn a_quiz_option_copied_from_a_decision_option_is_caught() {
    let card = "A SAS or presigned URL for reading, valid for 15 minutes; the worker downloads it.";
    assert_eq!(
        echo(
            "With a SAS or presigned URL for reading, valid for 15 minutes, in the message.",
            card
        )
        .as_deref(),
        Some("a sas or presigned url for")
    );
    // The same idea in the question's own words.
    assert_eq!(
        echo(
            "With a read link that the producer signs and puts in the message.",
            card
        ),
        None
    );
    // Five shared words are a shared idea, not a copied line.
    assert_eq!(
        echo(
            "Commit the message as a row with the order.",
            "Store the message as a row in the same commit."
        ),
        None
    );
}

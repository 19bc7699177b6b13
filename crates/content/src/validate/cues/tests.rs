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
            "Run the handler again.",
            "Skip credits of the same amount today.",
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
        &["It never fails.", "Send them twice."],
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

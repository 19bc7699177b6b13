use super::*;
use content::{ContentSource, Lang, load};

fn strings(lang: Lang) -> Strings {
    load(&ContentSource::Embedded)
        .expect("content")
        .course(lang)
        .strings
        .clone()
}

#[test]
fn each_cause_is_found_in_the_raw_reason() {
    let cause = |r: &str| classify(r).map(|c| c.cause);
    assert_eq!(
        cause("permanent server error: permanent error (550): Mailbox unavailable"),
        Some(Cause::AddressRefused)
    );
    assert_eq!(
        cause("permanent server error: permanent error (550): 5.7.1 spam"),
        Some(Cause::Rejected)
    );
    assert_eq!(
        cause("temporary server error: transient error (450): 4.1.1 mailbox busy"),
        Some(Cause::AddressRefused)
    );
    assert_eq!(
        cause("permanent server error: permanent error (535): 5.7.8 bad credentials"),
        Some(Cause::Authentication)
    );
    assert_eq!(
        cause("temporary server error: transient error (451): Aborted"),
        Some(Cause::Rejected)
    );
    assert_eq!(
        cause("connection failure: Connection error: Connection refused (os error 111)"),
        Some(Cause::ConnectionRefused)
    );
    assert_eq!(
        cause("connection failure: network error: broken pipe"),
        Some(Cause::Connection)
    );
    assert_eq!(
        cause("timeout: the whole SMTP conversation took longer than 60 s"),
        Some(Cause::Timeout)
    );
    assert_eq!(
        cause("TLS failure: tls error: invalid peer certificate"),
        Some(Cause::Tls)
    );
}

#[test]
fn german_sentences_quote_the_server_and_keep_the_code() {
    let de = strings(Lang::De);
    let text = explain(
        "permanent server error: permanent error (550): Mailbox unavailable",
        &de,
    );
    assert!(
        text.starts_with("Der Mailserver hat die Adresse abgelehnt"),
        "{text}"
    );
    assert!(
        text.contains("550") && text.contains("„Mailbox unavailable“"),
        "{text}"
    );
    let text = explain(
        "gave up after 8 attempts: connection failure: Connection error: Connection refused (os error 111)",
        &de,
    );
    assert!(text.starts_with("Nach 8 Versuchen aufgegeben"), "{text}");
    assert!(
        text.contains("„Connection refused (os error 111)“"),
        "{text}"
    );
    assert!(!text.contains("gave up"), "{text}");
    let en = strings(Lang::En);
    let text = explain(
        "permanent server error: permanent error (535): 5.7.8 no",
        &en,
    );
    assert!(
        text.starts_with("The mail server refused the login"),
        "{text}"
    );
}

#[test]
fn a_reason_it_cannot_take_apart_is_quoted_whole() {
    let de = strings(Lang::De);
    assert_eq!(explain("", &de), "");
    for raw in [
        "cannot write into /tmp/x: disk full",
        "gave up after",
        "gave up after 3 attempts",
        "the workshop host retries",
    ] {
        assert_eq!(
            explain(raw, &de),
            format!("Die Mail ging nicht hinaus („{raw}“).")
        );
    }
}

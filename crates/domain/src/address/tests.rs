use super::*;
use AddressError as E;

/// Bad inputs, each with the rejection it must get.
fn bad_inputs() -> Vec<(String, AddressError)> {
    let long_local = format!("{}@example.org", "a".repeat(65));
    let long_label = format!("ada@{}.org", "b".repeat(64));
    let long_total = format!("ada@{}.org", vec!["c".repeat(60); 5].join("."));
    [
        ("", E::Empty),
        ("   ", E::Empty),
        ("\t\n", E::Empty),
        ("ada lovelace@example.org", E::Whitespace),
        ("ada@exam ple.org", E::Whitespace),
        ("ada@example.org\u{a0}x", E::Whitespace),
        ("ada@example.org\r\nBcc: eve@evil.org", E::Control),
        ("ada@example.org\nSubject: hi", E::Control),
        ("ada\u{0}@example.org", E::Control),
        ("ada@example.org\u{7f}", E::Control),
        ("ada\u{1b}[31m@example.org", E::Control),
        ("ada.example.org", E::NoAt),
        ("ada", E::NoAt),
        ("ada@@example.org", E::SeveralAt),
        ("ada@example.org@evil.org", E::SeveralAt),
        ("\"a@b\"@example.org", E::SeveralAt),
        ("@example.org", E::EmptyLocal),
        (&long_local, E::LocalTooLong),
        (".ada@example.org", E::LocalDots),
        ("ada.@example.org", E::LocalDots),
        ("ada..lovelace@example.org", E::LocalDots),
        ("\"ada\"@example.org", E::LocalChar),
        ("ada,eve@example.org", E::LocalChar),
        ("<ada>@example.org", E::LocalChar),
        ("ada(comment)@example.org", E::LocalChar),
        ("ädä@example.org", E::LocalChar),
        ("ada;eve@example.org", E::LocalChar),
        ("ada@", E::EmptyDomain),
        ("ada@localhost", E::DomainNotDotted),
        ("ada@example", E::DomainNotDotted),
        ("ada@exämple.org", E::DomainChar),
        ("ada@example_org.com", E::DomainChar),
        ("ada@[127.0.0.1]", E::DomainChar),
        ("ada@example.org>", E::DomainChar),
        ("ada@example.org,eve@evil.org", E::SeveralAt),
        ("ada@example.org,evil.org", E::DomainChar),
        ("ada@.example.org", E::DomainEmptyLabel),
        ("ada@example.org.", E::DomainEmptyLabel),
        ("ada@example..org", E::DomainEmptyLabel),
        ("ada@-example.org", E::DomainHyphen),
        ("ada@example-.org", E::DomainHyphen),
        (&long_label, E::DomainLabelTooLong),
        ("ada@127.0.0.1", E::DomainNumericTld),
        ("ada@example.123", E::DomainNumericTld),
        (&long_total, E::TooLong),
    ]
    .into_iter()
    .map(|(input, err)| (input.to_owned(), err))
    .collect()
}

#[test]
fn every_bad_input_gets_its_own_message() {
    let cases = bad_inputs();
    assert!(cases.len() >= 30, "only {} cases", cases.len());
    for (input, expected) in &cases {
        assert_eq!(validate(input), Err(*expected), "input {input:?}");
    }
    // Every rejection except the library's fallback is exercised by the table.
    for key in ERROR_KEYS {
        let used = cases.iter().any(|(_, e)| e.key() == key);
        assert!(used || key == key::address::ERR_SYNTAX, "{key} untested");
    }
}

#[test]
fn good_addresses_pass_trimmed() {
    for good in [
        "ada@example.org",
        "  ada.lovelace+queue@mail.example.co.uk ",
        "o'neil@example.ie",
        "x_y-z@sub-domain.example.org",
        "1234@example.org",
        "a@b.io",
    ] {
        assert_eq!(validate(good).as_deref(), Ok(good.trim()), "{good:?}");
    }
}

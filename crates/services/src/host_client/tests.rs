use super::*;
use domain::workshop::wire::Route;

#[test]
fn an_unknown_reply_variant_is_a_clear_error_naming_the_route() {
    let error = decode::<CodeReply>(Route::ReportCode, br#"{"outcome":"teleported"}"#)
        .expect_err("unknown variant");
    let message = error.to_string();
    assert!(
        message.starts_with("the workshop host's answer to POST /api/report/code is not readable:"),
        "{message}"
    );
    assert!(message.contains("teleported"), "{message}");
}

#[test]
fn a_ui_key_reply_of_the_first_protocol_is_not_read_as_a_verdict() {
    let old =
        br#"{"key":"otp.accepted","remaining":null,"wait_secs":null,"sent":true,"done":true}"#;
    assert!(matches!(
        decode::<SendReply>(Route::ReportSend, old),
        Err(HostError::Unreadable {
            route: Route::ReportSend,
            ..
        })
    ));
}

#[test]
fn a_malformed_body_is_unreadable_not_a_panic() {
    for body in [&b""[..], b"not json", b"{\"paces\": 3}", b"\xff\xfe"] {
        let error = decode::<PaceReply>(Route::PacePoll, body).expect_err("malformed");
        assert!(
            error
                .to_string()
                .starts_with("the host's answer to GET /api/pace is not readable:"),
            "{error}"
        );
    }
}

#[test]
fn only_a_4xx_answer_is_a_refusal() {
    let refused = |status| HostError::Refused {
        route: Route::Events,
        status,
        message: "session full".into(),
    };
    assert_eq!(refused(403).refusal(), Some("session full"));
    assert_eq!(refused(503).refusal(), None);
    assert_eq!(
        refused(403).to_string(),
        "the host answered 403: session full"
    );
}

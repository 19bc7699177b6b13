//! The learner's display name in the report: the instructor's copy arrives at the SMTP server
//! with the name in its subject, and the HTML part fetches nothing from anywhere.

use super::{INSTRUCTOR, LEARNER, Smtp, code_in, fixture, header};
use queuelab::content::Lang;
use queuelab::domain::Progress;
use queuelab::domain::otp::Verdict;
use queuelab::domain::quiz::Attempt;
use queuelab::domain::report::{self, ReportInput, display_name};
use queuelab::services::store::now_secs;
use std::collections::BTreeSet;

/// The decoded body of the part whose Content-Type starts with `mime` (base64, quoted-printable
/// or 7bit: lettre picks the shortest).
fn part(raw: &str, mime: &str) -> String {
    let start = raw
        .find(&format!("Content-Type: {mime}"))
        .unwrap_or_else(|| panic!("a {mime} part in {raw}"));
    let rest = &raw[start..];
    let body_start = rest.find("\r\n\r\n").expect("part headers end") + 4;
    let headers = &rest[..body_start];
    let body = &rest[body_start..];
    // The part ends at the next boundary line (a plain-text underline also starts with `--`).
    let boundary = raw
        .split("boundary=\"")
        .nth(1)
        .and_then(|b| b.split('"').next())
        .expect("a multipart boundary");
    let body = &body[..body
        .find(&format!("\r\n--{boundary}"))
        .unwrap_or(body.len())];
    let bytes = if headers.contains("Content-Transfer-Encoding: base64") {
        base64(body)
    } else if headers.contains("Content-Transfer-Encoding: quoted-printable") {
        quoted_printable(body)
    } else {
        body.as_bytes().to_vec()
    };
    String::from_utf8(bytes).expect("UTF-8 part")
}

fn base64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for b in text.bytes().filter(|b| ALPHABET.contains(b)) {
        let value = ALPHABET
            .iter()
            .position(|a| *a == b)
            .expect("in the alphabet") as u32;
        acc = (acc << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

fn quoted_printable(text: &str) -> Vec<u8> {
    let joined = text.replace("=\r\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = (bytes[i] == b'=')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        if let Some(byte) = hex {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn the_instructor_copy_names_the_learner_in_its_subject_and_the_html_loads_nothing() {
    let smtp = Smtp::start();
    let mut fx = fixture(Some(INSTRUCTOR));
    let dispatcher = fx.smtp(smtp.port);
    let now = now_secs();
    fx.request_code(now);
    dispatcher.run_due(&mut fx.store, now).expect("dispatch");
    let code = code_in(&smtp.received().pop().expect("code mail").data);

    let name = display_name(" Ada Lovelace ")
        .expect("a valid name")
        .expect("not empty");
    let stored = fx
        .store
        .latest_finished_attempt()
        .expect("read")
        .expect("finished attempt");
    let named = report::build(&ReportInput {
        course: &fx.course,
        scenarios: &[],
        lang: Lang::En,
        workshop: "Queue Lab",
        date: "2026-11-30",
        progress: &Progress::default(),
        attempt: &stored.attempt,
        learner: Some(&name),
        labs: &[],
        lab_results: &std::collections::BTreeMap::new(),
    });
    let verdict = fx
        .flow
        .confirm_code(&mut fx.store, LEARNER, &code, now + 30, true, &named)
        .expect("confirm");
    assert!(matches!(verdict, Verdict::Accepted { .. }));
    dispatcher
        .run_due(&mut fx.store, now + 31)
        .expect("dispatch");
    let mails = smtp.received();
    let copy = mails.last().expect("report arrived");
    assert!(
        copy.to.contains(&INSTRUCTOR.to_owned()),
        "the instructor is a recipient: {:?}",
        copy.to
    );
    let raw = &copy.data;
    assert_eq!(header(raw, "Cc"), Some(INSTRUCTOR));
    assert_eq!(
        header(raw, "Subject"),
        Some("queuelab report of Ada Lovelace"),
        "a workshop named after the product is not put before it a second time"
    );
    let html = part(raw, "text/html");
    assert!(html.contains("Ada Lovelace"), "{html}");
    for external in ["http:", "https:", "//", "src=", "<link", "url(", "@import"] {
        assert!(
            !html.contains(external),
            "{external} in the HTML part:\n{html}"
        );
    }
    assert!(html.contains("max-width: 600px"));
    let text = part(raw, "text/plain");
    let name_at = text.find("Ada Lovelace").expect("name in the text part");
    let steps_at = text.find("Your next steps").expect("next steps");
    let details_at = text.find("Details").expect("details");
    assert!(name_at < steps_at && steps_at < details_at, "{text}");
}

/// The report as an instructor's copy needs it, over a real SMTP server: the product named
/// once in the subject, the right answer beside a wrong decision, and next steps that follow
/// the topics answered wrongly.
#[test]
fn the_report_mail_names_the_product_once_shows_right_decisions_and_steps_by_topic() {
    let smtp = Smtp::start();
    let mut fx = fixture(None);
    let dispatcher = fx.smtp(smtp.port);
    let now = now_secs();
    fx.request_code(now);
    dispatcher.run_due(&mut fx.store, now).expect("dispatch");
    let code = code_in(&smtp.received().pop().expect("code mail").data);

    let quiz = &fx.course.quiz;
    let mut attempt = Attempt::new(quiz, 11);
    for q in attempt
        .questions(quiz)
        .into_iter()
        .cloned()
        .collect::<Vec<_>>()
    {
        // Wrong only on the outbox question.
        let chosen: BTreeSet<String> = q
            .options
            .iter()
            .filter(|o| o.correct != (q.topic == "outbox"))
            .take(if q.topic == "outbox" { 1 } else { usize::MAX })
            .map(|o| o.id.clone())
            .collect();
        attempt.answer(&q.id, chosen);
    }
    let decision = &fx.course.decisions[0];
    let wrong = decision.options.iter().find(|o| !o.correct).expect("wrong");
    let right = decision.options.iter().find(|o| o.correct).expect("right");
    let mut progress = Progress::default();
    progress
        .decisions
        .insert(decision.id.clone(), wrong.id.clone());
    let built = report::build(&ReportInput {
        course: &fx.course,
        scenarios: &[],
        lang: Lang::En,
        workshop: "queuelab",
        date: "2026-12-01",
        progress: &progress,
        attempt: &attempt,
        learner: Some("Anna Berg"),
        labs: &[],
        lab_results: &std::collections::BTreeMap::new(),
    });
    let verdict = fx
        .flow
        .confirm_code(&mut fx.store, LEARNER, &code, now + 30, false, &built)
        .expect("confirm");
    assert!(matches!(verdict, Verdict::Accepted { .. }));
    dispatcher
        .run_due(&mut fx.store, now + 31)
        .expect("dispatch");
    let mails = smtp.received();
    let raw = &mails.last().expect("report arrived").data;
    assert_eq!(header(raw, "Subject"), Some("queuelab report of Anna Berg"));
    let text = part(raw, "text/plain");
    let unwrapped = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let expected = format!("Right answer: {}", right.text);
    assert!(
        unwrapped.contains(&expected.split_whitespace().collect::<Vec<_>>().join(" ")),
        "the decision's right answer: {text}"
    );
    let steps_at = unwrapped.find("Your next steps").expect("next steps");
    let details_at = unwrapped.find("Details").expect("details");
    let steps = &unwrapped[steps_at..details_at];
    assert!(
        steps.contains("Outbox: reread chapter 8"),
        "the step for the wrong topic: {steps}"
    );
    assert!(
        !steps.contains("Ordering:"),
        "no step for a right topic: {steps}"
    );
}

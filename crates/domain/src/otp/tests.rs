use super::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";
const ADDRESS: &str = "Ada@Example.org";
const T0: i64 = 1_800_000_000;

/// A history with one code issued at `issued_at`; returns it with the code in clear.
fn issued(issued_at: i64, seed: u64) -> (OtpHistory, OneTimeCode) {
    let mut history = OtpHistory::default();
    let code = push_code(&mut history, issued_at, seed);
    (history, code)
}

fn push_code(history: &mut OtpHistory, issued_at: i64, seed: u64) -> OneTimeCode {
    let mut rng = StdRng::seed_from_u64(seed);
    let code = OneTimeCode::generate(&mut rng);
    let nonce = vec![seed as u8; NONCE_LEN];
    history.codes.push(CodeRecord {
        id: history.codes.len() as i64 + 1,
        tag: tag(KEY, &nonce, ADDRESS, code.reveal()),
        nonce,
        issued_at,
        used_at: None,
    });
    code
}

/// A six-digit string that is not `code`.
fn other(code: &OneTimeCode) -> String {
    let n: u32 = code.reveal().parse().expect("digits");
    format!("{:06}", (n + 1) % 1_000_000)
}

#[test]
fn codes_are_six_digits_and_hidden_in_debug() {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..200 {
        let code = OneTimeCode::generate(&mut rng);
        assert_eq!(code.reveal().len(), CODE_DIGITS);
        assert!(code.reveal().bytes().all(|b| b.is_ascii_digit()));
        assert!(!format!("{code:?}").contains(code.reveal()));
    }
}

#[test]
fn right_code_accepted_within_ten_minutes_only() {
    let (history, code) = issued(T0, 2);
    assert_eq!(
        history.check(KEY, ADDRESS, code.reveal(), T0 + VALIDITY_SECS - 1),
        Verdict::Accepted { code_id: 1 }
    );
    assert_eq!(
        history.check(KEY, "ada@example.ORG", &format!(" {} ", code.reveal()), T0),
        Verdict::Accepted { code_id: 1 },
        "address case and surrounding spaces do not matter"
    );
    assert_eq!(
        history.check(KEY, ADDRESS, code.reveal(), T0 + VALIDITY_SECS),
        Verdict::Expired
    );
}

#[test]
fn tag_depends_on_key_address_and_nonce() {
    let (history, code) = issued(T0, 3);
    assert!(matches!(
        history.check(b"another key", ADDRESS, code.reveal(), T0),
        Verdict::Wrong { .. }
    ));
    assert!(matches!(
        history.check(KEY, "eve@example.org", code.reveal(), T0),
        Verdict::Wrong { .. }
    ));
    assert_ne!(
        tag(KEY, &[1; NONCE_LEN], ADDRESS, "123456"),
        tag(KEY, &[2; NONCE_LEN], ADDRESS, "123456")
    );
    assert_eq!(tag(KEY, &[1; NONCE_LEN], ADDRESS, "123456").len(), 32);
}

#[test]
fn single_use() {
    let (mut history, code) = issued(T0, 4);
    history.codes[0].used_at = Some(T0 + 5);
    assert_eq!(
        history.check(KEY, ADDRESS, code.reveal(), T0 + 6),
        Verdict::AlreadyUsed
    );
}

#[test]
fn malformed_input_costs_no_try() {
    let (history, _) = issued(T0, 5);
    for typed in ["", "12345", "1234567", "12a456", "١٢٣٤٥٦"] {
        assert_eq!(history.check(KEY, ADDRESS, typed, T0), Verdict::Malformed);
    }
    assert_eq!(history.remaining_tries(T0), MAX_FAILURES);
}

#[test]
fn five_wrong_tries_lock_even_the_right_code_and_a_new_one() {
    let (mut history, code) = issued(T0, 6);
    for i in 0..MAX_FAILURES {
        let verdict = history.check(KEY, ADDRESS, &other(&code), T0 + i as i64);
        assert_eq!(
            verdict,
            Verdict::Wrong {
                remaining: MAX_FAILURES - i - 1
            }
        );
        history.failures.push(T0 + i as i64);
    }
    assert_eq!(history.remaining_tries(T0 + 10), 0);
    assert_eq!(
        history.check(KEY, ADDRESS, code.reveal(), T0 + 10),
        Verdict::Locked {
            wait_secs: WINDOW_SECS - 10
        }
    );
    // A new code does not reset the failure count.
    assert_eq!(
        history.may_issue(T0 + 120),
        Err(IssueDenied::Locked {
            wait_secs: WINDOW_SECS - 120
        })
    );
    let newer = push_code(&mut history, T0 + 120, 7);
    assert!(matches!(
        history.check(KEY, ADDRESS, newer.reveal(), T0 + 121),
        Verdict::Locked { .. }
    ));
    // After the hour the failures age out.
    assert_eq!(history.may_issue(T0 + WINDOW_SECS + 5), Ok(()));
}

#[test]
fn failures_before_a_new_code_still_count() {
    let (mut history, first) = issued(T0, 8);
    for i in 0..3 {
        history.failures.push(T0 + i);
    }
    let second = push_code(&mut history, T0 + 60, 9);
    assert_eq!(history.remaining_tries(T0 + 61), 2);
    assert_eq!(
        history.check(KEY, ADDRESS, &other(&second), T0 + 61),
        Verdict::Wrong { remaining: 1 }
    );
    if first.reveal() != second.reveal() {
        assert!(
            matches!(
                history.check(KEY, ADDRESS, first.reveal(), T0 + 61),
                Verdict::Wrong { .. }
            ),
            "an older code is superseded by the newer one"
        );
    }
}

#[test]
fn resend_cooldown_and_hourly_limit() {
    let mut history = OtpHistory::default();
    assert_eq!(history.may_issue(T0), Ok(()));
    assert_eq!(history.check(KEY, ADDRESS, "123456", T0), Verdict::NoCode);
    push_code(&mut history, T0, 10);
    assert_eq!(
        history.may_issue(T0 + 59),
        Err(IssueDenied::Cooldown { wait_secs: 1 })
    );
    assert_eq!(history.resend_wait(T0 + 30), 30);
    assert_eq!(history.may_issue(T0 + 60), Ok(()));
    for i in 1..MAX_CODES_PER_WINDOW as i64 {
        push_code(&mut history, T0 + i * 60, 10 + i as u64);
    }
    let after_fifth = T0 + 5 * 60;
    assert_eq!(
        history.may_issue(after_fifth),
        Err(IssueDenied::HourlyLimit {
            wait_secs: WINDOW_SECS - 5 * 60
        })
    );
    assert_eq!(history.may_issue(T0 + WINDOW_SECS), Ok(()));
}

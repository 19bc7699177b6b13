//! The host's check digits: a short authentication string derived from the SHA-256 fingerprint
//! of its certificate and the session's join code. The host shows them on the projector; a
//! trainee who joined with `HOST:PORT CODE` or the code alone sees the digits computed from the
//! certificate its own connection received and confirms they match before the fingerprint is
//! pinned. One derivation, used by both sides.
//!
//! A device in the middle must show a certificate whose digits match the host's. It cannot
//! search for one before the join code is on the projector (the code is part of the input), and
//! each certificate it tries costs one Argon2id derivation: 12 digits are 10^12 certificates to
//! try on average, at about 0.1 core-seconds each, which is thousands of CPU-core-years (the
//! README's threat model has the figures). A trainee derives once per session it meets; the
//! host once per start.

use argon2::{Algorithm, Argon2, Params, Version};

/// How many digits (three groups of four): 10^12 values.
pub const DIGITS: u32 = 12;
/// Argon2id memory in KiB (16 MiB): large enough that a graphics card's many cores wait on its
/// memory, small enough that the host stays within its 50 MB while it derives at start.
pub const MEMORY_KIB: u32 = 16 * 1024;
/// Argon2id passes over that memory: four passes over 16 MiB cost what two over 32 MiB do.
pub const PASSES: u32 = 4;
/// Separates this use of the fingerprint from any other hash of it; the join code follows.
const DOMAIN: &[u8] = b"queuelab check digits v2\0";
/// Bytes of Argon2 output read: far more than 12 digits need, so their spread is even.
const OUTPUT: usize = 16;

/// Why no digits could be derived (the only cause is memory the system would not give).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the check digits could not be computed: {0}")]
pub struct DigitsError(String);

/// The check digits of the certificate with this hex fingerprint in the session with this join
/// code, as "1234 5678 9012". Costs one Argon2id derivation (about 0.1 s): compute once, keep
/// the result.
pub fn check_digits(fingerprint_hex: &str, code: &str) -> Result<String, DigitsError> {
    let params =
        Params::new(MEMORY_KIB, PASSES, 1, Some(OUTPUT)).map_err(|e| DigitsError(e.to_string()))?;
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
    let mut salt = DOMAIN.to_vec();
    salt.extend_from_slice(code.trim().to_ascii_uppercase().as_bytes());
    let password = fingerprint_hex.trim().to_ascii_lowercase();
    let mut out = [0u8; OUTPUT];
    argon
        .hash_password_into(password.as_bytes(), &salt, &mut out)
        .map_err(|e| DigitsError(e.to_string()))?;
    let n = u128::from_be_bytes(out) % 10u128.pow(DIGITS);
    Ok(grouped(&format!("{n:012}")))
}

/// Digits in groups of four, separated by spaces.
fn grouped(digits: &str) -> String {
    digits
        .as_bytes()
        .chunks(4)
        .map(|chunk| String::from_utf8_lossy(chunk).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether typed digits are these check digits (spaces, dashes and dots between them do not
/// matter; anything else makes them different).
pub fn same_digits(typed: &str, digits: &str) -> bool {
    let keep = |s: &str| -> Option<String> {
        let mut out = String::new();
        for c in s.chars() {
            match c {
                '0'..='9' => out.push(c),
                ' ' | '-' | '.' => {}
                _ => return None,
            }
        }
        Some(out)
    };
    matches!((keep(typed), keep(digits)), (Some(a), Some(b)) if !a.is_empty() && a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FP: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    #[test]
    fn digits_are_three_groups_of_four_and_follow_fingerprint_and_code() {
        let digits = check_digits(FP, "K7Q2M9X").expect("digits");
        assert_eq!(digits.len(), 14, "{digits}");
        assert_eq!(digits.chars().filter(char::is_ascii_digit).count(), 12);
        assert_eq!(
            digits,
            check_digits(&FP.to_ascii_uppercase(), " k7q2m9x ").expect("digits"),
            "case and spaces around the inputs do not matter"
        );
        let other = FP.replace("ff", "fe");
        assert_ne!(digits, check_digits(&other, "K7Q2M9X").expect("digits"));
        assert_ne!(
            digits,
            check_digits(FP, "K7Q2M9Y").expect("digits"),
            "the same certificate in another session has other digits"
        );
    }

    #[test]
    fn typed_digits_compare_without_separators() {
        let digits = check_digits(FP, "K7Q2M9X").expect("digits");
        assert!(same_digits(&digits.replace(' ', ""), &digits));
        assert!(same_digits(&digits.replace(' ', "-"), &digits));
        assert!(!same_digits("", &digits));
        assert!(!same_digits("1234 567x", "1234 5678"));
        assert!(!same_digits("1234 5679", "1234 5678"));
    }
}

//! The host's check digits: a short authentication string derived from the SHA-256 fingerprint
//! of its certificate. The host shows them on the projector; a trainee who joined with
//! `HOST:PORT CODE` sees the digits computed from the certificate its own connection received
//! and confirms they match before the fingerprint is pinned. A machine in the middle would
//! present another certificate and so, almost always, other digits. One derivation, used by
//! both sides.

use sha2::{Digest, Sha256};

/// How many digits (two groups of four): 10^8 values, so a neighbour who wants a certificate
/// with the host's digits must make about 10^8 key pairs after seeing the projector.
const DIGITS: u32 = 8;
/// Separates this use of the fingerprint from any other hash of it.
const DOMAIN: &[u8] = b"queuelab check digits v1\0";

/// The check digits of the certificate with this hex fingerprint, as "1234 5678".
pub fn check_digits(fingerprint_hex: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(DOMAIN);
    hasher.update(fingerprint_hex.trim().to_ascii_lowercase().as_bytes());
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    let n = u64::from_be_bytes(first) % 10u64.pow(DIGITS);
    let text = format!("{n:08}");
    format!("{} {}", &text[..4], &text[4..])
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
    fn digits_are_two_groups_of_four_and_follow_the_fingerprint() {
        let digits = check_digits(FP);
        assert_eq!(digits.len(), 9, "{digits}");
        assert!(digits.chars().filter(char::is_ascii_digit).count() == 8);
        assert_eq!(digits, check_digits(&FP.to_ascii_uppercase()));
        let other = FP.replace("ff", "fe");
        assert_ne!(
            digits,
            check_digits(&other),
            "another certificate, other digits"
        );
    }

    #[test]
    fn typed_digits_compare_without_separators() {
        let digits = check_digits(FP);
        assert!(same_digits(&digits.replace(' ', ""), &digits));
        assert!(same_digits(&digits.replace(' ', "-"), &digits));
        assert!(!same_digits("", &digits));
        assert!(!same_digits("1234 567x", "1234 5678"));
        assert!(!same_digits("1234 5679", "1234 5678"));
    }
}

//! The pin check against forged certificates, and the price of grinding for check digits with
//! the real derivation.

use super::*;
use domain::workshop::check_digits;
use std::time::Instant;

fn host_identity(dir: &Path) -> Identity {
    Identity::load_or_create(&dir.join("host-identity.der")).expect("identity")
}

fn checked(cert: &CertificateDer<'_>) -> Result<(), rustls::Error> {
    self_signed(
        cert,
        provider().signature_verification_algorithms,
        UnixTime::now(),
    )
}

/// A certificate made the way an attacker who grinds for digits makes one: a fresh serial
/// number, signed with one key pair made once.
fn attacker_certificate(key: &rcgen::KeyPair, serial: u64) -> CertificateDer<'static> {
    let mut params =
        rcgen::CertificateParams::new(vec!["queuelab-host".to_owned()]).expect("params");
    params.serial_number = Some(rcgen::SerialNumber::from(serial));
    params.self_signed(key).expect("certificate").der().clone()
}

#[test]
fn the_hosts_certificate_passes_and_one_with_changed_bytes_but_no_new_signature_does_not() {
    let dir = tempfile::tempdir().expect("dir");
    let identity = host_identity(dir.path());
    checked(&identity.cert).expect("the host's own certificate is self-signed");

    // The shortcut of varying bytes without signing: the name in the subject alternative name
    // changed by one letter, the signature left as it was.
    let mut forged = identity.cert.to_vec();
    let at = forged
        .windows(b"queuelab-host".len())
        .rposition(|w| w == b"queuelab-host")
        .expect("the name in the certificate");
    forged[at + 12] = b'u';
    let forged = CertificateDer::from(forged);
    assert_ne!(fingerprint(&forged), identity.fingerprint());
    assert!(
        checked(&forged).is_err(),
        "a certificate whose signature does not cover its bytes is refused"
    );
    assert!(checked(&CertificateDer::from(vec![0x30, 0x03, 0x02, 0x01, 0x01])).is_err());
}

#[test]
fn a_pinned_or_observing_client_refuses_a_certificate_with_a_broken_self_signature() {
    let dir = tempfile::tempdir().expect("dir");
    let identity = host_identity(dir.path());
    let mut forged = identity.cert.to_vec();
    let last = forged.len() - 1;
    forged[last] ^= 1; // a bit of the signature itself
    let forged = CertificateDer::from(forged);
    let name = ServerName::try_from("queuelab-host").expect("name");
    for pin in [None, Some(fingerprint(&forged))] {
        let verifier = Pinned {
            fingerprint: pin,
            seen: Seen::default(),
            algorithms: provider().signature_verification_algorithms,
        };
        let answer = verifier.verify_server_cert(&forged, &[], &name, &[], UnixTime::now());
        assert!(
            answer.is_err(),
            "pinned or observing, a forged certificate is refused"
        );
        assert!(
            verifier.seen.lock().expect("seen").is_none(),
            "a refused certificate shows no check digits"
        );
    }
}

/// The attack as it runs: after the join code is on the projector, make valid self-signed
/// certificates one after another and derive each one's check digits, until they match the
/// host's. A bounded number of tries; what it prints is the expected cost of a whole search.
#[test]
fn grinding_for_the_hosts_check_digits_costs_a_full_derivation_per_certificate() {
    const TRIES: u64 = 12;
    const CORE_SECONDS_PER_YEAR: f64 = 365.25 * 24.0 * 3600.0;
    let dir = tempfile::tempdir().expect("dir");
    let identity = host_identity(dir.path());
    let code = "K7Q2M9X";
    let target = check_digits(&identity.fingerprint(), code).expect("host digits");

    let key = rcgen::KeyPair::generate().expect("key pair");
    let (mut signing, mut deriving, mut matched) = (0.0, 0.0, 0u64);
    for serial in 1..=TRIES {
        let started = Instant::now();
        let cert = attacker_certificate(&key, serial);
        checked(&cert).expect("the attacker's certificates are properly self-signed");
        let candidate = fingerprint(&cert);
        signing += started.elapsed().as_secs_f64();
        let started = Instant::now();
        let digits = check_digits(&candidate, code).expect("digits");
        deriving += started.elapsed().as_secs_f64();
        matched += u64::from(digits == target);
    }
    let per_try = (signing + deriving) / TRIES as f64;
    let expected_tries = 10f64.powi(domain::workshop::check_digits::DIGITS as i32);
    let core_years = per_try * expected_tries / CORE_SECONDS_PER_YEAR;
    println!(
        "grinding: {TRIES} certificates, {:.2} ms to make and check one, {:.1} ms to derive its digits; \
         {expected_tries:.0e} tries expected for a match: {core_years:.0} CPU-core-years on this machine",
        signing * 1000.0 / TRIES as f64,
        deriving * 1000.0 / TRIES as f64,
    );
    // One chance in about 10^11 of a false alarm.
    assert_eq!(matched, 0, "no certificate of {TRIES} matched {target}");
}

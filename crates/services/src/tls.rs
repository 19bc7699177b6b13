//! TLS for workshop sessions without a certificate authority: the host makes a self-signed
//! certificate once and keeps it in its data folder (a restart keeps the fingerprint that the
//! trainees pinned); the trainee accepts exactly the certificate whose SHA-256 fingerprint the
//! join URL carries, and still checks the handshake signature with it. Every certificate a
//! trainee accepts, pinned or only observed for its check digits, must carry a valid signature
//! by its own key: without that, an attacker could vary any bytes of a certificate (a serial
//! number) to search for matching check digits without signing anything.

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, ServerConfig, SignatureScheme};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// The host's certificate and key (DER).
pub struct Identity {
    /// The certificate.
    pub cert: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Lower-case hex SHA-256 of a DER certificate.
pub fn fingerprint(cert: &[u8]) -> String {
    hex(&Sha256::digest(cert))
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

impl Identity {
    /// Loads the identity from `file`, or makes a new one and saves it there (0600, written to a
    /// temporary file and renamed, so a kill never leaves half a key).
    pub fn load_or_create(file: &Path) -> Result<Identity, String> {
        let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", file.display());
        match std::fs::read(file) {
            Ok(bytes) => Identity::decode(&bytes).ok_or_else(|| {
                fail(&"not a queuelab host certificate; delete it to make a new one (trainees must join again)")
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let made = rcgen::generate_simple_self_signed(vec!["queuelab-host".to_owned()])
                    .map_err(|e| fail(&e))?;
                let identity = Identity {
                    cert: made.cert.der().clone(),
                    key: PrivatePkcs8KeyDer::from(made.signing_key.serialize_der()),
                };
                let tmp = file.with_extension("tmp");
                let mut options = std::fs::OpenOptions::new();
                options.write(true).create(true).truncate(true);
                crate::platform::private_file(&mut options);
                options
                    .open(&tmp)
                    .and_then(|mut f| {
                        f.write_all(&identity.encode())?;
                        f.sync_all()
                    })
                    .and_then(|()| std::fs::rename(&tmp, file))
                    .map_err(|e| fail(&e))?;
                Ok(identity)
            }
            Err(e) => Err(fail(&e)),
        }
    }

    /// The certificate's fingerprint (goes into the join URL).
    pub fn fingerprint(&self) -> String {
        fingerprint(&self.cert)
    }

    /// The server side of TLS with this identity.
    pub fn server_config(&self) -> Result<Arc<ServerConfig>, String> {
        let config = ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .and_then(|b| {
                b.with_no_client_auth().with_single_cert(
                    vec![self.cert.clone()],
                    PrivateKeyDer::Pkcs8(self.key.clone_key()),
                )
            })
            .map_err(|e| format!("TLS set-up failed: {e}"))?;
        Ok(Arc::new(config))
    }

    /// Length-prefixed certificate, then the key.
    fn encode(&self) -> Vec<u8> {
        let cert: &[u8] = &self.cert;
        let mut out = (cert.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(cert);
        out.extend_from_slice(self.key.secret_pkcs8_der());
        out
    }

    fn decode(bytes: &[u8]) -> Option<Identity> {
        let len = u32::from_be_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
        let cert = bytes.get(4..4 + len)?.to_vec();
        let key = bytes.get(4 + len..)?.to_vec();
        (!cert.is_empty() && !key.is_empty()).then(|| Identity {
            cert: CertificateDer::from(cert),
            key: PrivatePkcs8KeyDer::from(key),
        })
    }
}

/// A client config that trusts exactly the certificate with this fingerprint.
pub fn pinned_client_config(fingerprint: &str) -> Result<Arc<ClientConfig>, String> {
    client_config(Pinned {
        fingerprint: Some(fingerprint.to_ascii_lowercase()),
        seen: Arc::default(),
        algorithms: provider().signature_verification_algorithms,
    })
}

/// The fingerprint of the certificate a connection saw, once its handshake got that far.
pub type Seen = Arc<std::sync::Mutex<Option<String>>>;

/// A client config for learning a host's certificate before it is trusted: any certificate
/// passes (the handshake signature is still checked) and its fingerprint lands in [`Seen`].
/// Nothing may be sent over such a connection; the learner confirms the check digits of the
/// fingerprint first, and every request after that is pinned to it.
pub fn observing_client_config() -> Result<(Arc<ClientConfig>, Seen), String> {
    let seen = Seen::default();
    let config = client_config(Pinned {
        fingerprint: None,
        seen: Arc::clone(&seen),
        algorithms: provider().signature_verification_algorithms,
    })?;
    Ok((config, seen))
}

fn client_config(verifier: Pinned) -> Result<Arc<ClientConfig>, String> {
    let provider = provider();
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS set-up failed: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Checks that `cert` is signed by its own key (it is its own trust anchor) and valid at `now`.
fn self_signed(
    cert: &CertificateDer<'_>,
    algorithms: WebPkiSupportedAlgorithms,
    now: UnixTime,
) -> Result<(), rustls::Error> {
    let refused = |_: webpki::Error| {
        rustls::Error::InvalidCertificate(rustls::CertificateError::BadSignature)
    };
    let anchor = webpki::anchor_from_trusted_cert(cert).map_err(refused)?;
    let end_entity = webpki::EndEntityCert::try_from(cert).map_err(refused)?;
    end_entity
        .verify_for_usage(
            algorithms.all,
            &[anchor],
            &[],
            now,
            webpki::KeyUsage::server_auth(),
            None,
            None,
        )
        .map(|_| ())
        .map_err(refused)
}

/// Accepts the one pinned certificate (any, when observing); everything else is refused.
#[derive(Debug)]
struct Pinned {
    /// `None` observes: any certificate passes and is noted in `seen`.
    fingerprint: Option<String>,
    seen: Seen,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        // The name does not matter: the fingerprint from the join URL identifies the host.
        self_signed(end_entity, self.algorithms, now)?;
        let seen = fingerprint(end_entity);
        let matches = self.fingerprint.as_ref().is_none_or(|pin| *pin == seen);
        *self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(seen);
        if matches {
            Ok(ServerCertVerified::assertion())
        } else {
            // A certificate error (not a general one), so the caller can tell "another
            // host answered" from "nobody answered".
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::ApplicationVerificationFailure,
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests;

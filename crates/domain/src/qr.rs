//! QR codes as a plain grid of modules. Encoding is a pure function of the text, so the terminal
//! drawing, the printable exports and the LAN share all start from the same matrix.

pub mod text;

use thiserror::Error;

/// Error correction level M: survives ~15% damage (a folded or smudged print) while keeping
/// typical workshop URLs at version 2-4, small enough for a terminal.
const EC_LEVEL: qrcode::EcLevel = qrcode::EcLevel::M;

/// Why a text could not become a QR code.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum QrError {
    /// More data than the largest QR code holds.
    #[error("the URL is too long for a QR code ({len} bytes); use a shorter URL")]
    TooLong {
        /// Length of the text in bytes.
        len: usize,
    },
    /// Anything else the encoder refused.
    #[error("cannot encode {text:?} as a QR code: {reason}")]
    Encode {
        /// The text.
        text: String,
        /// The encoder's reason.
        reason: String,
    },
}

/// A square grid of QR modules without quiet zone; `true` is a dark module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrMatrix {
    width: usize,
    dark: Vec<bool>,
}

impl QrMatrix {
    /// Encodes `text` (a URL) at error correction level M.
    pub fn encode(text: &str) -> Result<QrMatrix, QrError> {
        let code = qrcode::QrCode::with_error_correction_level(text, EC_LEVEL).map_err(|e| {
            if e == qrcode::types::QrError::DataTooLong {
                QrError::TooLong { len: text.len() }
            } else {
                QrError::Encode {
                    text: text.to_owned(),
                    reason: e.to_string(),
                }
            }
        })?;
        let width = code.width();
        let dark = code
            .to_colors()
            .into_iter()
            .map(|c| c == qrcode::Color::Dark)
            .collect();
        Ok(QrMatrix { width, dark })
    }

    /// Builds a matrix from rows (tests and fixtures); `None` unless the rows form a square.
    pub fn from_rows(rows: &[Vec<bool>]) -> Option<QrMatrix> {
        let width = rows.len();
        if rows.iter().any(|r| r.len() != width) {
            return None;
        }
        Some(QrMatrix {
            width,
            dark: rows.concat(),
        })
    }

    /// Modules per side, without quiet zone.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Whether the module at column `x`, row `y` is dark; outside the code (the quiet zone) is
    /// light.
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.width && self.dark[y * self.width + x]
    }

    /// Whether the module at `(x, y)` of the code framed by a quiet zone of `quiet` modules is
    /// dark.
    pub fn is_dark_framed(&self, x: usize, y: usize, quiet: usize) -> bool {
        x >= quiet && y >= quiet && self.is_dark(x - quiet, y - quiet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_encodes_to_a_square_with_finder_patterns() {
        let m = QrMatrix::encode("https://example.org/lab").expect("short URL encodes");
        assert_eq!(m.width() % 4, 1, "QR widths are 17 + 4 * version");
        // The top-left finder pattern: a dark 7x7 ring with a light ring inside.
        assert!(m.is_dark(0, 0) && m.is_dark(6, 6) && !m.is_dark(1, 1) && m.is_dark(3, 3));
        assert!(!m.is_dark(m.width(), 0), "outside is the light quiet zone");
        assert!(!m.is_dark_framed(0, 0, 4) && m.is_dark_framed(4, 4, 4));
    }

    #[test]
    fn too_long_text_is_a_clear_error() {
        let long = format!("https://example.org/{}", "a".repeat(4000));
        let err = QrMatrix::encode(&long).expect_err("too long");
        assert!(err.to_string().contains("too long"), "{err}");
    }

    #[test]
    fn from_rows_requires_a_square() {
        assert!(QrMatrix::from_rows(&[vec![true, false]]).is_none());
        assert!(QrMatrix::from_rows(&[vec![true, false], vec![false, true]]).is_some());
    }
}

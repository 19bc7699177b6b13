//! `queuelab export map`: the quick-reference map for phone and paper — `map.html`, `card.html`,
//! `qr.svg`, `qr.png` — built from the course's reference content (one source of truth).

mod card_page;
pub mod html;
mod map_page;
pub(crate) mod qr_image;

use crate::config::{MAP_URL_RULE, is_map_url};
use content::{Course, Lang};
use domain::qr::{QrError, QrMatrix};
use std::path::{Path, PathBuf};
use thiserror::Error;

pub use qr_image::PRINT_QUIET_ZONE;

/// The files `export map` writes, in this order.
pub const MAP_FILES: [&str; 4] = ["map.html", "card.html", "qr.svg", "qr.png"];

/// Why the export failed.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The URL is not one a QR code should carry.
    #[error("--url {url:?}: {MAP_URL_RULE}, e.g. https://example.org/lab")]
    BadUrl {
        /// The URL given.
        url: String,
    },
    /// The URL cannot be encoded.
    #[error(transparent)]
    Qr(#[from] QrError),
    /// The output folder cannot be created.
    #[error("cannot create the folder {dir}: {reason}; pick another --out folder")]
    CreateDir {
        /// The folder.
        dir: String,
        /// The OS reason.
        reason: String,
    },
    /// A file cannot be written.
    #[error("cannot write {file}: {reason}; check the folder's permissions or pick another --out")]
    Write {
        /// The file.
        file: String,
        /// The OS reason.
        reason: String,
    },
    /// The PNG encoder failed.
    #[error("cannot encode qr.png: {0}")]
    Png(String),
}

/// The phone page (also served by `queuelab share`).
pub fn map_html(course: &Course, lang: Lang, url: Option<&str>) -> String {
    map_page::render(course, lang, url)
}

/// The phone page of a workshop host (its join URL, the QR code on the projector).
pub fn room_html(course: &Course, lang: Lang, join_line: &str, digits: &str) -> String {
    map_page::render_for_room(course, lang, join_line, digits)
}

/// The join page without the map, while decisions are held (see `map_page`).
pub fn room_html_before_reveal(
    course: &Course,
    lang: Lang,
    join_line: &str,
    digits: &str,
) -> String {
    map_page::render_for_room_before_reveal(course, lang, join_line, digits)
}

/// The printable card for `url`.
pub fn card_html(course: &Course, lang: Lang, url: &str, qr: &QrMatrix) -> String {
    card_page::render(course, lang, url, qr)
}

/// The QR code as a standalone SVG file.
pub fn qr_svg(qr: &QrMatrix, url: &str) -> String {
    let mut svg = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    svg.push_str(&qr_image::svg(qr, url, true));
    svg.push('\n');
    svg
}

/// The QR code as PNG bytes.
pub fn qr_png(qr: &QrMatrix) -> Result<Vec<u8>, ExportError> {
    qr_image::png(qr).map_err(|e| ExportError::Png(e.to_string()))
}

/// Writes the four map files into `dir` (created if missing) and returns their paths. Everything
/// is rendered before the first write, so a bad URL leaves no half-written folder behind.
pub fn export_map(
    dir: &Path,
    course: &Course,
    lang: Lang,
    url: &str,
) -> Result<Vec<PathBuf>, ExportError> {
    if !is_map_url(url) {
        return Err(ExportError::BadUrl {
            url: url.to_owned(),
        });
    }
    let qr = QrMatrix::encode(url)?;
    let files: [(&str, Vec<u8>); 4] = [
        (MAP_FILES[0], map_html(course, lang, Some(url)).into_bytes()),
        (MAP_FILES[1], card_html(course, lang, url, &qr).into_bytes()),
        (MAP_FILES[2], qr_svg(&qr, url).into_bytes()),
        (MAP_FILES[3], qr_png(&qr)?),
    ];
    std::fs::create_dir_all(dir).map_err(|e| ExportError::CreateDir {
        dir: dir.display().to_string(),
        reason: e.to_string(),
    })?;
    let mut written = Vec::with_capacity(files.len());
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| ExportError::Write {
            file: path.display().to_string(),
            reason: e.to_string(),
        })?;
        written.push(path);
    }
    Ok(written)
}

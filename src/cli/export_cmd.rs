//! `queuelab export map`: writes map.html, card.html, qr.svg and qr.png.

use super::{Cli, Failure};
use content::key;
use services::export;
use std::path::Path;

/// What to say when there is no URL: the QR code needs one, and guessing a LAN address that may
/// be gone by workshop day would print a card that opens nothing.
pub const NO_URL: &str = "no URL for the QR code: pass --url https://... or set map_url in the [workshop] section of the config (for a LAN address, run queuelab share)";

/// Exports the map into `out` for `url` (else the config's `map_url`).
pub fn run(cli: &Cli, out: &Path, url: Option<&str>) -> Result<(), Failure> {
    let paths = super::paths(cli)?;
    let config = super::config(&paths)?;
    let url = url
        .or(config.workshop.map_url.as_deref())
        .ok_or_else(|| Failure::usage(NO_URL))?;
    let content = super::load_content(cli)?;
    let lang = super::pick_lang(cli.globals.lang, None, config.workshop.language);
    let course = content.course(lang);
    let written = export::export_map(out, course, lang, url).map_err(|e| match e {
        export::ExportError::BadUrl { .. } => Failure::usage(e.to_string()),
        _ => Failure::new(e.to_string()),
    })?;
    let n = written.len().to_string();
    let dir = out.display().to_string();
    super::out::line(
        course
            .strings
            .fill(key::export::DONE, &[("n", &n), ("dir", &dir)]),
    )?;
    for path in written {
        super::out::line(format!("  {}", path.display()))?;
    }
    Ok(())
}

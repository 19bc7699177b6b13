//! Saves the report locally (the offline fallback SPEC 1.6 asks for), as text and HTML.

use super::MailError;
use crate::domain::report::Report;
use std::path::{Path, PathBuf};

/// Writes `report-<attempt>.txt` and `.html` into `dir`; returns the HTML file's path.
pub fn save_report(dir: &Path, attempt_id: i64, report: &Report) -> Result<PathBuf, MailError> {
    let fail = |path: &Path, e: std::io::Error| MailError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let stem = format!("report-{attempt_id}");
    let text = dir.join(format!("{stem}.txt"));
    std::fs::write(&text, report.text()).map_err(|e| fail(&text, e))?;
    let html = dir.join(format!("{stem}.html"));
    std::fs::write(&html, report.html()).map_err(|e| fail(&html, e))?;
    Ok(html)
}

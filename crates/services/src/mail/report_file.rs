//! Saves the report locally (the fallback when no mail can go out: the report is never only in a
//! mail), as text and HTML.

use super::MailError;
use crate::store::{Store, StoreError};
use content::key;
use content::{Content, Lang};
use domain::report::{self, Report, ReportInput};
use std::path::{Path, PathBuf};

/// The report of the newest finished attempt (None before the quiz is finished), with the
/// attempt's id. `learner` is the display name, already checked by `report::display_name`.
pub fn latest_report(
    store: &Store,
    content: &Content,
    lang: Lang,
    workshop: Option<&str>,
    learner: Option<&str>,
    now: i64,
) -> Result<Option<(i64, Report)>, StoreError> {
    let Some(stored) = store.latest_finished_attempt()? else {
        return Ok(None);
    };
    let progress = store.load()?;
    let lab_results = store.lab_results()?;
    let course = content.course(lang);
    let workshop = workshop.unwrap_or_else(|| course.strings.get(key::app::TITLE));
    let date = report::iso_date(now);
    let report = report::build(&ReportInput {
        course,
        scenarios: &content.scenarios,
        lang,
        workshop,
        date: &date,
        progress: &progress,
        attempt: &stored.attempt,
        learner,
        labs: &content.labs[..],
        lab_results: &lab_results,
    });
    Ok(Some((stored.attempt.id, report)))
}

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

/// Deletes the files that hold the learner's address or answers: sent and queued `.eml`
/// files and the saved reports ("clear results" keeps nothing about the learner). The key
/// file stays: it identifies no one.
pub fn clear_files(mail_dir: &Path, reports_dir: &Path) -> Result<(), MailError> {
    for dir in [mail_dir, reports_dir] {
        match std::fs::remove_dir_all(dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(MailError::File {
                    path: dir.display().to_string(),
                    reason: format!("cannot delete: {e}"),
                });
            }
        }
    }
    Ok(())
}

//! `queuelab reset`: delete all results, after a y/n question unless `--yes`.

use super::Failure;
use services::Paths;
use std::io::IsTerminal;

/// Clears the progress store.
pub fn run(paths: &Paths, yes: bool) -> Result<(), Failure> {
    let db = paths.progress_db();
    if !db.exists() {
        super::out::line(format!(
            "Nothing to delete: no progress at {}.",
            db.display()
        ))?;
        return Ok(());
    }
    if !yes {
        if !std::io::stdin().is_terminal() {
            return Err(Failure::usage(
                "refusing to delete results without a terminal to confirm; pass --yes",
            ));
        }
        super::out::prompt(
            &mut std::io::stdout().lock(),
            format!(
                "Delete all progress, answers, e-mail address and one-time-code state in {}? [y/N] ",
                paths.data_dir.display()
            ),
        )?;
        let mut answer = String::new();
        // A failed or over-long answer is not a yes.
        let _ = super::lines::read_line_bounded(&mut std::io::stdin().lock(), &mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes" | "j" | "J" | "ja") {
            super::out::line("Kept everything.")?;
            return Ok(());
        }
    }
    let mut store = super::lines::open_store(&db)?;
    store.clear().map_err(|e| Failure::new(e.to_string()))?;
    services::mail::clear_files(&paths.mail_dir(), &paths.reports_dir())
        .map_err(|e| Failure::new(e.to_string()))?;
    super::out::line(format!(
        "All results deleted from {}.",
        paths.data_dir.display()
    ))?;
    Ok(())
}

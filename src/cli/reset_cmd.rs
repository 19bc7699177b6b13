//! `queuelab reset`: delete all results, after a y/n question unless `--yes`.

use super::Failure;
use crate::services::Paths;
use std::io::{BufRead, IsTerminal, Write};

/// Clears the progress store.
pub fn run(paths: &Paths, yes: bool) -> Result<(), Failure> {
    let db = paths.progress_db();
    if !db.exists() {
        println!("Nothing to delete: no progress at {}.", db.display());
        return Ok(());
    }
    if !yes {
        if !std::io::stdin().is_terminal() {
            return Err(Failure::usage(
                "refusing to delete results without a terminal to confirm; pass --yes",
            ));
        }
        print!(
            "Delete all progress, answers, e-mail address and one-time-code state in {}? [y/N] ",
            paths.data_dir.display()
        );
        let _ = std::io::stdout().flush();
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes" | "j" | "J" | "ja") {
            println!("Kept everything.");
            return Ok(());
        }
    }
    let mut store = super::lines::open_store(&db)?;
    store.clear().map_err(|e| Failure::new(e.to_string()))?;
    crate::services::mail::clear_files(&paths.mail_dir(), &paths.reports_dir())
        .map_err(|e| Failure::new(e.to_string()))?;
    println!("All results deleted from {}.", paths.data_dir.display());
    Ok(())
}

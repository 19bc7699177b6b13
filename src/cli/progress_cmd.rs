//! `queuelab progress export|import FILE`.

use super::{Cli, Failure, ProgressAction};

/// Exports or imports the portable progress file.
pub fn run(cli: &Cli, action: &ProgressAction) -> Result<(), Failure> {
    let paths = super::paths(cli)?;
    super::lines::warn_shared(paths.ensure_data_dir().map_err(Failure::new)?);
    let mut store = super::lines::open_store(&paths.progress_db())?;
    match action {
        ProgressAction::Export { file } => {
            store
                .export(file)
                .map_err(|e| Failure::new(e.to_string()))?;
            println!("Progress written to {}.", file.display());
        }
        ProgressAction::Import { file } => {
            // The ids in the file are checked against the content this queuelab runs.
            let content = super::load_content(cli)?;
            let doc = store
                .import(file, &content)
                .map_err(|e| Failure::new(e.to_string()))?;
            let quiz = doc.quiz.as_ref().map_or_else(
                || "quiz results kept (version 1 file)".to_owned(),
                |attempts| format!("{} quiz attempt(s)", attempts.len()),
            );
            println!(
                "Progress imported from {}: {} chapters read, {} decisions, {quiz}.",
                file.display(),
                doc.progress.chapters_read.len(),
                doc.progress.decisions.len()
            );
        }
    }
    Ok(())
}

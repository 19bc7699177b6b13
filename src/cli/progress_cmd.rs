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
            super::out::line(format!("Progress written to {}.", file.display()))?;
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
            super::out::line(format!(
                "Progress imported from {}: {}, {}, {quiz}.",
                file.display(),
                counted(
                    doc.progress.chapters_read.len(),
                    "chapter read",
                    "chapters read"
                ),
                counted(doc.progress.decisions.len(), "decision", "decisions")
            ))?;
        }
    }
    Ok(())
}

/// "1 decision", "2 decisions".
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_use_the_singular_for_one() {
        assert_eq!(super::counted(1, "decision", "decisions"), "1 decision");
        assert_eq!(super::counted(0, "decision", "decisions"), "0 decisions");
    }
}

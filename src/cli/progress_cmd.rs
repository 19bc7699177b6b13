//! `queuelab progress export|import FILE`, in the language the other line commands use.

use super::lines::Session;
use super::{Cli, Failure, ProgressAction};
use content::key;

/// Exports or imports the portable progress file.
pub fn run(cli: &Cli, action: &ProgressAction) -> Result<(), Failure> {
    let mut session = Session::open(cli)?;
    let strings = &session.content.course(session.lang).strings;
    match action {
        ProgressAction::Export { file } => {
            session
                .store
                .export(file)
                .map_err(|e| Failure::new(e.to_string()))?;
            let file = file.display().to_string();
            super::out::line(strings.fill(key::progress::EXPORTED, &[("file", &file)]))?;
        }
        ProgressAction::Import { file } => {
            // The ids in the file are checked against the content this queuelab runs.
            let doc = session
                .store
                .import(file, &session.content)
                .map_err(|e| Failure::new(e.to_string()))?;
            let quiz = doc.quiz.as_ref().map_or_else(
                || strings.get(key::progress::QUIZ_KEPT).to_owned(),
                |attempts| {
                    let n = attempts.len().to_string();
                    strings.fill(key::progress::QUIZ_ATTEMPTS, &[("n", &n)])
                },
            );
            let labs = doc.labs.as_ref().map_or_else(
                || strings.get(key::progress::LABS_KEPT).to_owned(),
                |labs| {
                    let n = labs.len().to_string();
                    strings.fill(key::progress::LAB_RESULTS, &[("n", &n)])
                },
            );
            let quiz = format!("{quiz}, {labs}");
            let file = file.display().to_string();
            let chapters = doc.progress.chapters_read.len().to_string();
            let decisions = doc.progress.decisions.len().to_string();
            super::out::line(strings.fill(
                key::progress::IMPORTED,
                &[
                    ("file", &file),
                    ("chapters", &chapters),
                    ("decisions", &decisions),
                    ("quiz", &quiz),
                ],
            ))?;
        }
    }
    Ok(())
}

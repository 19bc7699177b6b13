//! `queuelab progress export|import FILE`.

use super::{Failure, ProgressAction};
use crate::services::Paths;

/// Exports or imports the portable progress file.
pub fn run(paths: &Paths, action: &ProgressAction) -> Result<(), Failure> {
    paths.ensure_data_dir().map_err(Failure::new)?;
    let mut store = super::lines::open_store(&paths.progress_db())?;
    match action {
        ProgressAction::Export { file } => {
            store
                .export(file)
                .map_err(|e| Failure::new(e.to_string()))?;
            println!("Progress written to {}.", file.display());
        }
        ProgressAction::Import { file } => {
            let progress = store
                .import(file)
                .map_err(|e| Failure::new(e.to_string()))?;
            println!(
                "Progress imported from {}: {} chapters read, {} decisions.",
                file.display(),
                progress.chapters_read.len(),
                progress.decisions.len()
            );
        }
    }
    Ok(())
}

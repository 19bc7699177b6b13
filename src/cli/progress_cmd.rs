//! `queuelab progress export|import FILE`.

use super::{Failure, ProgressAction};
use crate::services::{Paths, Store};

/// Exports or imports the portable progress file.
pub fn run(paths: &Paths, action: &ProgressAction) -> Result<(), Failure> {
    paths.ensure_data_dir().map_err(Failure::new)?;
    let (mut store, _) =
        Store::open(&paths.progress_db()).map_err(|e| Failure::new(e.to_string()))?;
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
                "Progress imported from {}: {}, {}.",
                file.display(),
                counted(
                    progress.chapters_read.len(),
                    "chapter read",
                    "chapters read"
                ),
                counted(progress.decisions.len(), "decision", "decisions")
            );
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

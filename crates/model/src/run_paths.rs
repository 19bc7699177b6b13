//! Where a run keeps its files: the three database files and the claim-check blobs.

use std::path::{Path, PathBuf};

/// File names inside a run directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunPaths {
    /// The run directory.
    pub dir: PathBuf,
    /// `service.db`.
    pub service_db: PathBuf,
    /// `broker.db`.
    pub broker_db: PathBuf,
    /// `provider.db`.
    pub provider_db: PathBuf,
    /// `blobs/`.
    pub blobs: PathBuf,
}

impl RunPaths {
    /// The paths inside `dir`.
    pub fn new(dir: &Path) -> RunPaths {
        RunPaths {
            dir: dir.to_path_buf(),
            service_db: dir.join("service.db"),
            broker_db: dir.join("broker.db"),
            provider_db: dir.join("provider.db"),
            blobs: dir.join("blobs"),
        }
    }
}

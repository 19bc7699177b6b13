//! File modes, the only part of this crate that differs by platform. On Unix (Linux, macOS,
//! WSL), the files and folders that hold personal data (addresses, answers, codes and their
//! key, the host's TLS key, mail copies) are made owner-only, 0600 for files and 0700 for
//! folders, and a data folder that others can read gets a warning. Other systems have no Unix
//! modes: there these functions leave the defaults alone and find nothing to warn about (a
//! native Windows build stops earlier, in the `content` crate, so that path is not run).

use std::fs::{DirBuilder, OpenOptions};
use std::path::Path;

/// Makes `builder` create its folders owner-only (0700).
pub(crate) fn private_folders(builder: &mut DirBuilder) {
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(builder, 0o700);
    #[cfg(not(unix))]
    let _ = builder;
}

/// Makes `options` create its file owner-only (0600). An existing file keeps its mode: see
/// [`make_private`].
pub(crate) fn private_file(options: &mut OpenOptions) {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(options, 0o600);
    #[cfg(not(unix))]
    let _ = options;
}

/// Makes the existing file at `path` owner-only (0600) if group or others may use it.
pub(crate) fn make_private(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)?.permissions().mode();
        if mode & 0o077 != 0 {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// The mode of `dir` (its permission bits) when other users may list or read it.
pub(crate) fn readable_by_others(dir: &Path) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir).ok()?.permissions().mode() & 0o777;
        // Group or others may list or read it.
        (mode & 0o055 != 0).then_some(mode)
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

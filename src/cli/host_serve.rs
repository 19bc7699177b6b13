//! Serving a workshop session until Ctrl+C or SIGTERM.

use super::host_cmd::HostArgs;
use super::{Cli, Failure};

/// Starts the host and serves until stopped.
pub fn run(_cli: &Cli, _args: &HostArgs) -> Result<(), Failure> {
    Err(Failure::new(
        "hosting needs the shared HTTP server (not merged yet)",
    ))
}

//! Entry point: parse the command line and dispatch.

use std::process::ExitCode;

fn main() -> ExitCode {
    queuelab::cli::run(&queuelab::cli::Cli::from_env())
}

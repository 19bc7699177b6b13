//! Entry point: parse the command line and dispatch.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    queuelab::cli::run(&queuelab::cli::Cli::parse())
}

//! The default command: the interactive workshop.

use super::{Cli, Failure};
use std::io::IsTerminal;

/// The message for a non-interactive start (SPEC 5: exit 2 and name the other commands).
pub const NOT_A_TERMINAL: &str = "the workshop needs an interactive terminal. Non-interactive commands: queuelab check, queuelab reset --yes, queuelab progress export|import FILE, queuelab export map --out DIR, queuelab share (see queuelab --help)";

/// Starts the TUI after checking there is a terminal to draw on.
pub fn run(cli: &Cli) -> Result<(), Failure> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(Failure::usage(NOT_A_TERMINAL));
    }
    let _ = cli;
    Err(Failure::new("TUI not wired yet"))
}

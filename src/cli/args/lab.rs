//! The arguments of `queuelab lab` (list, check, reset, path).

use clap::Subcommand;
use std::path::PathBuf;

// What `queuelab lab` does. No doc comment here: clap would take it for the command's help and
// hide the one on `Command::Lab`.
#[derive(Debug, Subcommand)]
pub enum LabAction {
    /// List the labs with their status: done, attempted or new.
    List,
    /// Check your lab file over seeds 1..K, the lab's scenarios and both brokers.
    ///
    /// Exit 0: every run kept the invariants. 1: a seed broke one (the moment, order, message
    /// id, cause and your statement are printed). 2: the file cannot run (its line and column are named).
    Check {
        /// The lab's number.
        n: u32,
        /// Check this file instead of your copy in the data folder.
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// Seeds 1..K (default: the lab's own number).
        #[arg(long, value_name = "K")]
        seeds: Option<u64>,
        /// Print the result as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Check every file the lab ships (start, solution, right/, wrong/) and print a table: file,
    /// result, first broken seed, moment, and what a wrong answer expects.
    ///
    /// Exit 0 when each file fails or passes as it should, 1 otherwise.
    Census {
        /// The lab's number.
        n: u32,
    },
    /// Restore the starting file in your copy.
    Reset {
        /// The lab's number.
        n: u32,
    },
    /// Print the path of your copy (made from the starting file on first use).
    Path {
        /// The lab's number.
        n: u32,
    },
}

//! The arguments of `queuelab host` and its subcommands (status, pace, kick, export).

use super::super::host_key::KeyArgs;
use super::super::host_serve::ServeArgs;
use clap::{Args, Subcommand};
use std::path::PathBuf;

// `queuelab host ...`. No doc comment here: clap would take it for the command's help and
// hide the one on `Command::Host`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct HostArgs {
    /// How to serve (without a subcommand).
    #[command(flatten)]
    pub serve: ServeArgs,
    /// status or export.
    #[command(subcommand)]
    pub action: Option<HostAction>,
}

// `queuelab host status|pace|kick|export`. No doc comment here, as on `HostArgs`.
#[derive(Debug, Subcommand)]
pub enum HostAction {
    /// Print a running session's summary (GET /api/summary with the instructor key).
    ///
    /// The instructor key comes from --key-file FILE or --key KEY (other users of the
    /// computer see a --key in their process list), else from the environment variable
    /// `QUEUELAB_INSTRUCTOR_KEY`.
    Status {
        /// The join URL the host printed.
        #[arg(long)]
        url: String,
        #[command(flatten)]
        key: KeyArgs,
        /// Print the JSON as the host sends it.
        #[arg(long)]
        json: bool,
    },
    /// Send a pacing command to a running session (trainees see a banner and follow with
    /// one key): chapter N, scenario N [MODE], reveal K.
    ///
    /// The instructor key comes from --key-file FILE or --key KEY (other users of the
    /// computer see a --key in their process list), else from the environment variable
    /// `QUEUELAB_INSTRUCTOR_KEY`.
    Pace {
        /// The join URL the host printed.
        #[arg(long)]
        url: String,
        #[command(flatten)]
        key: KeyArgs,
        /// What to ask the room.
        #[command(subcommand)]
        what: super::super::host_pace::PaceWhat,
    },
    /// Remove a trainee from a running session: their events leave the summary and the
    /// database, and their client is refused from now on (a fake or a duplicate trainee).
    ///
    /// The instructor key comes from --key-file FILE or --key KEY (other users of the
    /// computer see a --key in their process list), else from the environment variable
    /// `QUEUELAB_INSTRUCTOR_KEY`.
    Kick {
        /// The join URL the host printed.
        #[arg(long)]
        url: String,
        #[command(flatten)]
        key: KeyArgs,
        /// The trainee's name as `host status` shows it (any case), or their id.
        who: String,
    },
    /// Write summary.csv, summary.html and summary.json of the session in the data folder
    /// (names only, no e-mail addresses).
    Export {
        /// Folder to write into (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

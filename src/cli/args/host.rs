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
        #[arg(required_unless_present = "silent", conflicts_with = "silent")]
        who: Option<String>,
        /// Remove every trainee who never sent an event (registered, maybe polled, nothing
        /// else: a flood of fake registrations). Shows how many first and asks y/n.
        #[arg(long)]
        silent: bool,
        /// With --silent: do not ask, remove them.
        #[arg(long, requires = "silent")]
        yes: bool,
    },
    /// Close a running session to new trainees (a flood of registrations): they are refused
    /// with the reason, while every trainee already in the room, and a known trainee's client
    /// coming back, goes on. The lock survives a restart of the host.
    ///
    /// The instructor key comes from --key-file FILE or the environment variable
    /// `QUEUELAB_INSTRUCTOR_KEY`.
    Lock {
        /// The join URL the host printed.
        #[arg(long)]
        url: String,
        #[command(flatten)]
        key: KeyArgs,
    },
    /// Open a locked session to new trainees again.
    ///
    /// The instructor key comes from --key-file FILE or the environment variable
    /// `QUEUELAB_INSTRUCTOR_KEY`.
    Unlock {
        /// The join URL the host printed.
        #[arg(long)]
        url: String,
        #[command(flatten)]
        key: KeyArgs,
    },
    /// Write summary.csv, summary.html and summary.json of the session in the data folder
    /// (names only, no e-mail addresses).
    Export {
        /// Folder to write into (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

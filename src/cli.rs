//! The command line: clap definitions and dispatch to the subcommands.

mod args;
mod check_cmd;
mod decide_cmd;
mod export_cmd;
mod host_cmd;
mod host_door;
mod host_key;
mod host_pace;
mod host_serve;
mod join_cmd;
mod lab_census;
mod lab_cmd;
mod lines;
mod mail_cmd;
mod out;
mod progress_cmd;
mod quiz_cmd;
mod report_cmd;
mod report_host;
mod reset_cmd;
mod share_cmd;
mod sim_cmd;
mod tui_cmd;

pub use args::{HostAction, HostArgs, JoinArgs, LabAction};
use clap::{Args, Parser, Subcommand};
use content::{ContentSource, Lang};
use services::{Config, Paths};
pub use sim_cmd::SimArgs;
use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::process::ExitCode;

/// Interactive terminal workshop on resilient message processing: transactional outbox,
/// idempotent consumer, retries with backoff and jitter, dead-letter queues, claim-check,
/// Azure Service Bus vs Amazon SQS.
///
/// Without a subcommand, queuelab opens the workshop in the terminal.
#[derive(Debug, Default, Parser)]
#[command(name = "queuelab", version, about, long_about = None)]
pub struct Cli {
    #[command(flatten)]
    pub globals: Globals,
    /// What to do; without one, the workshop opens.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The options every command takes (before or after its name).
#[derive(Debug, Default, Args)]
pub struct Globals {
    /// Language of the workshop: de or en (default: saved choice, config, then `LANG`/`LC_ALL`).
    #[arg(long, global = true, value_parser = parse_lang)]
    pub lang: Option<Lang>,
    /// Workshop config file (default: queuelab.toml in the config directory).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Where progress, logs, mail and simulator runs live (default: the XDG data directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Load lessons/, quiz/, assets/ and labs/ from DIR instead of the embedded copy.
    #[arg(long, global = true, value_name = "DIR")]
    pub content: Option<PathBuf>,
    /// Do not capture the mouse (lets the terminal select text).
    #[arg(long, global = true)]
    pub no_mouse: bool,
    /// Draw with plain ASCII instead of box-drawing and block characters.
    #[arg(long, global = true)]
    pub ascii: bool,
    /// No animation: discrete steps and text instead of motion.
    #[arg(long, global = true)]
    pub reduced_motion: bool,
}

/// The workshop started with options only (`queuelab --lang en`): a command line with just
/// [`Globals`], no subcommand, no help or version.
#[derive(Debug, Parser)]
#[command(name = "queuelab")]
struct WorkshopStart {
    #[command(flatten)]
    globals: Globals,
}

impl Cli {
    /// This process's command line. Opening the workshop, the usual start, costs the least: without
    /// arguments nothing is parsed, and with options only they are parsed by a command that has
    /// nothing else. Building the whole command tree (every subcommand, each with a copy of the
    /// options) costs about a fifth of a millisecond of cold code and fresh memory, a noticeable
    /// share of what the first frame may cost. Anything else (a subcommand, `--help`, `--version`,
    /// a mistake) goes to the whole tree, which gives the answer or the message.
    pub fn from_env() -> Cli {
        if std::env::args_os().len() <= 1 {
            return Cli::default();
        }
        match WorkshopStart::try_parse() {
            Ok(start) => Cli {
                globals: start.globals,
                command: None,
            },
            Err(_) => Cli::parse(),
        }
    }
}

/// The non-interactive commands. Their arguments are built only for the one that runs, so
/// starting the workshop does not pay for the whole command tree.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Validate all content in every language; prints one summary line per language.
    Check,
    /// Delete all results (progress, answers, e-mail address, one-time-code state).
    Reset {
        /// Do not ask for confirmation.
        #[arg(long)]
        yes: bool,
    },
    /// Take the final quiz. With --plain: line by line on stdin/stdout (one line per question,
    /// option numbers comma-separated for multi-select); every answer is saved at once and an
    /// unfinished attempt is resumed. End of input stops cleanly.
    Quiz {
        /// Line-oriented mode for screen readers and scripts (the TUI has the full screen).
        #[arg(long)]
        plain: bool,
    },
    /// The four decisions. With --plain: each decision's situation and numbered options, one
    /// answer line each (the option number); every answer is saved at once and never
    /// overwritten. A second run continues at the first decision not answered; `decide --plain
    /// N` answers decision N. In a workshop it follows the room: right/wrong waits while the
    /// instructor holds it, and an open second vote is answered as the second vote.
    Decide {
        /// Line-oriented mode for screen readers and scripts.
        #[arg(long)]
        plain: bool,
        /// Only this decision (1-4, in the course's order).
        number: Option<usize>,
    },
    /// Host a workshop session with a live dashboard in the terminal (join URL and QR code,
    /// trainees, stuck list, answers; c/s/r pace the room, q stops). Also `host status`,
    /// `host pace` and `host export`.
    Host(HostArgs),
    /// Join a workshop session: `join CODE --name NAME` (the code from the projector; the
    /// session is found on the LAN by DNS-SD), `join HOST:PORT CODE --name NAME` where the
    /// network hides it (the host's check digits are shown to compare with the projector,
    /// y/n), or `join URL --name NAME` with the whole join URL (it carries the certificate pin,
    /// nothing to confirm). A wrong code, another host, an unreachable one or no session found
    /// is refused (exit 1).
    /// Without arguments: show the membership and deliver what waits (at most 2 s).
    Join(JoinArgs),
    /// Leave the workshop session (facts not yet delivered are tried once more, then dropped).
    Leave,
    /// Tell the workshop's instructor you are stuck, with optional words.
    Stuck {
        /// What you are stuck on.
        text: Vec<String>,
    },
    /// E-mail the report of the last finished quiz. With --plain: reads the address line, then
    /// the code line from the mail (`r` asks for a new code after the cooldown); asks for
    /// consent to an instructor copy only when the config names an instructor. The report is
    /// always saved locally too, and its path printed.
    Report {
        /// Line-oriented mode for screen readers and scripts.
        #[arg(long)]
        plain: bool,
        /// Your name as the report shows it (and the subject of the instructor's copy);
        /// at most 60 characters. Without it the report carries no name.
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
    },
    /// The mail outbox: show every mail's status, or send what is due now.
    Mail {
        /// status or retry.
        #[command(subcommand)]
        action: MailAction,
    },
    /// Run the incident simulator headless, or list its scenarios.
    Sim(SimArgs),
    /// Labs: write the SQL yourself and let the simulator prove it under faults.
    ///
    /// Your copy of each lab lives in the data folder (labs/NN-name.sql); `lab path N` prints
    /// it, `lab check N` checks it (exit 0 pass, 1 a seed broke an invariant, 2 the file
    /// cannot run), `lab reset N` restores the starting file.
    Lab {
        /// list, check, reset or path.
        #[command(subcommand)]
        action: LabAction,
    },
    /// Export or import progress as a portable JSON file.
    Progress {
        /// export or import.
        #[command(subcommand)]
        action: ProgressAction,
    },
    /// Write the quick-reference map for phone and paper.
    Export {
        /// What to export.
        #[command(subcommand)]
        what: ExportWhat,
    },
    /// Serve the phone map on the local network; prints its URL and QR code. Ctrl+C stops it.
    ///
    /// Read-only: it serves the map page at / (and /map.html) and nothing else.
    Share {
        /// Port to listen on (default: [share] port of the config, else 8737).
        #[arg(long)]
        port: Option<u16>,
        /// Address to listen on: 0.0.0.0 for the whole LAN, 127.0.0.1 for this machine only.
        #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::UNSPECIFIED))]
        bind: IpAddr,
    },
}

// `queuelab export ...`. No doc comment: clap would show it instead of the variant's.
#[derive(Debug, Subcommand)]
pub enum ExportWhat {
    /// Write map.html (phone, offline), card.html (printable A4 card), qr.svg and qr.png into DIR.
    ///
    /// The QR code opens URL, else the config's `[workshop] map_url`; without either the command
    /// stops with exit code 2 (no address is guessed: a printed card must open the right page).
    Map {
        /// Folder to write into (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// URL the QR code opens (http:// or https://).
        #[arg(long)]
        url: Option<String>,
    },
}

// `queuelab progress ...`. No doc comment: clap would show it instead of the variant's.
#[derive(Debug, Subcommand)]
pub enum ProgressAction {
    /// Write the progress to FILE (JSON, format "queuelab-progress", version 3: progress, quiz
    /// attempts and lab results).
    Export {
        /// The file to write.
        file: PathBuf,
    },
    /// Replace the progress with the one in FILE (validated first; nothing changes on error).
    Import {
        /// The file to read.
        file: PathBuf,
    },
}

// `queuelab mail ...`. No doc comment: clap would show it instead of the variant's.
#[derive(Debug, Subcommand, Clone, Copy)]
pub enum MailAction {
    /// List every mail in the outbox: queued, sent or failed (with the reason).
    Status,
    /// Send every queued mail now and put failed reports back into the queue. Exits 1 when a
    /// mail could not be sent (it stays queued).
    Retry,
}

fn parse_lang(value: &str) -> Result<Lang, String> {
    Lang::from_code(value).ok_or_else(|| format!("unknown language {value:?}; use de or en"))
}

/// Exit code for usage errors and "cannot run here"; the reason is one line on stderr.
pub const EXIT_USAGE: u8 = 2;

/// Why a command stopped before its end.
#[derive(Debug)]
pub enum Failure {
    /// Standard output was closed by its reader (`| head`, a terminal that went away): the
    /// command stops writing and ends successfully without a word, like a tool killed by
    /// SIGPIPE but without the signal (Rust ignores SIGPIPE, so the write fails instead).
    Closed,
    /// The command failed: its exit code and the one-line reason for stderr.
    Failed {
        /// Exit code (never 0).
        code: u8,
        /// The one-line reason.
        message: String,
    },
}

impl Failure {
    /// A failure with exit code 1.
    pub fn new(message: impl Into<String>) -> Self {
        Failure::Failed {
            code: 1,
            message: message.into(),
        }
    }

    /// A failure with exit code 2 (bad usage, not runnable here).
    pub fn usage(message: impl Into<String>) -> Self {
        Failure::Failed {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }
}

/// Runs the parsed command line.
pub fn run(cli: &Cli) -> ExitCode {
    let result = match &cli.command {
        Some(Command::Check) => check_cmd::run(&content_source(cli)),
        Some(Command::Reset { yes }) => paths(cli).and_then(|p| reset_cmd::run(&p, *yes)),
        Some(Command::Quiz { plain }) => quiz_cmd::run(cli, *plain),
        Some(Command::Report { plain, name }) => report_cmd::run(cli, *plain, name.as_deref()),
        Some(Command::Decide { plain, number }) => decide_cmd::run(cli, *plain, *number),
        Some(Command::Host(args)) => host_cmd::run(cli, args),
        Some(Command::Join(args)) => join_cmd::run_join(
            cli,
            args.target().as_deref(),
            args.name.as_deref(),
            args.check_digits.as_deref(),
        ),
        Some(Command::Leave) => join_cmd::run_leave(cli),
        Some(Command::Stuck { text }) => join_cmd::run_stuck(cli, text),
        Some(Command::Mail { action }) => mail_cmd::run(cli, *action),
        Some(Command::Progress { action }) => progress_cmd::run(cli, action),
        Some(Command::Export {
            what: ExportWhat::Map { out, url },
        }) => export_cmd::run(cli, out, url.as_deref()),
        Some(Command::Share { port, bind }) => share_cmd::run(cli, *bind, *port),
        Some(Command::Sim(args)) => sim_cmd::run(cli, args),
        Some(Command::Lab { action }) => lab_cmd::run(cli, action),
        None => tui_cmd::run(cli),
    };
    match result {
        // Nobody is left to read a word when standard output closed.
        Ok(()) | Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Failed { code, message }) => {
            // Not eprintln!: after a hang-up stderr is a closed terminal, and eprintln! panics
            // on the write error ("failed printing to stderr"), which the log would then
            // report as a crash.
            let _ = writeln!(std::io::stderr(), "queuelab: {message}");
            ExitCode::from(code)
        }
    }
}

/// The content source the flags select.
pub fn content_source(cli: &Cli) -> ContentSource {
    cli.globals
        .content
        .clone()
        .map_or(ContentSource::Embedded, ContentSource::Disk)
}

/// The validated content the flags select; problems point at `queuelab check`.
pub fn load_content(cli: &Cli) -> Result<content::Content, Failure> {
    let source = content_source(cli);
    content::load(&source).map_err(|problems| {
        Failure::new(format!(
            "{} content problem(s) in {}; run queuelab check for details",
            problems.len(),
            source.describe()
        ))
    })
}

/// Resolved paths from the flags.
pub fn paths(cli: &Cli) -> Result<Paths, Failure> {
    Paths::resolve(
        cli.globals.data_dir.as_deref(),
        cli.globals.config.as_deref(),
    )
    .map_err(Failure::new)
}

/// The workshop config the flags select (defaults when there is none).
pub fn config(paths: &Paths) -> Result<Config, Failure> {
    match &paths.config_file {
        Some(file) => Config::load(file).map_err(|e| Failure::new(e.to_string())),
        None => Ok(Config::default()),
    }
}

/// The language: `--lang`, else the saved choice, else the config, else the locale, else English.
pub fn pick_lang(flag: Option<Lang>, saved: Option<Lang>, config: Option<Lang>) -> Lang {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|var| std::env::var(var).ok())
        .find(|value| !value.is_empty());
    flag.or(saved)
        .or(config)
        .or_else(|| locale.as_deref().and_then(Lang::from_locale))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;

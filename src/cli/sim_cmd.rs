//! `queuelab sim`: list the scenarios or run one headless.

use content::key;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Cli, Failure};
use content::{self, Lang};
use sim::moments::{self, Moment, Story};
use sim::scenario::{self, MAX_MESSAGES, ScenarioError};
use sim::{BrokerKind, Mode, RunConfig, SimError, Simulation, checker, history};

// Arguments of `queuelab sim`. No doc comment: clap would show it instead of the help on
// `Command::Sim`.
#[allow(clippy::struct_excessive_bools)] // independent command-line switches
#[derive(Debug, clap::Args)]
pub struct SimArgs {
    /// List the scenario ids with one-line descriptions.
    #[arg(long)]
    pub list: bool,
    /// Run this scenario headless (see --list for the ids).
    #[arg(long, value_name = "ID")]
    pub scenario: Option<String>,
    /// safe (unique inbox index, one transaction), naive (check-then-insert) or pitfall (the
    /// scenario's named mistake).
    #[arg(long, value_name = "MODE", default_value = "safe")]
    pub mode: String,
    /// Broker profile: asb (Azure Service Bus) or sqs (Amazon SQS).
    #[arg(long, value_name = "BROKER", default_value = "asb")]
    pub broker: String,
    /// Seed of the run: the same seed gives the same trace, byte for byte.
    #[arg(
        long,
        value_name = "N",
        default_value = "1",
        allow_hyphen_values = true
    )]
    pub seed: String,
    /// Number of orders (scales backlog and chaos; other scenarios have a fixed size).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub messages: Option<String>,
    /// Run directory for service.db, broker.db, provider.db and blobs/ (default: a new folder
    /// under the data directory's sim-runs/). Must not already hold a run.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print one JSON object with the metrics, the invariant verdict, the trace hash, the paths
    /// and the moments (kind, time, event, cause event, order, message id, text).
    #[arg(long)]
    pub json: bool,
    /// Print every event's caption as a plain line, and each moment's explanation as its own
    /// line after the event that made it visible (before the JSON object when both are given).
    #[arg(long)]
    pub transcript: bool,
    /// Write the run's operation history to FILE as JSON Lines in the Jepsen style (process,
    /// type invoke/ok/fail/info, f, value, `time_ms`, event). The file must not exist yet.
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// After the run, let the independent checker recompute the verdict from the three
    /// database files and the history, and print it beside the engine's.
    #[arg(long)]
    pub check: bool,
}

/// Runs `queuelab sim`.
pub fn run(cli: &Cli, args: &SimArgs) -> Result<(), Failure> {
    let lang = super::pick_lang(cli.globals.lang, None, None);
    let content = content::load(&super::content_source(cli)).map_err(|problems| {
        Failure::new(format!(
            "content has {} problem(s); run `queuelab check` (first: {})",
            problems.len(),
            problems
                .first()
                .map(ToString::to_string)
                .unwrap_or_default()
        ))
    })?;
    if args.list {
        return list(&content, lang, args.scenario.as_deref());
    }
    let Some(id) = args.scenario.as_deref() else {
        return Err(Failure::usage(
            "sim needs --scenario ID or --list (see `queuelab sim --help`)",
        ));
    };
    let scenario = scenario::from_loaded(&content, id).map_err(|e| match e {
        ScenarioError::Unknown(_) => {
            let known: Vec<&str> = content.scenarios.iter().map(|s| s.id.as_str()).collect();
            Failure::usage(format!("{e}; known: {}", known.join(", ")))
        }
        ScenarioError::Invalid(_) => Failure::new(e.to_string()),
    })?;
    let mode = Mode::parse(&args.mode).ok_or_else(|| {
        Failure::usage(format!(
            "unknown --mode {:?}; use safe, naive or pitfall",
            args.mode
        ))
    })?;
    let broker = BrokerKind::parse(&args.broker).ok_or_else(|| {
        Failure::usage(format!(
            "unknown --broker {:?}; use asb or sqs",
            args.broker
        ))
    })?;
    let seed: u64 = args.seed.parse().map_err(|_| {
        Failure::usage(format!(
            "--seed {:?} is not a number (0..=18446744073709551615)",
            args.seed
        ))
    })?;
    let messages = match args.messages.as_deref() {
        None => None,
        Some(text) => Some(parse_messages(text)?),
    };
    if let Some(file) = args.history.as_deref().filter(|f| f.exists()) {
        return Err(Failure::usage(format!(
            "--history {} already exists; choose a new file",
            file.display()
        )));
    }
    let (dir, created) = run_dir(cli, args, id, mode, broker, seed)?;
    let config = RunConfig {
        scenario,
        mode,
        broker,
        seed,
        messages,
        dir: dir.clone(),
    };
    match execute(config, args, lang, &content) {
        Ok(()) => Ok(()),
        Err(e) => Err(cleanup(&dir, created, &e)),
    }
}

/// The scenario ids with their one-line descriptions; with `only`, that scenario's line alone.
fn list(content: &content::Content, lang: Lang, only: Option<&str>) -> Result<(), Failure> {
    let shown: Vec<&content::scenario::Scenario> = content
        .scenarios
        .iter()
        .filter(|s| only.is_none_or(|id| s.id == id))
        .collect();
    if let (Some(id), true) = (only, shown.is_empty()) {
        let known: Vec<&str> = content.scenarios.iter().map(|s| s.id.as_str()).collect();
        return Err(Failure::usage(format!(
            "unknown scenario {id:?}; known: {}",
            known.join(", ")
        )));
    }
    let width = shown.iter().map(|s| s.id.len()).max().unwrap_or(0);
    let mut out = std::io::stdout().lock();
    for s in shown {
        let id = &s.id;
        let summary = s.text(lang).map_or("", |t| t.summary.as_str());
        super::out::to(&mut out, format_args!("{id:width$}  {summary}"))?;
    }
    Ok(())
}

/// `--messages N`: a whole number from 1 to [`MAX_MESSAGES`]. A number too large for any
/// count is out of range like any other, not "not a number".
fn parse_messages(text: &str) -> Result<u32, Failure> {
    let too_many = || {
        Failure::usage(format!(
            "--messages {text} is out of range (at most {MAX_MESSAGES})"
        ))
    };
    match text.parse::<u32>() {
        Ok(0) => Err(Failure::usage("--messages must be at least 1")),
        Ok(n) if n > MAX_MESSAGES => Err(too_many()),
        Ok(n) => Ok(n),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(too_many()),
        Err(_) => Err(Failure::usage(format!(
            "--messages {text:?} is not a whole number (1 to {MAX_MESSAGES})"
        ))),
    }
}

/// The run directory: `--out DIR`, or a fresh numbered folder under the data directory.
/// Returns whether this command created it (then a failed run removes it again).
fn run_dir(
    cli: &Cli,
    args: &SimArgs,
    id: &str,
    mode: Mode,
    broker: BrokerKind,
    seed: u64,
) -> Result<(PathBuf, bool), Failure> {
    if let Some(out) = &args.out {
        if let Some(file) = sim::store::existing_run_file(out) {
            return Err(Failure::usage(format!(
                "--out {} already holds a run file ({file}); choose an empty directory",
                out.display()
            )));
        }
        let existed = out.exists();
        fs::create_dir_all(out)
            .map_err(|e| Failure::usage(format!("--out {}: cannot create: {e}", out.display())))?;
        let probe = out.join(".queuelab-write-test");
        fs::write(&probe, b"").map_err(|e| {
            if !existed {
                let _ = fs::remove_dir(out);
            }
            Failure::usage(format!("--out {}: not writable: {e}", out.display()))
        })?;
        let _ = fs::remove_file(&probe);
        return Ok((out.clone(), !existed));
    }
    let paths = super::paths(cli)?;
    // Simulator runs hold no personal data: a shared data folder needs no warning here.
    let _shared = paths.ensure_data_dir().map_err(Failure::usage)?;
    let base = paths.data_dir.join("sim-runs");
    let stem = format!("{id}-{}-{}-seed{seed}", mode.as_str(), broker.as_str());
    for n in 1..10_000 {
        let dir = base.join(format!("{stem}-{n}"));
        if !dir.exists() {
            return Ok((dir, true));
        }
    }
    Err(Failure::usage(format!(
        "too many runs in {}; clear it or use --out",
        base.display()
    )))
}

/// Runs the simulation to its end, then writes the report as JSON or as a text summary.
fn execute(
    config: RunConfig,
    args: &SimArgs,
    lang: Lang,
    content: &content::Content,
) -> Result<(), SimError> {
    let mut sim = Simulation::new(config)?;
    // Stays only when the run never reaches its end (a signal, a crash): the folder says so.
    let unfinished = sim::store::IncompleteMark::set(&sim.paths().dir)?;
    let ordered = sim.scenario().setup.groups > 0;
    let mut story = Story::for_run(&sim);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // The history streams: each line goes to the file as it happens, and the checker keeps
    // only its per-message counts, so a run of any size needs no more memory for them.
    let mut record = match &args.history {
        Some(file) => Some(HistoryFile::create(file)?),
        None => None,
    };
    let mut digest = args.check.then(history::HistoryDigest::default);
    let mut watch = Watch {
        story: &mut story,
        record: &mut record,
        digest: &mut digest,
        out: &mut out,
    };
    run_to_end(&mut sim, &mut watch, args, lang, content)?;
    let late = story.finish();
    if args.transcript {
        print_moments(&mut out, &late, &content.moments, lang);
    }
    let moments = story.into_moments();
    let report = sim.report()?;
    unfinished.clear()?;
    if let Some(r) = record {
        r.finish()?;
    }
    let checked = match &digest {
        Some(d) => Some(checker::check(&report.paths, Some(d), ordered).map_err(SimError::Check)?),
        None => None,
    };
    if args.json {
        print_json(&mut out, &report, checked.as_ref(), &moments, content);
    } else {
        print_summary(
            &mut out,
            &report,
            checked.as_ref(),
            &content.course(lang).strings,
        );
    }
    let _ = out.flush();
    Ok(())
}

/// What follows each step of a run: the story of its moments, the history file, the
/// checker's digest and the transcript's output.
struct Watch<'a, W: Write> {
    story: &'a mut Story,
    record: &'a mut Option<HistoryFile>,
    digest: &'a mut Option<history::HistoryDigest>,
    out: &'a mut W,
}

/// Steps the simulation to its end; each event goes to the history file and the checker's
/// digest when they are kept, and with `--transcript` to the output with its moments.
fn run_to_end<W: Write>(
    sim: &mut Simulation,
    watch: &mut Watch<'_, W>,
    args: &SimArgs,
    lang: Lang,
    content: &content::Content,
) -> Result<(), SimError> {
    while sim.step()?.is_some() {
        let Some((e, facts)) = sim.last_step() else {
            break;
        };
        let seen = watch.story.observe(e, facts);
        if watch.record.is_some() || watch.digest.is_some() {
            for op in history::operations(e) {
                if let Some(r) = watch.record.as_mut() {
                    r.write(&op)?;
                }
                if let Some(d) = watch.digest.as_mut() {
                    d.observe(&op);
                }
            }
        }
        if args.transcript {
            let text = moments::caption(&content.captions, lang, e);
            let msg = e
                .message_id
                .as_deref()
                .map(|m| format!(" {m}"))
                .unwrap_or_default();
            // A closed stdout (e.g. `| head`) must not abort the run.
            let _ = writeln!(watch.out, "[{:>9} ms] {}{msg}: {text}", e.at_ms, e.actor);
            print_moments(watch.out, seen, &content.moments, lang);
        }
    }
    Ok(())
}

/// Writes the report as JSON (`--json`), with the checker's verdict when it ran and the
/// run's moments.
fn print_json(
    out: &mut impl Write,
    report: &sim::RunReport,
    checked: Option<&checker::Verdict>,
    moments: &[Moment],
    content: &content::Content,
) {
    let mut value = report.to_json();
    if let (Some(c), Some(map)) = (checked, value.as_object_mut()) {
        map.insert("checker_ok".into(), c.ok().into());
        map.insert("checker_violations".into(), c.violations.clone().into());
    }
    value["moments"] = moments
        .iter()
        .map(|m| m.to_json(&content.moments))
        .collect();
    let json = serde_json::to_string_pretty(&value).unwrap_or_default();
    let _ = writeln!(out, "{json}");
}

/// Writes the text summary: the counts and the engine's verdict with its violations, the
/// event count and trace, the run's folder and, when it ran, whether the checker agrees.
fn print_summary(
    out: &mut impl Write,
    report: &sim::RunReport,
    checked: Option<&checker::Verdict>,
    strings: &content::Strings,
) {
    let m = &report.metrics;
    let verdict = strings.get(if report.invariants.ok() {
        key::sim::CLI_OK
    } else {
        key::sim::CLI_BROKEN
    });
    let n = |v: u64| v.to_string();
    let line = strings.fill(
        key::sim::CLI_SUMMARY,
        &[
            ("scenario", &report.scenario),
            ("mode", report.mode.as_str()),
            ("broker", report.broker.as_str()),
            ("seed", &report.seed.to_string()),
            ("accepted", &n(m.accepted)),
            ("effects", &n(m.effects)),
            ("duplicates", &n(m.duplicate_effects)),
            ("prevented", &n(m.prevented_duplicates)),
            ("dead", &n(m.dead_lettered)),
            ("lost", &n(m.lost)),
            ("verdict", verdict),
        ],
    );
    let _ = writeln!(out, "{line}");
    for v in &report.invariants.violations {
        let _ = writeln!(out, "  {v}");
    }
    let events = strings.fill(
        key::sim::CLI_EVENTS,
        &[
            ("n", &report.events.to_string()),
            ("trace", &report.trace_hash),
        ],
    );
    let _ = writeln!(out, "{events}");
    let dir = report.paths.dir.display().to_string();
    let _ = writeln!(
        out,
        "{}",
        strings.fill(key::sim::CLI_FILES, &[("dir", &dir)])
    );
    if let Some(c) = checked {
        let agree = if c.ok() == report.invariants.ok() {
            "agrees with the engine"
        } else {
            "DISAGREES with the engine"
        };
        let verdict = if c.ok() { "ok" } else { "BROKEN" };
        let _ = writeln!(out, "checker: {verdict} ({agree})");
        for v in &c.violations {
            let _ = writeln!(out, "  {v}");
        }
    }
}

/// Prints each moment's explanation as its own transcript line (after the event that made it
/// visible).
fn print_moments(out: &mut impl Write, seen: &[Moment], texts: &content::Captions, lang: Lang) {
    for m in seen {
        let text = moments::render(texts, lang, m);
        let _ = writeln!(out, "[{:>9} ms] >> {}: {text}", m.at_ms, m.kind.as_str());
    }
}

/// The history file, written line by line as JSON Lines; an existing file is never
/// overwritten.
struct HistoryFile {
    file: PathBuf,
    out: std::io::BufWriter<fs::File>,
}

impl HistoryFile {
    fn create(file: &Path) -> Result<HistoryFile, SimError> {
        let handle = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(file)
            .map_err(|e| history_error(file, &e))?;
        Ok(HistoryFile {
            file: file.to_path_buf(),
            out: std::io::BufWriter::new(handle),
        })
    }

    fn write(&mut self, op: &history::Operation) -> Result<(), SimError> {
        serde_json::to_writer(&mut self.out, op).map_err(|e| SimError::Config(e.to_string()))?;
        writeln!(self.out).map_err(|e| history_error(&self.file, &e))
    }

    fn finish(mut self) -> Result<(), SimError> {
        self.out.flush().map_err(|e| history_error(&self.file, &e))
    }
}

fn history_error(file: &Path, e: &std::io::Error) -> SimError {
    SimError::Config(format!("--history {}: {e}", file.display()))
}

/// Turns an engine error into the one-line failure, removing a run directory this command
/// created (and saying so) so that nothing half-written stays behind silently.
fn cleanup(dir: &Path, created: bool, e: &SimError) -> Failure {
    let code_usage = matches!(
        e,
        SimError::Store(_) | SimError::Config(_) | SimError::Scenario(_)
    );
    let note = if created && fs::remove_dir_all(dir).is_ok() {
        format!(" (removed the incomplete run directory {})", dir.display())
    } else if dir.join("service.db").exists() {
        format!(" (incomplete run left in {})", dir.display())
    } else {
        String::new()
    };
    let message = format!("{e}{note}").replace('\n', "; ");
    if code_usage {
        Failure::usage(message)
    } else {
        Failure::new(message)
    }
}

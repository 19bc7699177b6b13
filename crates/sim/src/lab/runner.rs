//! A lab check: the learner's file over seeds 1..K × the lab's scenarios × brokers, each run
//! with seed-drawn timings, stopping at the first run that breaks an invariant. The engine's
//! verdict is recomputed by the independent checker from the files; a disagreement is reported
//! as the check's own failure, never the learner's.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::probe::{Coverage, Probe, Reached, targets};
use super::rerun::lab_simulation;
use super::{Breach, LabSql, TrailEntry};
use crate::moments::{Moment, MomentKind, Story};
use crate::{BrokerKind, Scenario, SimError, checker};

/// What to check.
#[derive(Debug, Clone)]
pub struct CheckRequest<'a> {
    /// The learner's prepared file.
    pub sql: Arc<LabSql>,
    /// The scenarios (from the loaded content).
    pub scenarios: Vec<Scenario>,
    /// The broker profiles.
    pub brokers: Vec<BrokerKind>,
    /// The seeds: `seeds.0..=seeds.1` (a check runs 1..=K).
    pub seeds: (u64, u64),
    /// The lab's effect is a charge: every order that took effect must be charged
    /// (`charge-missing`).
    pub charged: bool,
    /// The handler decides about messages the consumer cannot read (else the engine
    /// dead-letters them itself).
    pub poison: bool,
    /// An empty folder for the runs' files; a passing run's files are removed at once, the
    /// failing run's stay for a look with `sqlite3` or the simulator.
    pub work_dir: &'a Path,
}

/// The first run that broke an invariant.
#[derive(Debug, Clone)]
pub struct Failure {
    /// Scenario id.
    pub scenario: String,
    /// Broker profile.
    pub broker: BrokerKind,
    /// Seed.
    pub seed: u64,
    /// The first moment that changed an order's outcome for the worse, with its cause; none
    /// when a lab invariant broken before it explains it
    /// ([`causes_later_harm`](content::LabInvariant::causes_later_harm)).
    pub moment: Option<Moment>,
    /// The invariant violations of the engine's check, then the lab invariants the handler
    /// broke (by name, [`Breach::summary`]).
    pub violations: Vec<String>,
    /// The first lab invariant the handler broke (a poison message retried, …), or the one
    /// that explains the harm when there is one.
    pub breach: Option<Breach>,
    /// The learner's statement that wrote the effect the moment is about (or made the
    /// decision the breach is about).
    pub statement: Option<TrailEntry>,
    /// Whether the independent checker found the same verdict.
    pub checker_agrees: bool,
    /// The statement-level fault the run was aimed at, when a targeted run broke the file.
    pub struck: Option<Struck>,
    /// The run's files.
    pub dir: PathBuf,
}

/// A targeted run's fault, at the learner's statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Struck {
    /// The fault (a crash after a durable point, a competitor in a gap).
    pub probe: Probe,
    /// The line of the statement the fault came right after.
    pub line: usize,
    /// Its column.
    pub column: usize,
}

/// The result of a check.
#[derive(Debug, Clone)]
pub enum CheckOutcome {
    /// Every run kept the invariants.
    Passed {
        /// Runs made over the seeds (the targeted runs are counted in `coverage`).
        runs: u64,
        /// The targeted runs: every durable point crashed at, every gap given a competitor.
        coverage: Coverage,
    },
    /// A run broke an invariant (or the checkers disagreed).
    Broken(Box<Failure>),
    /// The file cannot run.
    CannotRun(super::LabFileError),
}

/// The moments that make a run fail.
fn is_harm(kind: MomentKind) -> bool {
    matches!(
        kind,
        MomentKind::DuplicateEffect | MomentKind::LostOrder | MomentKind::OutOfOrder
    )
}

/// Where a check stands, told before each run starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckProgress {
    /// The seed of the run about to start.
    pub seed: u64,
    /// The last seed of the check.
    pub last_seed: u64,
    /// Runs finished so far.
    pub runs_done: u64,
    /// Runs the whole check makes when every run passes.
    pub runs_total: u64,
}

/// Runs the check.
pub fn run_check(request: &CheckRequest<'_>) -> Result<CheckOutcome, SimError> {
    run_check_observed(request, &mut |_| {})
}

/// Runs the check, telling `progress` before each run (the TUI shows "checking seed k/n").
pub fn run_check_observed(
    request: &CheckRequest<'_>,
    progress: &mut dyn FnMut(CheckProgress),
) -> Result<CheckOutcome, SimError> {
    let per_seed = (request.scenarios.len() * request.brokers.len()) as u64;
    let seed_count = request.seeds.1.saturating_sub(request.seeds.0) + 1;
    let mut runs = 0;
    let mut coverage = Coverage::default();
    for seed in request.seeds.0..=request.seeds.1 {
        for scenario in &request.scenarios {
            for &broker in &request.brokers {
                progress(CheckProgress {
                    seed,
                    last_seed: request.seeds.1,
                    runs_done: runs,
                    runs_total: per_seed * seed_count,
                });
                runs += 1;
                let run = Run {
                    scenario,
                    broker,
                    seed,
                };
                let reached = match run_in(request, &run, Probe::Discover, "")? {
                    Ok(pass) => pass.reached,
                    Err(outcome) => return Ok(outcome),
                };
                // The first seed's run of each scenario × broker finds the points and gaps;
                // one run per point and per gap covers them, whatever the later seeds draw.
                if seed != request.seeds.0 {
                    continue;
                }
                for (n, probe) in targets(&reached).into_iter().enumerate() {
                    match run_in(request, &run, probe, &format!("-probe{n}"))? {
                        Ok(pass) => coverage.count(probe, pass.landed),
                        Err(outcome) => return Ok(outcome),
                    }
                }
            }
        }
    }
    Ok(CheckOutcome::Passed { runs, coverage })
}

/// One scenario × broker × seed.
struct Run<'a> {
    scenario: &'a Scenario,
    broker: BrokerKind,
    seed: u64,
}

/// What a run that kept the invariants tells the check.
struct Pass {
    reached: Reached,
    landed: bool,
}

/// Runs `run` with `probe` in a folder of its own (removed when it passes).
fn run_in(
    request: &CheckRequest<'_>,
    run: &Run<'_>,
    probe: Probe,
    suffix: &str,
) -> Result<Result<Pass, CheckOutcome>, SimError> {
    let dir = request.work_dir.join(format!(
        "{}-{}-{}{suffix}",
        run.scenario.id,
        run.broker.as_str(),
        run.seed
    ));
    let result = run_one(request, run.scenario, run.broker, run.seed, &dir, probe)?;
    if result.is_ok() {
        // Best effort: a leftover folder only costs disk in a temporary place.
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(result)
}

fn run_one(
    request: &CheckRequest<'_>,
    scenario: &Scenario,
    broker: BrokerKind,
    seed: u64,
    dir: &Path,
    probe: Probe,
) -> Result<Result<Pass, CheckOutcome>, SimError> {
    let sql = Arc::clone(&request.sql);
    let mut sim = match lab_simulation(
        sql,
        scenario,
        broker,
        seed,
        (request.poison, request.charged),
        dir.to_path_buf(),
    ) {
        Ok(sim) => sim,
        Err(SimError::Lab(e)) => return Ok(Err(CheckOutcome::CannotRun(e))),
        Err(e) => return Err(e),
    };
    sim.lab_set_probe(probe);
    let ordered = sim.scenario().setup.groups > 0;
    let mut story = Story::for_run(&sim);
    loop {
        match sim.step() {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(SimError::Lab(e)) => return Ok(Err(CheckOutcome::CannotRun(e))),
            Err(e) => return Err(e),
        }
        if let Some((event, facts)) = sim.last_step() {
            story.observe(event, facts);
        }
    }
    story.finish();
    if request.charged {
        sim.lab_check_charges()?;
    }
    sim.lab_check_outbox()?;
    let report = sim.report()?;
    let verdict = checker::check(&report.paths, None, ordered).map_err(SimError::Check)?;
    let engine_ok = report.invariants.ok();
    let breaches = sim.lab_breaches();
    if engine_ok && verdict.ok() && breaches.is_empty() {
        let state = sim.lab_probe().cloned().unwrap_or_default();
        return Ok(Ok(Pass {
            reached: state.reached().clone(),
            landed: state.landed(),
        }));
    }
    let struck = struck_at(&request.sql, probe);
    let harm = story.moments().iter().find(|m| is_harm(m.kind));
    let cause = breaches.iter().find(|b| b.invariant.causes_later_harm());
    let (moment, breach) = match (harm, cause) {
        // The breach came first and explains the harm: the learner sees the cause, not the
        // consequence (the engine's violations still list the harm).
        (Some(m), Some(b)) if b.statement.at_ms <= m.at_ms => (None, Some(b.clone())),
        (harm, _) => (harm.cloned(), breaches.first().cloned()),
    };
    // A second charge is the harm when there is one; else the last effect written.
    let statement = match (&moment, &breach) {
        (Some(m), _) => sim.lab_trail().and_then(|t| {
            t.second_charge(&m.message_id)
                .or_else(|| t.for_message(&m.message_id).last())
                .cloned()
        }),
        (None, Some(b)) => Some(b.statement.clone()),
        (None, None) => None,
    };
    let mut violations = report.invariants.violations.clone();
    violations.extend(breaches.iter().map(Breach::summary));
    Ok(Err(CheckOutcome::Broken(Box::new(Failure {
        scenario: scenario.id.clone(),
        broker,
        seed,
        moment,
        violations,
        breach,
        statement,
        checker_agrees: engine_ok == verdict.ok(),
        struck,
        dir: dir.to_path_buf(),
    }))))
}

/// The learner's statement a targeted probe strikes after.
fn struck_at(sql: &LabSql, probe: Probe) -> Option<Struck> {
    let site = match probe {
        Probe::Discover => return None,
        Probe::Crash { site, .. } | Probe::Compete { site } => site,
    };
    let stmt = sql.statements(site.section).get(site.index)?;
    Some(Struck {
        probe,
        line: stmt.line,
        column: stmt.column,
    })
}

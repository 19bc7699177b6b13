//! One headless simulator run for the engine's tests: a scenario (by id or edited), a mode, a
//! broker and a seed in a fresh temporary directory, stepped to its end. The tests that
//! check what the engine does share this set-up instead of writing it again.

use std::path::Path;

use queuelab_sim::scenario::{self, Scenario, ScriptAction, ScriptStep};
use queuelab_sim::{BrokerKind, Event, Fault, Mode, RunConfig, RunReport, Simulation};

/// A shipped scenario by id.
pub fn named(id: &str) -> Scenario {
    scenario::find(id).expect("scenario")
}

/// A script step that arms `fault` once at `at_ms`.
pub fn fault_at(at_ms: u64, fault: Fault) -> ScriptStep {
    ScriptStep {
        at_ms,
        action: ScriptAction::Fault(fault),
        count: 1,
        duration_ms: None,
    }
}

/// A temporary directory, RAM-backed when the machine has one (the seeds matrices are file
/// system bound).
pub fn temp_dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    }
    .expect("tempdir")
}

/// A new run of `scenario` with its files under `dir`.
pub fn start_in(
    dir: &Path,
    scenario: Scenario,
    mode: Mode,
    broker: BrokerKind,
    seed: u64,
) -> Simulation {
    Simulation::new(RunConfig {
        scenario,
        mode,
        broker,
        seed,
        messages: None,
        dir: dir.join("run"),
    })
    .expect("new run")
}

/// A new run of `scenario` in its own temporary directory (kept alive by the caller).
pub fn start(
    scenario: Scenario,
    mode: Mode,
    broker: BrokerKind,
    seed: u64,
) -> (Simulation, tempfile::TempDir) {
    let dir = temp_dir();
    let sim = start_in(dir.path(), scenario, mode, broker, seed);
    (sim, dir)
}

/// Steps `sim` to its end and returns every event.
pub fn events_to_end(sim: &mut Simulation) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(e) = sim.step().expect("step") {
        events.push(e.clone());
    }
    events
}

/// Runs `scenario` to the end; returns every event and the report.
pub fn run(
    scenario: Scenario,
    mode: Mode,
    broker: BrokerKind,
    seed: u64,
) -> (Vec<Event>, RunReport) {
    let (mut sim, _dir) = start(scenario, mode, broker, seed);
    let events = events_to_end(&mut sim);
    let report = sim.report().expect("report");
    (events, report)
}

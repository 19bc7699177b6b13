//! The simulator engine on its own thread. The pure core sends [`SimCommand`]s; the engine's
//! pictures come back as [`Msg::Sim`]. [`SimDriver`] is the same logic without the thread, so
//! tests (and the benchmark) can drive the screen exactly as the runtime does.

mod run;

use app::Msg;
use app::simulator::{RunSpec, SimCommand, SimReply};
use content::Content;
use run::{EVENTS_PER_REPLY, Run, Stepped};
use services::log;
use sim::{Mode, RunConfig, SimError, Simulation};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::mpsc::UnboundedSender;

/// Runs commands against one simulation at a time, synchronously.
pub struct SimDriver {
    base: PathBuf,
    /// The loaded content (honours `--content DIR`): runs are built from its scenarios.
    content: Arc<Content>,
    current: Option<Run>,
    created: u64,
    stamped: bool,
    /// Events of each settings' fault-free run, measured once (pacing).
    expected: HashMap<RunSpec, u64>,
}

impl SimDriver {
    /// A driver that creates run directories under `base` and builds runs from `content`.
    pub fn new(base: &Path, content: Arc<Content>) -> SimDriver {
        SimDriver {
            base: base.to_path_buf(),
            content,
            current: None,
            created: 0,
            stamped: true,
            expected: HashMap::new(),
        }
    }

    /// A driver whose directory names carry no time stamp, only a counter (stable names for
    /// snapshot tests).
    pub fn without_stamp(base: &Path, content: Arc<Content>) -> SimDriver {
        SimDriver {
            stamped: false,
            ..SimDriver::new(base, content)
        }
    }

    /// Executes one command and returns the replies for the core.
    pub fn handle(&mut self, command: SimCommand) -> Vec<SimReply> {
        let run = match &command {
            SimCommand::Start { run, .. }
            | SimCommand::Step { run, .. }
            | SimCommand::StepToMoment { run, .. }
            | SimCommand::StepToStatement { run, .. }
            | SimCommand::View { run, .. }
            | SimCommand::ToEnd { run }
            | SimCommand::Inject { run, .. }
            | SimCommand::Replay { run, .. }
            | SimCommand::Compare { run, .. } => *run,
            SimCommand::Stop => {
                // The last run's files stay for `sqlite3` after leaving the screen.
                self.current = None;
                return Vec::new();
            }
        };
        match self.execute(command) {
            Ok(replies) => replies,
            Err(e) => {
                log::warn(&format!("simulator: {e}"));
                vec![SimReply::Failed {
                    run,
                    reason: e.to_string(),
                }]
            }
        }
    }

    /// Drops the replaced run and deletes its files: a trainee who cycles modes and seeds
    /// would otherwise fill the data directory with runs nobody can find any more (the screen
    /// shows only the current run's path).
    fn discard_current(&mut self) {
        if let Some(current) = self.current.take() {
            let dir = current.sim.paths().dir.clone();
            drop(current);
            if dir.starts_with(&self.base)
                && let Err(e) = std::fs::remove_dir_all(&dir)
            {
                log::warn(&format!("cannot remove old run {}: {e}", dir.display()));
            }
        }
    }

    fn sim(&mut self, run: u64) -> Result<&mut Simulation, SimError> {
        self.run(run).map(|r| &mut r.sim)
    }

    fn run(&mut self, run: u64) -> Result<&mut Run, SimError> {
        match &mut self.current {
            Some(r) if r.tag == run => Ok(r),
            _ => Err(SimError::Config(format!(
                "run {run} is not active (it was replaced or stopped)"
            ))),
        }
    }

    fn execute(&mut self, command: SimCommand) -> Result<Vec<SimReply>, SimError> {
        Ok(match command {
            SimCommand::Start { run, spec } => vec![self.start(run, &spec)?],
            SimCommand::Step { run, count } => {
                let r = self.run(run)?;
                let stepped = r.step(u64::from(count), false)?;
                vec![advanced(run, &r.sim, stepped)?]
            }
            SimCommand::StepToMoment { run, max } => {
                let r = self.run(run)?;
                let stepped = r.step(u64::from(max), true)?;
                vec![advanced(run, &r.sim, stepped)?]
            }
            SimCommand::StepToStatement {
                run,
                at_ms,
                section,
            } => {
                let r = self.run(run)?;
                let stepped = r.step_to_statement(at_ms, section)?;
                vec![advanced(run, &r.sim, stepped)?]
            }
            SimCommand::ToEnd { run } => {
                let r = self.run(run)?;
                let stepped = r.step(u64::MAX, false)?;
                vec![advanced(run, &r.sim, stepped)?]
            }
            SimCommand::View { run, index } => vec![self.view(run, index)?],
            SimCommand::Inject { run, fault } => {
                self.run(run)?.inject(fault);
                Vec::new()
            }
            SimCommand::Replay {
                run,
                count,
                fix_cause,
                new_ids,
            } => {
                let r = self.run(run)?;
                if fix_cause {
                    r.sim.fix_cause();
                }
                if new_ids {
                    r.sim.replay_dlq_with_new_ids(count);
                } else {
                    r.sim.replay_dlq(count);
                }
                let stepped = r.step_through_replay()?;
                vec![advanced(run, &r.sim, stepped)?]
            }
            SimCommand::Compare { run, spec, against } => {
                vec![self.compare(run, &spec, against)?]
            }
            SimCommand::Stop => Vec::new(),
        })
    }

    /// A new run replaces the current one.
    fn start(&mut self, run: u64, spec: &RunSpec) -> Result<SimReply, SimError> {
        self.discard_current();
        let expected_events = self.expected_events(spec)?;
        let sim = self.create(spec, spec.mode)?;
        let reply = SimReply::Started {
            run,
            dir: sim.paths().dir.display().to_string(),
            consumers: sim.scenario().setup.consumers,
            head: Box::new(sim.snapshot()),
            expected_events,
        };
        self.current = Some(Run::new(run, sim));
        Ok(reply)
    }

    /// The picture after event `index`, or why it is out of reach.
    fn view(&mut self, run: u64, index: u64) -> Result<SimReply, SimError> {
        let sim = self.sim(run)?;
        Ok(match sim.state_at(index) {
            Some(snapshot) => SimReply::Viewed {
                run,
                index,
                snapshot: Box::new(snapshot),
            },
            None => SimReply::Failed {
                run,
                reason: format!(
                    "event {} is outside the step-back window (earliest: {})",
                    index + 1,
                    sim.earliest_step_back().map_or(0, |e| e + 1)
                ),
            },
        })
    }

    /// The run's settings played in the safe mode and in `against`, each to its end.
    fn compare(&mut self, run: u64, spec: &RunSpec, against: Mode) -> Result<SimReply, SimError> {
        // The faults the learner injected into this run happen in both modes too, so the
        // comparison shows the consequence of what was just done.
        let faults = self
            .current
            .as_ref()
            .filter(|r| r.tag == run)
            .map(|r| r.faults.clone())
            .unwrap_or_default();
        let safe = run::run_with_faults(&mut self.create(spec, Mode::Safe)?, &faults)?;
        let naive = run::run_with_faults(&mut self.create(spec, against)?, &faults)?;
        Ok(SimReply::Compared {
            run,
            safe: Box::new(safe),
            naive: Box::new(naive),
        })
    }

    /// Events of `spec`'s run played to the end without injected faults, measured once per
    /// settings in a scratch run whose files are removed again.
    fn expected_events(&mut self, spec: &RunSpec) -> Result<u64, SimError> {
        if let Some(n) = self.expected.get(spec) {
            return Ok(*n);
        }
        // Its own folder name: the numbered run folders the learner sees stay 1, 2, 3, ...
        let dir = self.base.join(format!(".pace-{}", std::process::id()));
        if dir.exists() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        let mut sim = self.build(spec, spec.mode, dir.clone())?;
        let result = sim.run_to_end().map(|r| r.events);
        drop(sim);
        if let Err(e) = std::fs::remove_dir_all(&dir) {
            log::warn(&format!(
                "cannot remove the pacing run {}: {e}",
                dir.display()
            ));
        }
        let n = result?;
        self.expected.insert(spec.clone(), n);
        Ok(n)
    }

    /// The simulation `spec` asks for in `mode`, its files in `dir`: a lab's run plays the
    /// learner's file, varied by the seed exactly as its check was.
    fn build(&self, spec: &RunSpec, mode: Mode, dir: PathBuf) -> Result<Simulation, SimError> {
        if let Some(lab) = &spec.lab {
            let mut sim = sim::lab::rerun(
                &self.content,
                &lab.lab_id,
                &lab.text,
                &spec.scenario,
                spec.broker,
                spec.seed,
                dir,
            )?;
            if let Some(probe) = lab.probe {
                sim.lab_set_probe(probe);
            }
            return Ok(sim);
        }
        Simulation::new(RunConfig {
            scenario: sim::scenario::from_loaded(&self.content, &spec.scenario)?,
            mode,
            broker: spec.broker,
            seed: spec.seed,
            messages: None,
            dir,
        })
    }

    /// A fresh simulation in a new directory named after its settings.
    fn create(&mut self, spec: &RunSpec, mode: Mode) -> Result<Simulation, SimError> {
        // The time stamp keeps runs of earlier sessions apart (the counter restarts at 1).
        let stamp = if self.stamped {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        } else {
            0
        };
        let dir = loop {
            self.created += 1;
            // A lab's run is named by its lab, not by a mode it does not play.
            let kind = spec.lab.as_ref().map_or(mode.as_str(), |_| "lab");
            let name = format!(
                "{}-{}-{}-seed{}-{stamp}-{}",
                spec.scenario,
                kind,
                spec.broker.as_str(),
                spec.seed,
                self.created
            );
            let dir = self.base.join(name);
            if !dir.exists() {
                break dir;
            }
        };
        self.build(spec, mode, dir)
    }
}

fn advanced(run: u64, sim: &Simulation, stepped: Stepped) -> Result<SimReply, SimError> {
    let Stepped {
        mut events,
        moments,
    } = stepped;
    if events.len() > EVENTS_PER_REPLY {
        events.drain(..events.len() - EVENTS_PER_REPLY);
    }
    let finished = sim.is_finished();
    Ok(SimReply::Advanced {
        run,
        head: Box::new(sim.snapshot()),
        events,
        total: sim.event_count(),
        finished,
        dlq: sim.dlq()?,
        report: if finished {
            Some(Box::new(sim.report()?))
        } else {
            None
        },
        moments,
    })
}

/// Handle to the simulator thread.
pub struct SimWorker {
    commands: mpsc::Sender<SimCommand>,
    thread: JoinHandle<()>,
}

impl SimWorker {
    /// Starts the thread; run directories go under `base`, runs are built from `content`.
    pub fn spawn(
        base: PathBuf,
        content: Arc<Content>,
        replies: UnboundedSender<Msg>,
    ) -> std::io::Result<SimWorker> {
        let (commands, inbox) = mpsc::channel::<SimCommand>();
        let thread = std::thread::Builder::new()
            .name("simulator".into())
            .spawn(move || {
                let mut driver = SimDriver::new(&base, content);
                for command in inbox {
                    for reply in driver.handle(command) {
                        // The UI may be gone at shutdown; nothing is lost with a dropped picture.
                        let _ = replies.send(Msg::Sim(reply));
                    }
                }
            })?;
        Ok(SimWorker { commands, thread })
    }

    /// Queues a command.
    pub fn send(&self, command: SimCommand) {
        if self.commands.send(command).is_err() {
            log::warn("the simulator thread has stopped; a command was dropped");
        }
    }

    /// Lets the thread end. It is not joined: a long compare must not delay quitting, and a
    /// simulator run is disposable (its files are never the system of record).
    pub fn finish(self) {
        drop(self.commands);
        if self.thread.is_finished() && self.thread.join().is_err() {
            log::warn("the simulator thread panicked");
        }
    }
}

#[cfg(test)]
mod tests;

//! One run on the simulator thread: the simulation, its story (moments) and the faults the
//! learner injected (so that the compare view can replay them).

use sim::lab::Section;
use sim::{Event, Fault, Moment, SimError, Simulation, Story};

/// Most events executed while waiting for a DLQ replay to run (it is due at once).
const REPLAY_REACH: usize = 64;

/// Events sent back with one reply at most (the log keeps the newest anyway).
pub(super) const EVENTS_PER_REPLY: usize = 400;

/// The current run.
pub(super) struct Run {
    pub tag: u64,
    pub sim: Simulation,
    story: Story,
    /// Injected faults with the virtual time they were injected at.
    pub faults: Vec<(u64, Fault)>,
}

/// What a step command produced.
#[derive(Default)]
pub(super) struct Stepped {
    pub events: Vec<Event>,
    pub moments: Vec<Moment>,
}

impl Run {
    pub fn new(tag: u64, sim: Simulation) -> Run {
        let story = Story::for_run(&sim);
        Run {
            tag,
            sim,
            story,
            faults: Vec::new(),
        }
    }

    /// Executes up to `max` events; with `until_moment` it stops after the first event that
    /// made a moment visible. Keeps the newest [`EVENTS_PER_REPLY`] events.
    pub fn step(&mut self, max: u64, until_moment: bool) -> Result<Stepped, SimError> {
        let mut out = Stepped::default();
        let mut done = 0;
        while done < max {
            if self.sim.step()?.is_none() {
                break;
            }
            done += 1;
            let Some((event, facts)) = self.sim.last_step() else {
                break;
            };
            let seen = self.story.observe(event, facts);
            let stop = until_moment && !seen.is_empty();
            out.moments.extend_from_slice(seen);
            out.events.push(event.clone());
            if out.events.len() > EVENTS_PER_REPLY * 2 {
                out.events.drain(..EVENTS_PER_REPLY);
            }
            if stop {
                break;
            }
        }
        if self.sim.is_finished() {
            out.moments.extend(self.story.finish());
        }
        if out.events.len() > EVENTS_PER_REPLY {
            out.events.drain(..out.events.len() - EVENTS_PER_REPLY);
        }
        Ok(out)
    }

    /// Executes events up to the first that runs the learner's `section` at `at_ms` or later
    /// (its SQL names the section), or the first after `at_ms` when none at that time does.
    pub fn step_to_statement(&mut self, at_ms: u64, section: Section) -> Result<Stepped, SimError> {
        let header = format!("-- @{}", section.as_str());
        let mut out = Stepped::default();
        loop {
            let stepped = self.step(1, false)?;
            let Some(event) = stepped.events.last() else {
                out.moments.extend(stepped.moments);
                break;
            };
            let runs_it = event.sql.first().is_some_and(|l| l.starts_with(&header));
            let there = (event.at_ms >= at_ms && runs_it) || event.at_ms > at_ms;
            out.moments.extend(stepped.moments);
            out.events.extend(stepped.events);
            if out.events.len() > EVENTS_PER_REPLY * 2 {
                out.events.drain(..EVENTS_PER_REPLY);
            }
            if there {
                break;
            }
        }
        if out.events.len() > EVENTS_PER_REPLY {
            out.events.drain(..out.events.len() - EVENTS_PER_REPLY);
        }
        Ok(out)
    }

    /// Executes events up to and including the operator's DLQ replay just scheduled (events
    /// already due at this virtual time run first), so the screen shows it at once.
    pub fn step_through_replay(&mut self) -> Result<Stepped, SimError> {
        let mut out = Stepped::default();
        // The replay is due now: only the few events already due at this time come first.
        for _ in 0..REPLAY_REACH {
            let stepped = self.step(1, false)?;
            let done = stepped.events.iter().any(|e| e.kind.is_dlq_replay());
            // Nothing left to do ends the wait. Not `is_finished`: a run that had ended keeps
            // that flag until its clock runs dry again, so a replay after the end stopped
            // after the first event and never happened (Enter "did nothing").
            let dry = stepped.events.is_empty();
            out.events.extend(stepped.events);
            out.moments.extend(stepped.moments);
            if done || dry {
                break;
            }
        }
        Ok(out)
    }

    /// Injects `fault` now and remembers when.
    pub fn inject(&mut self, fault: Fault) {
        self.faults.push((self.sim.now_ms(), fault));
        self.sim.inject(fault);
    }
}

/// Plays `sim` to the end, injecting `faults` at their virtual times (the compare view
/// replays what the learner did in the run being compared).
pub(super) fn run_with_faults(
    sim: &mut Simulation,
    faults: &[(u64, Fault)],
) -> Result<sim::RunReport, SimError> {
    let mut pending = faults.iter().peekable();
    loop {
        while let Some((at, fault)) = pending.peek() {
            if sim.now_ms() < *at {
                break;
            }
            sim.inject(*fault);
            pending.next();
        }
        if sim.step()?.is_none() {
            break;
        }
    }
    sim.report()
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use app::simulator::{RunSpec, SimCommand, SimReply};
    use sim::{BrokerKind, Fault, Mode, MomentKind};

    fn driver(base: &std::path::Path) -> SimDriver {
        let content =
            std::sync::Arc::new(content::load(&content::ContentSource::Embedded).expect("content"));
        SimDriver::without_stamp(base, content)
    }

    fn spec(scenario: &str, mode: Mode) -> RunSpec {
        RunSpec {
            scenario: scenario.into(),
            mode,
            broker: BrokerKind::Asb,
            seed: 1,
            lab: None,
        }
    }

    #[test]
    fn step_to_moment_stops_at_the_event_that_made_it_visible() {
        let base = tempfile::tempdir().expect("tempdir");
        let mut d = driver(base.path());
        let started = d.handle(SimCommand::Start {
            run: 1,
            spec: spec("lost-ack", Mode::Naive),
        });
        let [
            SimReply::Started {
                expected_events, ..
            },
        ] = &started[..]
        else {
            panic!("started: {started:?}")
        };
        assert!(*expected_events > 50, "{expected_events}");
        let mut kinds = Vec::new();
        for _ in 0..20 {
            let replies = d.handle(SimCommand::StepToMoment {
                run: 1,
                max: 10_000,
            });
            let [
                SimReply::Advanced {
                    events,
                    moments,
                    finished,
                    ..
                },
            ] = &replies[..]
            else {
                panic!("advanced: {replies:?}")
            };
            if let Some(m) = moments.first() {
                assert_eq!(
                    events.last().map(|e| e.index),
                    Some(m.event),
                    "stopped at it"
                );
            }
            kinds.extend(moments.iter().map(|m| m.kind));
            if *finished {
                break;
            }
        }
        assert!(kinds.contains(&MomentKind::DuplicateEffect), "{kinds:?}");
        assert!(
            std::fs::read_dir(base.path())
                .expect("base")
                .filter_map(Result::ok)
                .count()
                == 1,
            "the pacing run left no files"
        );
    }

    #[test]
    fn compare_replays_the_faults_injected_into_the_run() {
        let base = tempfile::tempdir().expect("tempdir");
        let mut d = driver(base.path());
        let spec = spec("happy-path", Mode::Safe);
        d.handle(SimCommand::Start {
            run: 1,
            spec: spec.clone(),
        });
        d.handle(SimCommand::Step { run: 1, count: 3 });
        d.handle(SimCommand::Inject {
            run: 1,
            fault: Fault::ConsumerLostConnectionAfterEffect,
        });
        let replies = d.handle(SimCommand::Compare {
            run: 1,
            spec,
            against: Mode::Naive,
        });
        let [SimReply::Compared { safe, naive, .. }] = &replies[..] else {
            panic!("compared: {replies:?}")
        };
        assert_eq!(safe.metrics.duplicate_effects, 0);
        assert!(
            naive.metrics.duplicate_effects > 0,
            "the injected lost connection duplicates in naive mode"
        );
    }
}

#[cfg(test)]
mod replay_tests {
    use super::*;
    use sim::scenario::{self, ScriptAction};
    use sim::{BrokerKind, Mode, RunConfig};

    /// `poison-dlq` without its scripted fix and replays: the test is the operator.
    fn operator_run(dir: &std::path::Path) -> Run {
        let mut sc = scenario::find("poison-dlq").expect("scenario");
        sc.script
            .retain(|s| matches!(s.action, ScriptAction::Fault(_)));
        let sim = Simulation::new(RunConfig {
            scenario: sc,
            mode: Mode::Safe,
            broker: BrokerKind::Asb,
            seed: 1,
            messages: None,
            dir: dir.join("run"),
        })
        .expect("new run");
        Run::new(1, sim)
    }

    #[test]
    fn a_replay_after_the_run_ended_happens() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut run = operator_run(dir.path());
        run.step(u64::MAX, false).expect("to the end");
        assert!(run.sim.is_finished());
        assert!(
            !run.sim.dlq().expect("dlq").is_empty(),
            "poison left in the DLQ"
        );
        for fix in [true, false] {
            if fix {
                run.sim.fix_cause();
            }
            run.sim.replay_dlq(1);
            let stepped = run.step_through_replay().expect("replay");
            assert!(
                stepped.events.iter().any(|e| e.kind.is_dlq_replay()),
                "the replay happened (fix first: {fix}): {:?}",
                stepped.events.iter().map(|e| e.kind).collect::<Vec<_>>()
            );
        }
    }
}

//! A lab check's broken run in the simulator: the same scenario, broker and seed, varied as the
//! check varied them, with the learner's file at the hook points, so the learner can step to
//! the moment and read their own statements in the SQL view. The run is the file's, so what
//! would swap it for another program — the mode, the compare view, another scenario — is
//! refused with a word; broker, seed, faults and stepping work as in any run.

use super::protocol::{LabRun, SimCommand};
use super::{SimState, playback};
use crate::keymap::Action;
use crate::{Effect, Screen, Session};
use content::LabSection as Section;
use content::key;
use model::{BrokerKind, Mode};

/// Where a lab check's run broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Broke<'a> {
    /// Scenario id.
    pub scenario: &'a str,
    /// Broker profile.
    pub broker: BrokerKind,
    /// Seed.
    pub seed: u64,
    /// The virtual time and section of the learner's statement the report names.
    pub statement: Option<(u64, Section)>,
}

/// Opens the simulator on `lab`'s run where it broke, paused at the learner's statement the
/// report names (the SQL view shows it), or before the first event when it names none.
pub fn open(session: &mut Session, lab: LabRun, at: &Broke<'_>) -> Vec<Effect> {
    let mut state = Box::new(SimState::new(at.scenario));
    state.settings.mode = Mode::Safe;
    state.settings.broker = at.broker;
    state.settings.seed = at.seed;
    state.settings.lab = Some(lab);
    let mut effects = playback::restart(&mut state);
    if let Some((at_ms, section)) = at.statement {
        state.timeline.opening_at_statement = Some(at_ms);
        effects.push(Effect::Sim(SimCommand::StepToStatement {
            run: state.timeline.run,
            at_ms,
            section,
        }));
    }
    session.push(Screen::Simulator(state));
    effects
}

/// Whether `action` would replace the learner's program in a lab's run (then it is refused,
/// and the status line says why).
pub fn refused(s: &SimState, session: &mut Session, action: Action) -> bool {
    let replaces = matches!(
        action,
        Action::CycleMode | Action::Compare | Action::ChooseScenario
    );
    if replaces && s.settings.lab.is_some() {
        let text = session
            .strings()
            .get(key::simulator::LAB_RUN_FIXED)
            .to_owned();
        session.notify(text, false);
        return true;
    }
    false
}

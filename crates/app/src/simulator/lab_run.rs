//! A lab check's broken run in the simulator: the same scenario, broker and seed, varied as the
//! check varied them, with the learner's file at the hook points, so the learner can step to
//! the moment and read their own statements in the SQL view. The run is the file's, so what
//! would swap it for another program — the mode, the compare view, another scenario — is
//! refused with a word; broker, seed, faults and stepping work as in any run.

use super::protocol::LabRun;
use super::{SimState, playback};
use crate::keymap::Action;
use crate::{Effect, Screen, Session};
use sim::{BrokerKind, Mode};

/// Opens the simulator on `lab`'s run of `scenario` on `broker` with `seed`, paused before
/// the first event.
pub fn open(
    session: &mut Session,
    lab: LabRun,
    scenario: &str,
    broker: BrokerKind,
    seed: u64,
) -> Vec<Effect> {
    let mut state = Box::new(SimState::new(scenario));
    state.settings.mode = Mode::Safe;
    state.settings.broker = broker;
    state.settings.seed = seed;
    state.settings.lab = Some(lab);
    let effects = playback::restart(&mut state);
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
        let text = session.strings().get("simulator.lab_run_fixed").to_owned();
        session.notify(text, false);
        return true;
    }
    false
}

//! One run of a lab check built again: the scenario varied by the seed exactly as the check
//! varies it, the learner's SQL at the hook points, the unreadable messages handed to the
//! handler where the lab says so. The check runs it ([`super::runner`]), and so does the
//! simulator screen when the learner opens a failing run to step through it.

use super::LabSql;
use super::vary::vary;
use crate::{BrokerKind, Mode, RunConfig, Scenario, SimError, Simulation};
use content::Content;
use std::path::PathBuf;
use std::sync::Arc;

/// The simulation of `scenario` on `broker` with `seed`, running `sql`, its files in `dir`.
/// `poison`: the handler decides about unreadable messages; `charged`: the handler's effect is
/// a charge, so it may claim a message before it calls the provider, and a claim in progress
/// is told from a duplicate.
pub fn lab_simulation(
    sql: Arc<LabSql>,
    scenario: &Scenario,
    broker: BrokerKind,
    seed: u64,
    (poison, charged): (bool, bool),
    dir: PathBuf,
) -> Result<Simulation, SimError> {
    let config = RunConfig {
        scenario: vary(scenario, seed),
        mode: Mode::Safe,
        broker,
        seed,
        messages: None,
        dir,
    };
    let mut sim = Simulation::with_lab(config, sql)?;
    if poison {
        sim.lab_hand_unreadable_to_handler();
    }
    if charged {
        sim.lab_tell_claims_from_duplicates();
    }
    Ok(sim)
}

/// [`lab_simulation`] for lab `lab_id` of `content` with the learner's file `text` (as it was
/// checked), on scenario `scenario_id`. A file that does not prepare is [`SimError::Lab`].
pub fn rerun(
    content: &Content,
    lab_id: &str,
    text: &str,
    scenario_id: &str,
    broker: BrokerKind,
    seed: u64,
    dir: PathBuf,
) -> Result<Simulation, SimError> {
    let lab = content
        .labs
        .iter()
        .find(|l| l.id == lab_id)
        .ok_or_else(|| SimError::Config(format!("no lab {lab_id}")))?;
    let sql = Arc::new(LabSql::prepare(text, &lab.sections).map_err(SimError::Lab)?);
    let scenario = crate::scenario::from_loaded(content, scenario_id)?;
    let kind = (lab.poison, lab.charged);
    lab_simulation(sql, &scenario, broker, seed, kind, dir)
}

//! Captions of the events the learner's lab file decided. The built-in captions describe the
//! engine's own SQL ("inbox row and effect committed in one transaction", "claims rows with a
//! lease"), which a lab file may not do; these say what ran was the learner's section.

use super::lab_consumer::{
    LAB_CHECK_SQL, LAB_HANDLE_SQL, LAB_WAIT_CLAIM_SQL, LAB_WAIT_PROVIDER_SQL,
};
use super::lab_dispatch::LAB_CLAIM_SQL;
use crate::EventKind as K;
use crate::model::Event;

/// Every lab caption key (present in both languages of the captions file).
pub const LAB_CAPTIONS: [&str; 8] = [
    "sim.lab.applied",
    "sim.lab.no-effect",
    "sim.lab.check-found",
    "sim.lab.check-none",
    "sim.lab.effect-then-connection-lost",
    "sim.lab.dispatcher-claimed",
    "sim.lab.claim-in-progress",
    "sim.lab.provider-in-progress",
];

/// The caption of an event of the learner's `@check`, `@handle` or `@claim`, where the
/// built-in one would say what the engine's own SQL does.
pub(crate) fn lab_caption(event: &Event) -> Option<&'static str> {
    let handle = event.sql == LAB_HANDLE_SQL;
    let check = event.sql == LAB_CHECK_SQL;
    let claim = event.sql == LAB_CLAIM_SQL;
    Some(match event.kind {
        K::Applied if handle => LAB_CAPTIONS[0],
        K::CheckFound if handle => LAB_CAPTIONS[1],
        K::CheckFound if check => LAB_CAPTIONS[2],
        K::CheckNoneSafe | K::CheckNoneNaive if check => LAB_CAPTIONS[3],
        K::NaiveEffectThenConnectionLost if handle => LAB_CAPTIONS[4],
        K::DispatcherClaimed if claim => LAB_CAPTIONS[5],
        K::Failed if event.sql == LAB_WAIT_CLAIM_SQL => LAB_CAPTIONS[6],
        K::Failed if event.sql == LAB_WAIT_PROVIDER_SQL => LAB_CAPTIONS[7],
        _ => return None,
    })
}

//! Metrics of a run, the invariant check over the run's files, and the final report (the
//! types live in `queuelab-model`, which the screens use without the engine).

pub use super::invariants::{check_invariants, out_of_order, reason_fits_body};
pub use model::report::*;

//! What the simulator's tests share: a lab checked as `queuelab lab check` does, one headless
//! run, and the truth checker of captions and moments.

pub mod lab;
pub mod sim_run;
pub mod truth;

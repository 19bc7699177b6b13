//! The impure shell around the core: the terminal, the event loop, the effect executor.

mod convert;
pub mod dashboard_loop;
mod debug_panic;
mod debug_slow_setup;
mod event_loop;
mod executor;
mod faults;
mod lab_editor;
mod lab_watch;
mod lab_worker;
mod loop_setup;
mod mail_worker;
mod share_slot;
pub mod sim_worker;
mod store_worker;
pub mod terminal;
mod terminal_input;
mod workshop_worker;

pub use event_loop::run;
pub use loop_setup::LoopSetup;

//! The arguments of the command groups with subcommands or many options, one file per group
//! (`host`, `join`, `lab`); the commands themselves live in the `*_cmd` files.

mod host;
mod join;
mod lab;

pub use host::{HostAction, HostArgs};
pub use join::JoinArgs;
pub use lab::LabAction;

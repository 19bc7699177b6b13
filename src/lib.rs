//! queuelab: an interactive terminal workshop on resilient message processing.

pub mod cli;
pub mod content;
pub mod domain;
pub mod services;

//! queuelab: an interactive terminal workshop on resilient message processing.

pub mod app;
pub mod cli;
pub mod content;
pub mod domain;
pub mod runtime;
pub mod services;
pub mod sim;
pub mod ui;

//! queuelab: an interactive terminal workshop on resilient message processing.

pub mod sim;

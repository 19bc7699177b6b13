//! What the command-line and terminal tests share: the binary run with its output collected,
//! the course's counts, and the binary in a pseudo-terminal read through a terminal emulator.

pub mod child;
pub mod cli;
pub mod course;
pub mod pty;

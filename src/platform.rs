//! Everything in this crate that exists only on Unix, in one place, each part with its reason.
//! queuelab runs on Linux and macOS, and on Windows inside WSL (which is Linux); a native
//! Windows build stops in the lowest crate (`content`) with a message that names WSL. No other
//! module of this crate names a Unix API, so a port to another system starts and ends here.
//!
//! - [`terminal_wait`]: the reader thread waits on the terminal's descriptor for bytes or a
//!   hang-up (`poll(2)`, or `select(2)` where `poll(2)` refuses terminals, as on macOS).
//! - [`signals`]: SIGTERM, SIGHUP and SIGINT end the workshop and the dashboard after saving,
//!   SIGINT and SIGTERM stop `queuelab share`, SIGWINCH announces a resize (a resize brings no
//!   bytes to the terminal).
//! - [`early_signals`]: the same three ending signals, caught from the first moment, before the
//!   runtime that listens for them exists.

#[cfg(unix)]
pub(crate) mod early_signals;
#[cfg(unix)]
pub(crate) mod signals;
#[cfg(unix)]
pub(crate) mod terminal_wait;

//! A hostile device in the room, recreated as it attacks: a fake session advertised on the
//! test's own discovery port under the real join code, floods of registrations from several
//! loopback addresses, and control characters in every field a trainee sends.

mod control_chars;
mod fake_advertisement;
mod flood;
mod idle_connections;
#[path = "../workshop/support.rs"]
#[allow(dead_code)]
mod support;

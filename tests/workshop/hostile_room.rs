//! A hostile device in the room, recreated as it attacks: a fake session advertised on the
//! test's own discovery port under the real join code, floods of registrations from several
//! loopback addresses, and control characters in every field a trainee sends.

use std::sync::{Mutex, MutexGuard, PoisonError};

mod control_chars;
mod fake_advertisement;
mod flood;
mod idle_connections;

/// One attack at a time: the deadline an honest trainee must meet beside 640 idle connections
/// is the host's to keep, not the test binary's, so no other attack (key derivations, a flood of
/// registrations) shares the two cores with it while it is measured.
static ONE_ATTACK_AT_A_TIME: Mutex<()> = Mutex::new(());

fn one_attack_at_a_time() -> MutexGuard<'static, ()> {
    ONE_ATTACK_AT_A_TIME
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

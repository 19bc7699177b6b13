//! `queuelab host lock|unlock` and `queuelab host kick --silent`: the instructor's hand on the
//! door of a running session during a flood of registrations.

use super::host_cmd::{host_at, host_failure};
use super::join_cmd::say;
use super::{Cli, Failure};

/// `host lock` / `host unlock`.
pub fn lock(cli: &Cli, url: &str, key: &str, locked: bool) -> Result<(), Failure> {
    host_at(url)?
        .set_locked(key, locked)
        .map_err(|e| host_failure(cli, &e))?;
    say!(
        "{}",
        if locked {
            "locked: new trainees are refused; trainees already in the room go on (queuelab host unlock opens it again)"
        } else {
            "unlocked: new trainees may join"
        }
    );
    Ok(())
}

/// `host kick --silent [--yes]`: shows how many trainees never sent an event, asks, removes
/// them in one action.
pub fn kick_silent(cli: &Cli, url: &str, key: &str, yes: bool) -> Result<(), Failure> {
    let host = host_at(url)?;
    let n = host.count_silent(key).map_err(|e| host_failure(cli, &e))?.n;
    say!("{n} trainee(s) never sent an event");
    if n == 0 {
        return Ok(());
    }
    if !yes {
        use std::io::Write as _;
        let mut out = std::io::stdout();
        let _ = write!(out, "Remove them? (y/n) ");
        let _ = out.flush();
        let mut answer = String::new();
        let _ = std::io::stdin().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes" | "j" | "J" | "ja") {
            say!("nobody removed");
            return Ok(());
        }
    }
    let removed = host.remove_silent(key).map_err(|e| host_failure(cli, &e))?;
    say!(
        "removed {} trainee(s) who never sent an event; their clients are refused from now on",
        removed.n
    );
    Ok(())
}

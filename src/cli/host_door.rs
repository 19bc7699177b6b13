//! `queuelab host lock|unlock` and `queuelab host kick --silent`: the instructor's hand on the
//! door of a running session during a flood of registrations.

use super::Failure;
use super::join_cmd::say;
use domain::workshop::JoinUrl;
use services::host::SilentRemoved;
use services::trainee::client::{Reply, deadline_in, request};

/// Asks the host of `url` with the instructor key.
fn ask(url: &str, key: &str, method: &str, path: &str) -> Result<Reply, Failure> {
    let url = JoinUrl::parse(url).map_err(|e| Failure::usage(e.to_string()))?;
    request(&url, method, path, Some(key), b"", deadline_in(5_000))
        .and_then(|reply| reply.accepted("host"))
        .map_err(Failure::new)
}

/// `host lock` / `host unlock`.
pub fn lock(url: &str, key: &str, locked: bool) -> Result<(), Failure> {
    ask(
        url,
        key,
        "POST",
        if locked { "/api/lock" } else { "/api/unlock" },
    )?;
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
pub fn kick_silent(url: &str, key: &str, yes: bool) -> Result<(), Failure> {
    let counted = ask(url, key, "GET", "/api/silent")?;
    let n = serde_json::from_slice::<serde_json::Value>(&counted.body)
        .ok()
        .and_then(|v| v["n"].as_u64())
        .ok_or_else(|| Failure::new("the host's answer is not readable"))?;
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
    let reply = ask(url, key, "POST", "/api/silent")?;
    let removed: SilentRemoved = serde_json::from_slice(&reply.body)
        .map_err(|e| Failure::new(format!("the host's answer is not readable: {e}")))?;
    say!(
        "removed {} trainee(s) who never sent an event; their clients are refused from now on",
        removed.n
    );
    Ok(())
}

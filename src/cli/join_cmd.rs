//! `queuelab join`, `queuelab leave`, `queuelab stuck`: the trainee's membership in a workshop
//! session, and the short delivery every line-oriented command makes before it exits.

use super::lines::Session;
use super::{Cli, Failure};
use content::key;
use domain::workshop::{EventKind, JoinRefusal, JoinTarget, check_name, same_digits};
use services::trainee::{self, client::deadline_in, join};
use services::{HostError, Store};

/// `println!` without the panic on a closed stdout (`queuelab join | head -1`): output that
/// nobody reads is dropped.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}
pub(super) use say;

/// How long a short command may spend delivering what waits: a line command must end soon even when
/// the host cannot be reached, and what is left goes with the next run.
const FLUSH_MS: u64 = 2_000;

/// `queuelab join [CODE | HOST:PORT CODE | URL] [--name NAME] [--check-digits DIGITS]`.
pub fn run_join(
    cli: &Cli,
    target: Option<&str>,
    name: Option<&str>,
    digits: Option<&str>,
) -> Result<(), Failure> {
    let mut session = Session::open(cli)?;
    let strings = session.course().strings.clone();
    let store = &mut session.store;
    if let Some(target) = target {
        join_target(cli, store, &strings, target, (name, digits))?;
    } else if name.is_some() || digits.is_some() {
        return Err(Failure::usage(strings.get(key::join::FLAGS_ALONE)));
    }
    print_status(store, &strings)
}

/// Joins the session `target` names: the name is `--name`, else the one used before in the
/// same session; a short address or a bare code is trusted only after its check digits are
/// confirmed. `--lang` becomes the trainee's language.
fn join_target(
    cli: &Cli,
    store: &mut Store,
    strings: &content::Strings,
    target: &str,
    (name, digits): (Option<&str>, Option<&str>),
) -> Result<(), Failure> {
    let target = JoinTarget::parse(target)
        .map_err(|e| Failure::usage(strings.fill(e.key(), &[("typed", target)])))?;
    let old = store
        .membership()
        .map_err(|e| Failure::new(e.to_string()))?;
    let code = match &target {
        JoinTarget::Url(url) => url.code.clone(),
        JoinTarget::Short { code, .. } | JoinTarget::Code { code } => code.clone(),
    };
    let name = match (name, &old) {
        (Some(name), _) => check_name(name).map_err(|e| Failure::usage(e.to_string()))?,
        (None, Some(old)) if old.url.code == code => old.name.clone(),
        (None, _) => return Err(Failure::usage(strings.get(key::join::NAME_NEEDED))),
    };
    let refused = |r: JoinRefusal| Failure::new(r.message(strings));
    let deadline = deadline_in(join::JOIN_MS);
    let url = match target {
        JoinTarget::Url(url) => url,
        JoinTarget::Short { host, port, code } => {
            let observed = join::observe(&host, port, &code, deadline).map_err(refused)?;
            confirm_digits(&observed.digits, digits, strings).map_err(refused)?;
            observed.url
        }
        JoinTarget::Code { code } => find_confirmed(&code, digits, strings).map_err(refused)?,
    };
    let joined = join::join(store, &url, &name, deadline).map_err(refused)?;
    // The language chosen when joining stays the trainee's for decide, quiz and join.
    if let Some(lang) = cli.globals.lang {
        store
            .save(&domain::Fact::LanguageChosen(lang))
            .map_err(|e| Failure::new(e.to_string()))?;
    }
    say!(
        "{}",
        strings.fill(
            key::join::JOINED_AS,
            &[
                ("session", &joined.session),
                ("address", &url.authority()),
                // The name the room shows: "Ada (2)" when another Ada came first.
                ("name", joined.delivery.name.as_deref().unwrap_or(&name))
            ]
        )
    );
    Ok(())
}

/// Delivers what waits and prints the membership's status: session, host, name, delivered and
/// waiting facts, refused facts. A refusal from the host fails the command; an unreachable
/// host is only said.
fn print_status(store: &mut Store, strings: &content::Strings) -> Result<(), Failure> {
    let Some(member) = store
        .membership()
        .map_err(|e| Failure::new(e.to_string()))?
    else {
        say!("{}", strings.get(key::join::NOT_JOINED));
        return Ok(());
    };
    let delivery = trainee::deliver(store, deadline_in(FLUSH_MS), true)
        .map_err(|e| Failure::new(e.to_string()))?;
    let session_name = delivery
        .session
        .clone()
        .or(member.session_name.clone())
        .unwrap_or_else(|| strings.get(key::join::STATUS_NOT_REACHED).to_owned());
    let line = |key: content::Key, name: &str, value: &str| strings.fill(key, &[(name, value)]);
    say!("{}", line(key::join::STATUS_SESSION, "name", &session_name));
    say!(
        "{}",
        line(key::join::STATUS_HOST, "address", &member.url.authority())
    );
    let shown = delivery.name.as_deref().unwrap_or(&member.name);
    say!("{}", line(key::join::STATUS_NAME, "name", shown));
    let (delivered, pending) = (delivery.delivered.to_string(), delivery.pending.to_string());
    say!("{}", line(key::join::STATUS_DELIVERED, "n", &delivered));
    say!("{}", line(key::join::STATUS_WAITING, "n", &pending));
    for rejected in &delivery.rejected {
        say!(
            "{}",
            line(key::join::STATUS_FACT_REFUSED, "reason", rejected)
        );
    }
    if let Some(error) = delivery.error {
        // A refusal (wrong code, session full, too many new trainees) is an answer, not an
        // outage: the command fails with it.
        let refusal = match &error {
            HostError::Version(refusal) => Some(JoinRefusal::Version(refusal.clone())),
            // The host's own words remain.
            error => error.refusal().map(|reason| JoinRefusal::Host {
                reason: reason.to_owned(),
            }),
        };
        if let Some(refusal) = refusal {
            return Err(Failure::new(refusal.message(strings)));
        }
        say!(
            "{}",
            line(key::join::STATUS_UNREACHABLE, "reason", &error.to_string())
        );
    }
    Ok(())
}

/// Finds the session that takes `code` whose check digits the learner confirms: after a "no"
/// (or other `--check-digits`) the search goes on to the next session that takes the code, so a
/// fake advertisement that answers first does not block the real one.
fn find_confirmed(
    code: &str,
    typed: Option<&str>,
    strings: &content::Strings,
) -> Result<domain::workshop::JoinUrl, JoinRefusal> {
    let mut declined = Vec::new();
    loop {
        // Each search has its own time: the learner's answers do not eat into it.
        let found = join::find(code, &declined, deadline_in(join::JOIN_MS))?;
        say!(
            "{}",
            strings.fill(key::join::FOUND_AT, &[("address", &found.url.authority())])
        );
        match confirm_digits(&found.digits, typed, strings) {
            Ok(()) => return Ok(found.url),
            Err(JoinRefusal::NotConfirmed { .. }) => {
                say!("{}", strings.get(key::join::NEXT_SESSION));
                declined.push(found.url.fingerprint);
            }
            Err(other) => return Err(other),
        }
    }
}

/// Shows the check digits of the certificate seen and takes the learner's word that the
/// projector shows the same: the typed `--check-digits`, else a y/n line on stdin.
fn confirm_digits(
    seen: &str,
    typed: Option<&str>,
    strings: &content::Strings,
) -> Result<(), JoinRefusal> {
    say!(
        "{}",
        strings.fill(key::join::CHECK_DIGITS, &[("digits", seen)])
    );
    let refused = || JoinRefusal::NotConfirmed {
        digits: seen.to_owned(),
    };
    if let Some(typed) = typed {
        return if same_digits(typed, seen) {
            Ok(())
        } else {
            Err(refused())
        };
    }
    {
        use std::io::Write as _;
        let mut out = std::io::stdout();
        let _ = write!(out, "{} ", strings.get(key::join::CONFIRM_DIGITS));
        let _ = out.flush();
    }
    let mut answer = String::new();
    let _ = std::io::stdin().read_line(&mut answer);
    if matches!(
        answer.trim(),
        "y" | "Y" | "yes" | "j" | "J" | "ja" | "Ja" | "Yes"
    ) {
        Ok(())
    } else {
        Err(refused())
    }
}

/// `queuelab leave`.
pub fn run_leave(cli: &Cli) -> Result<(), Failure> {
    let mut session = Session::open(cli)?;
    let strings = session.course().strings.clone();
    // What waits and the leave itself go to the host before the membership (and its
    // outbox) ends.
    let left = trainee::leave(&mut session.store, deadline_in(FLUSH_MS))
        .map_err(|e| Failure::new(e.to_string()))?;
    say!(
        "{}",
        strings.get(if left {
            key::join::LEFT_CLI
        } else {
            key::join::NOT_JOINED
        })
    );
    Ok(())
}

/// `queuelab stuck [TEXT]`.
pub fn run_stuck(cli: &Cli, words: &[String]) -> Result<(), Failure> {
    let mut session = Session::open(cli)?;
    let strings = session.content.course(session.lang).strings.clone();
    if session
        .store
        .membership()
        .map_err(|e| Failure::new(e.to_string()))?
        .is_none()
    {
        return Err(Failure::usage(strings.get(key::workshop::STUCK_NOT_JOINED)));
    }
    let text: String = words
        .join(" ")
        .chars()
        .take(domain::workshop::MAX_STUCK_CHARS)
        .collect();
    session
        .store
        .queue_event(&EventKind::Stuck {
            screen: "command-line".to_owned(),
            text,
        })
        .map_err(|e| Failure::new(e.to_string()))?;
    let waiting = flush(&mut session.store);
    if waiting == 0 {
        say!("{}", strings.get(key::workshop::STUCK_DELIVERED));
    } else {
        say!("{}", strings.get(key::workshop::STUCK_WAITING));
    }
    Ok(())
}

/// Delivers what waits, for at most 2 s; returns how many facts still wait. Silent when not
/// joined; a note on stderr when the host could not be reached (stdout stays the command's).
pub fn flush(store: &mut Store) -> u32 {
    match trainee::deliver(store, deadline_in(FLUSH_MS), true) {
        Ok(d) => {
            if let Some(error) = &d.error {
                eprintln!(
                    "queuelab: {} fact(s) wait for the workshop host: {error}",
                    d.pending
                );
            }
            d.pending
        }
        Err(error) => {
            eprintln!("queuelab: workshop delivery: {error}");
            1
        }
    }
}

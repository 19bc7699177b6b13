//! `queuelab report --plain`: save the report locally, then the confirmation flow line by line:
//! the address line, the instructor consent (only when the config names an instructor), the
//! code line (`r` for a new code), and the report goes into the outbox and out.

use super::lines::{Lines, Session};
use super::{Cli, Failure};
use content::Strings;
use content::key;
use domain::otp::{IssueDenied, Verdict};
use domain::outbox::{DEFAULT_RETRY, MailKind};
use domain::report::{self, Report};
use domain::send_failure::explain;
use services::mail::{
    self, CodeVault, Dispatcher, MailError, Outcome, ReportFlow, validate_address,
};
use services::store::now_secs;
use std::io::{BufRead, Write};

/// Runs the plain report flow on stdin/stdout; `name` is the learner's display name.
pub fn run(cli: &Cli, plain: bool, name: Option<&str>) -> Result<(), Failure> {
    if !plain {
        return Err(Failure::usage(
            "the report screens are in the workshop (run queuelab); use --plain for the line-by-line flow",
        ));
    }
    let learner = match name.map(report::display_name).transpose() {
        Ok(learner) => learner.flatten(),
        Err(e) => return Err(Failure::usage(format!("--name: {e}"))),
    };
    let mut session = Session::open(cli)?;
    let stdin = std::io::stdin();
    let mut lines = Lines::new(stdin.lock(), std::io::stdout().lock());
    confirm_and_send(&mut session, &mut lines, learner.as_deref())
}

fn fail(e: impl std::fmt::Display) -> Failure {
    Failure::new(e.to_string())
}

/// Builds the report of the newest finished attempt (`learner`: the checked display name).
pub fn build_report(
    session: &Session,
    learner: Option<&str>,
) -> Result<Option<(i64, Report)>, Failure> {
    mail::latest_report(
        &session.store,
        &session.content,
        session.lang,
        session.config.workshop.name.as_deref(),
        learner,
        now_secs(),
    )
    .map_err(fail)
}

/// The whole flow over any reader and writer.
pub fn confirm_and_send<R: BufRead, W: Write>(
    session: &mut Session,
    lines: &mut Lines<R, W>,
    learner: Option<&str>,
) -> Result<(), Failure> {
    let s = session.course().strings.clone();
    let Some((attempt_id, report)) = build_report(session, learner)? else {
        return Err(Failure::new(s.get(key::report::NEED_QUIZ)));
    };
    let saved_at =
        mail::save_report(&session.paths.reports_dir(), attempt_id, &report).map_err(fail)?;
    lines.say(&s.fill(
        key::report::SAVED_LOCAL,
        &[("path", &saved_at.display().to_string())],
    ))?;
    // Joined to a workshop: the host holds the mail settings and the one-time codes.
    if let Some(member) = session.store.membership().map_err(fail)? {
        return super::report_host::confirm_and_send(session, lines, &member, &report);
    }
    let mail_config = &session.config.mail;
    let from = mail::from_mailbox(mail_config.from.as_deref()).map_err(fail)?;
    let vault = CodeVault::shared();
    let flow = ReportFlow {
        key: mail::load_or_create_key(&session.paths.otp_key_file()).map_err(fail)?,
        vault: vault.clone(),
        from: from.clone(),
        instructor_cc: session.config.workshop.instructor_cc.clone(),
    };
    let transport = mail::from_config(mail_config, &session.paths.mail_dir()).map_err(fail)?;
    let dispatcher = Dispatcher::new(transport, from, vault, DEFAULT_RETRY);
    let address = loop {
        let Some(line) = lines.ask(s.get(key::report::ADDRESS_PROMPT))? else {
            return eof(lines, &s);
        };
        match validate_address(&line) {
            Ok(address) => break address,
            Err(e) => lines.say(s.get(e.key()))?,
        }
    };
    let mut consent = false;
    if let Some(cc) = &flow.instructor_cc {
        lines.say(s.get(key::report::CC_HINT))?;
        let Some(answer) = lines.ask(&s.fill(key::report::CC_PROMPT, &[("cc", cc)]))? else {
            return eof(lines, &s);
        };
        consent = is_yes(&answer);
    }
    request(session, lines, &s, &flow, &dispatcher, &address, attempt_id)?;
    loop {
        // A code mail that failed earlier goes out as soon as its retry is due.
        dispatch(session, lines, &s, &dispatcher)?;
        let Some(line) = lines.ask(s.get(key::report::CODE_PROMPT))? else {
            return eof(lines, &s);
        };
        if line.trim().eq_ignore_ascii_case("r") {
            request(session, lines, &s, &flow, &dispatcher, &address, attempt_id)?;
            continue;
        }
        let now = now_secs();
        let verdict = flow
            .confirm_code(&mut session.store, &address, &line, now, consent, &report)
            .map_err(fail)?;
        let message = s.fill(
            verdict.key(),
            &[
                ("remaining", &remaining(verdict)),
                ("secs", &locked_secs(verdict)),
            ],
        );
        lines.say(&message)?;
        match verdict {
            Verdict::Accepted { .. } => {
                lines.say(&s.fill(key::report::QUEUED, &[("address", &address)]))?;
                dispatch(session, lines, &s, &dispatcher)?;
                return Ok(());
            }
            Verdict::Locked { .. } => return Err(Failure::new(message)),
            _ => {}
        }
    }
}

/// A yes to a consent question, in either language.
pub(super) fn is_yes(answer: &str) -> bool {
    matches!(answer.trim(), "y" | "Y" | "yes" | "j" | "J" | "ja")
}

fn remaining(verdict: Verdict) -> String {
    match verdict {
        Verdict::Wrong { remaining } => remaining.to_string(),
        _ => String::new(),
    }
}

fn locked_secs(verdict: Verdict) -> String {
    match verdict {
        Verdict::Locked { wait_secs } => wait_secs.to_string(),
        _ => String::new(),
    }
}

fn eof<R: BufRead, W: Write>(lines: &mut Lines<R, W>, s: &Strings) -> Result<(), Failure> {
    lines.say(s.get(key::report::EOF))
}

/// Asks for a code and sends its mail at once.
fn request<R: BufRead, W: Write>(
    session: &mut Session,
    lines: &mut Lines<R, W>,
    s: &Strings,
    flow: &ReportFlow,
    dispatcher: &Dispatcher,
    address: &str,
    attempt_id: i64,
) -> Result<(), Failure> {
    let issued = flow
        .request_code(&mut session.store, s, address, attempt_id, now_secs())
        .map_err(|e: MailError| fail(e))?;
    match issued {
        Ok(_) => {
            lines.say(&s.fill(key::report::CODE_SENT, &[("address", address)]))?;
            dispatch(session, lines, s, dispatcher)
        }
        // A code from an earlier mail may still be valid: keep asking for it.
        Err(
            denied @ (IssueDenied::Cooldown { .. }
            | IssueDenied::HourlyLimit { .. }
            | IssueDenied::MachineLimit { .. }),
        ) => lines.say(&s.fill(denied.key(), &[("secs", &denied.wait_secs().to_string())])),
        Err(denied) => Err(Failure::new(
            s.fill(denied.key(), &[("secs", &denied.wait_secs().to_string())]),
        )),
    }
}

/// Sends what is due and says what happened to each mail.
fn dispatch<R: BufRead, W: Write>(
    session: &mut Session,
    lines: &mut Lines<R, W>,
    s: &Strings,
    dispatcher: &Dispatcher,
) -> Result<(), Failure> {
    let outcomes = dispatcher
        .run_due(&mut session.store, now_secs())
        .map_err(fail)?;
    let file_transport = dispatcher.describe().starts_with("file ");
    for outcome in outcomes {
        match outcome {
            Outcome::Sent { kind, to, .. } => {
                if file_transport {
                    lines.say(&s.fill(key::mail::FILE_WRITTEN, &[("path", &to)]))?;
                }
                if kind == MailKind::Report {
                    let request = session.store.report_request().map_err(fail)?;
                    let address = request.map(|r| r.address).unwrap_or_default();
                    lines.say(&s.fill(key::report::SENT, &[("address", &address)]))?;
                }
            }
            Outcome::Retry { reason, .. } => {
                let why = explain(&reason, s);
                lines.say(&s.fill(key::mail::RETRY_LATER, &[("reason", &why)]))?;
            }
            Outcome::Failed { reason, .. } => {
                let why = explain(&reason, s);
                lines.say(&s.fill(key::mail::STATUS_FAILED, &[("reason", &why)]))?;
            }
        }
    }
    Ok(())
}

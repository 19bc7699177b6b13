//! `queuelab report --plain` while joined to a workshop: the address goes to the host, which
//! issues and checks the one-time code and sends the report with its own mail configuration.
//! This machine needs no SMTP settings; the prompts and messages are the local flow's.

use super::Failure;
use super::host_cmd::host_failure_in;
use super::lines::{Lines, Session};
use content::key;
use content::{Key, Strings};
use domain::report::Report;
use domain::workshop::wire::{Caller, CodeReply, CodeRequest, ReportSubmit, SendReply};
use services::HostClient;
use services::mail::validate_address;
use services::store::Membership;
use std::io::{BufRead, Write};

/// A reply's words: the UI string `key` filled with the address, the tries left and the
/// seconds to wait.
fn say_reply<R: BufRead, W: Write>(
    lines: &mut Lines<R, W>,
    s: &Strings,
    key: Key,
    address: &str,
    remaining: Option<usize>,
    wait_secs: Option<i64>,
) -> Result<String, Failure> {
    let remaining = remaining.map(|r| r.to_string()).unwrap_or_default();
    let secs = wait_secs.map(|w| w.to_string()).unwrap_or_default();
    let message = s.fill(
        key,
        &[
            ("address", address),
            ("remaining", &remaining),
            ("secs", &secs),
        ],
    );
    lines.say(&message)?;
    Ok(message)
}

/// What the trainee reads for the host's answer to a code request.
fn say_code_reply<R: BufRead, W: Write>(
    lines: &mut Lines<R, W>,
    s: &Strings,
    reply: CodeReply,
    address: &str,
) -> Result<String, Failure> {
    match reply.outcome() {
        Ok(_) => say_reply(lines, s, key::report::CODE_SENT, address, None, None),
        Err(denied) => say_reply(
            lines,
            s,
            denied.key(),
            address,
            None,
            Some(denied.wait_secs()),
        ),
    }
}

/// What the trainee reads for the host's verdict on a typed code.
fn say_send_reply<R: BufRead, W: Write>(
    lines: &mut Lines<R, W>,
    s: &Strings,
    reply: SendReply,
    address: &str,
) -> Result<String, Failure> {
    let (remaining, wait_secs) = match reply {
        SendReply::Wrong { remaining } => (Some(remaining), None),
        SendReply::Locked { wait_secs } => (None, Some(wait_secs)),
        _ => (None, None),
    };
    say_reply(
        lines,
        s,
        reply.verdict().key(),
        address,
        remaining,
        wait_secs,
    )
}

/// The report flow through the workshop host.
pub fn confirm_and_send<R: BufRead, W: Write>(
    session: &Session,
    lines: &mut Lines<R, W>,
    member: &Membership,
    report: &Report,
) -> Result<(), Failure> {
    let s = &session.course().strings;
    let host = HostClient::new(member.url.clone());
    let caller = Caller {
        code: member.url.code.clone(),
        trainee: member.trainee_id.clone(),
        token: member.token.clone(),
    };
    let address = loop {
        let Some(line) = lines.ask(s.get(key::report::ADDRESS_PROMPT))? else {
            return lines.say(s.get(key::report::EOF));
        };
        match validate_address(&line) {
            Ok(address) => break address,
            Err(e) => lines.say(s.get(e.key()))?,
        }
    };
    // Asked once, when the host's first answer says it offers a copy to its instructor.
    let mut consent: Option<bool> = None;
    let ask_code = |lines: &mut Lines<R, W>, consent: &mut Option<bool>| -> Result<(), Failure> {
        let req = CodeRequest {
            caller: caller.clone(),
            address: address.clone(),
            lang: session.lang,
        };
        let reply = host
            .request_code(&req)
            .map_err(|e| host_failure_in(s, &e))?;
        let message = say_code_reply(lines, s, reply, &address)?;
        if reply.done() {
            return Err(Failure::new(message));
        }
        if reply.outcome().is_ok_and(|issued| issued.copy_offered) && consent.is_none() {
            *consent = Some(ask_consent(lines, s)?);
        }
        Ok(())
    };
    ask_code(lines, &mut consent)?;
    loop {
        let Some(line) = lines.ask(s.get(key::report::CODE_PROMPT))? else {
            return lines.say(s.get(key::report::EOF));
        };
        if line.trim().eq_ignore_ascii_case("r") {
            ask_code(lines, &mut consent)?;
            continue;
        }
        let submit = ReportSubmit {
            caller: caller.clone(),
            address: address.clone(),
            typed: line,
            report: report.clone(),
            instructor_copy: consent.unwrap_or(false),
        };
        let reply = host
            .submit_report(&submit)
            .map_err(|e| host_failure_in(s, &e))?;
        let message = say_send_reply(lines, s, reply, &address)?;
        if let SendReply::Accepted { sent } = reply {
            let key = if sent {
                key::report::SENT
            } else {
                key::report::QUEUED
            };
            return lines.say(&s.fill(key, &[("address", &address)]));
        }
        if reply.done() {
            return Err(Failure::new(message));
        }
    }
}

/// Whether the trainee agrees to a copy for the host's instructor (the address stays on the
/// host). Anything but yes, and the end of input, is no.
fn ask_consent<R: BufRead, W: Write>(
    lines: &mut Lines<R, W>,
    s: &Strings,
) -> Result<bool, Failure> {
    lines.say(s.get(key::report::CC_HINT))?;
    let answer = lines.ask(s.get(key::report::CC_PROMPT_HOST))?;
    Ok(answer.is_some_and(|a| super::report_cmd::is_yes(&a)))
}

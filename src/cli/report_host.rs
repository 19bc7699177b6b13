//! `queuelab report --plain` while joined to a workshop: the address goes to the host, which
//! issues and checks the one-time code and sends the report with its own mail configuration.
//! This machine needs no SMTP settings; the prompts and messages are the local flow's.

use super::Failure;
use super::lines::{Lines, Session};
use content::Strings;
use content::key;
use domain::report::Report;
use domain::workshop::wire::{Caller, CodeRequest, MailReply, ReportSubmit};
use services::mail::validate_address;
use services::store::Membership;
use services::trainee::client::relay_mail;
use std::io::{BufRead, Write};

fn post<T: serde::Serialize>(
    member: &Membership,
    path: &str,
    body: &T,
) -> Result<MailReply, Failure> {
    relay_mail(&member.url, path, body).map_err(Failure::new)
}

fn say_reply<R: BufRead, W: Write>(
    lines: &mut Lines<R, W>,
    s: &Strings,
    reply: &MailReply,
    address: &str,
) -> Result<String, Failure> {
    let remaining = reply.remaining.map(|r| r.to_string()).unwrap_or_default();
    let secs = reply.wait_secs.map(|w| w.to_string()).unwrap_or_default();
    let args = [
        ("address", address),
        ("remaining", remaining.as_str()),
        ("secs", secs.as_str()),
    ];
    // wire reply carries a key: one this version does not know is shown as it came.
    let message =
        content::Key::parse(&reply.key).map_or_else(|| reply.key.clone(), |key| s.fill(key, &args));
    lines.say(&message)?;
    Ok(message)
}

/// The report flow through the workshop host.
pub fn confirm_and_send<R: BufRead, W: Write>(
    session: &Session,
    lines: &mut Lines<R, W>,
    member: &Membership,
    report: &Report,
) -> Result<(), Failure> {
    let s = &session.course().strings;
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
        let reply = post(member, "/api/report/code", &req)?;
        let message = say_reply(lines, s, &reply, &address)?;
        if reply.done {
            return Err(Failure::new(message));
        }
        if reply.copy_offered && consent.is_none() {
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
        let reply = post(member, "/api/report/send", &submit)?;
        let message = say_reply(lines, s, &reply, &address)?;
        if reply.key == key::otp::ACCEPTED.name() {
            let key = if reply.sent {
                key::report::SENT
            } else {
                key::report::QUEUED
            };
            return lines.say(&s.fill(key, &[("address", &address)]));
        }
        if reply.done {
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

//! `queuelab report --plain` while joined to a workshop: the address goes to the host, which
//! issues and checks the one-time code and sends the report with its own mail configuration.
//! This machine needs no SMTP settings; the prompts and messages are the local flow's.

use super::Failure;
use super::lines::{Lines, Session};
use content::Strings;
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
    let message = s.fill(
        &reply.key,
        &[
            ("address", address),
            ("remaining", &remaining),
            ("secs", &secs),
        ],
    );
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
        let Some(line) = lines.ask(s.get("report.address_prompt"))? else {
            return lines.say(s.get("report.eof"));
        };
        match validate_address(&line) {
            Ok(address) => break address,
            Err(e) => lines.say(s.get(e.key()))?,
        }
    };
    let ask_code = |lines: &mut Lines<R, W>| -> Result<(), Failure> {
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
        Ok(())
    };
    ask_code(lines)?;
    loop {
        let Some(line) = lines.ask(s.get("report.code_prompt"))? else {
            return lines.say(s.get("report.eof"));
        };
        if line.trim().eq_ignore_ascii_case("r") {
            ask_code(lines)?;
            continue;
        }
        let submit = ReportSubmit {
            caller: caller.clone(),
            address: address.clone(),
            typed: line,
            report: report.clone(),
        };
        let reply = post(member, "/api/report/send", &submit)?;
        let message = say_reply(lines, s, &reply, &address)?;
        if reply.key == "otp.accepted" {
            let key = if reply.sent {
                "report.sent"
            } else {
                "report.queued"
            };
            return lines.say(&s.fill(key, &[("address", &address)]));
        }
        if reply.done {
            return Err(Failure::new(message));
        }
    }
}

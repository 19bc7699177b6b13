//! The TUI's report flow while joined to a workshop: the address, the typed code and the report
//! go to the host, which issues and checks the code (its limits, not this machine's) and sends
//! the mail with its own configuration. The host answers with the same string keys the local
//! flow uses; they become the same messages, so the report screen works unchanged.

use app::{CodeRequestOutcome, Delivery, Msg};
use content::Lang;
use content::key;
use domain::otp::Verdict;
use domain::outbox::MailStatus;
use domain::report::Report;
use domain::workshop::wire::{Caller, CodeRequest, MailReply, ReportSubmit};
use services::store::Membership;
use services::trainee::client::relay_mail;

/// The refusals of a code request, as `IssueDenied` names them.
const DENIED_KEYS: [content::Key; 5] = [
    key::otp::COOLDOWN,
    key::otp::HOURLY_LIMIT,
    key::otp::MACHINE_LIMIT,
    key::otp::ROOM_LIMIT,
    key::otp::LOCKED,
];

fn caller(member: &Membership) -> Caller {
    Caller {
        code: member.url.code.clone(),
        trainee: member.trainee_id.clone(),
        token: member.token.clone(),
    }
}

fn post<T: serde::Serialize>(
    member: &Membership,
    path: &str,
    body: &T,
) -> Result<MailReply, String> {
    relay_mail(&member.url, path, body)
}

/// Asks the host for a code to `address`.
pub fn request_code(
    member: &Membership,
    address: &str,
    lang: Lang,
) -> Result<CodeRequestOutcome, String> {
    let reply = post(
        member,
        "/api/report/code",
        &CodeRequest {
            caller: caller(member),
            address: address.to_owned(),
            lang,
        },
    )?;
    code_outcome(&reply)
}

/// Hands the typed code and the report to the host; the verdict, and when accepted the
/// report's new status for the screen. `consent`: the trainee agreed to a copy for the host's
/// instructor.
pub fn submit(
    member: &Membership,
    address: &str,
    typed: &str,
    consent: bool,
    report: &Report,
) -> Result<(Verdict, Option<Msg>), String> {
    let reply = post(
        member,
        "/api/report/send",
        &ReportSubmit {
            caller: caller(member),
            address: address.to_owned(),
            typed: typed.to_owned(),
            report: report.clone(),
            instructor_copy: consent,
        },
    )?;
    let verdict = verdict(&reply)?;
    let status = matches!(verdict, Verdict::Accepted { .. }).then(|| {
        let (status, delivery) = if reply.sent {
            (MailStatus::Sent, Delivery::Smtp)
        } else {
            let why = "the workshop host queued it and retries".to_owned();
            (MailStatus::Queued, Delivery::Retry(why))
        };
        Msg::MailUpdated {
            report: Some(status),
            delivery: Some(delivery),
        }
    });
    Ok((verdict, status))
}

fn code_outcome(reply: &MailReply) -> Result<CodeRequestOutcome, String> {
    if reply.key == key::report::CODE_SENT.name() {
        let delivery = if reply.sent {
            Delivery::Smtp
        } else {
            Delivery::Retry("the workshop host retries".to_owned())
        };
        return Ok(if reply.copy_offered {
            CodeRequestOutcome::SentCopyOffered(delivery)
        } else {
            CodeRequestOutcome::Sent(delivery)
        });
    }
    // wire reply carries a key
    match DENIED_KEYS.iter().find(|k| k.name() == reply.key) {
        Some(key) => Ok(CodeRequestOutcome::Denied {
            key: *key,
            secs: reply.wait_secs.unwrap_or(0),
        }),
        None => Err(format!("the workshop host answered {:?}", reply.key)),
    }
}

fn verdict(reply: &MailReply) -> Result<Verdict, String> {
    // wire reply carries a key
    let answered = || format!("the workshop host answered {:?}", reply.key);
    Ok(
        match content::Key::parse(&reply.key).ok_or_else(answered)? {
            // The host keeps the code's id; the screen only needs "accepted".
            key::otp::ACCEPTED => Verdict::Accepted { code_id: 0 },
            key::otp::WRONG => Verdict::Wrong {
                remaining: reply.remaining.unwrap_or(0),
            },
            key::otp::MALFORMED => Verdict::Malformed,
            key::otp::EXPIRED => Verdict::Expired,
            key::otp::USED => Verdict::AlreadyUsed,
            key::otp::LOCKED => Verdict::Locked {
                wait_secs: reply.wait_secs.unwrap_or(0),
            },
            key::otp::NO_CODE => Verdict::NoCode,
            _ => return Err(answered()),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hosts_keys_become_the_local_flows_answers() {
        let reply = |key: &str| MailReply {
            key: key.into(),
            remaining: Some(2),
            wait_secs: Some(30),
            sent: true,
            done: false,
            copy_offered: false,
        };
        assert_eq!(
            code_outcome(&reply("report.code_sent")),
            Ok(CodeRequestOutcome::Sent(Delivery::Smtp))
        );
        assert_eq!(
            code_outcome(&reply("otp.cooldown")),
            Ok(CodeRequestOutcome::Denied {
                key: key::otp::COOLDOWN,
                secs: 30
            })
        );
        assert!(code_outcome(&reply("nonsense")).is_err());
        assert_eq!(
            verdict(&reply("otp.wrong")),
            Ok(Verdict::Wrong { remaining: 2 })
        );
        assert_eq!(
            verdict(&reply("otp.locked")),
            Ok(Verdict::Locked { wait_secs: 30 })
        );
        assert_eq!(
            verdict(&reply("otp.accepted")),
            Ok(Verdict::Accepted { code_id: 0 })
        );
        assert!(verdict(&reply("report.code_sent")).is_err());
    }
}

//! The TUI's report flow while joined to a workshop: the address, the typed code and the report
//! go to the host, which issues and checks the code (its limits, not this machine's) and sends
//! the mail with its own configuration. The host's tagged replies become the local flow's
//! outcomes, so the report screen works unchanged.

use app::{CodeRequestOutcome, Delivery, MailFlowError, Msg};
use content::Lang;
use domain::otp::Verdict;
use domain::outbox::MailStatus;
use domain::report::Report;
use domain::workshop::wire::{Caller, CodeReply, CodeRequest, Issued, ReportSubmit, SendReply};
use services::store::Membership;
use services::{HostClient, HostError};

/// A failed call to the host as the report screen's reason: a host of another protocol stays
/// a type, so the screen names the version to install in the learner's language.
pub fn flow_error(e: HostError) -> MailFlowError {
    match e {
        HostError::Version(refusal) => MailFlowError::HostVersion(refusal),
        other => MailFlowError::Failed(other.to_string()),
    }
}

fn caller(member: &Membership) -> Caller {
    Caller {
        code: member.url.code.clone(),
        trainee: member.trainee_id.clone(),
        token: member.token.clone(),
    }
}

/// Asks the host for a code to `address`.
pub fn request_code(
    member: &Membership,
    address: &str,
    lang: Lang,
) -> Result<CodeRequestOutcome, HostError> {
    let reply = HostClient::new(member.url.clone()).request_code(&CodeRequest {
        caller: caller(member),
        address: address.to_owned(),
        lang,
    })?;
    Ok(code_outcome(reply))
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
) -> Result<(Verdict, Option<Msg>), HostError> {
    let reply = HostClient::new(member.url.clone()).submit_report(&ReportSubmit {
        caller: caller(member),
        address: address.to_owned(),
        typed: typed.to_owned(),
        report: report.clone(),
        instructor_copy: consent,
    })?;
    Ok((reply.verdict(), report_status(reply)))
}

/// The report's status after the host accepted the code: sent, or queued on the host.
fn report_status(reply: SendReply) -> Option<Msg> {
    let SendReply::Accepted { sent } = reply else {
        return None;
    };
    let (status, delivery) = if sent {
        (MailStatus::Sent, Delivery::Smtp)
    } else {
        let why = "the workshop host queued it and retries".to_owned();
        (MailStatus::Queued, Delivery::Retry(why))
    };
    Some(Msg::MailUpdated {
        report: Some(status),
        delivery: Some(delivery),
    })
}

fn code_outcome(reply: CodeReply) -> CodeRequestOutcome {
    match reply.outcome() {
        Ok(Issued { sent, copy_offered }) => {
            let delivery = if sent {
                Delivery::Smtp
            } else {
                Delivery::Retry("the workshop host retries".to_owned())
            };
            if copy_offered {
                CodeRequestOutcome::SentCopyOffered(delivery)
            } else {
                CodeRequestOutcome::Sent(delivery)
            }
        }
        Err(denied) => CodeRequestOutcome::Denied {
            key: denied.key(),
            secs: denied.wait_secs(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use content::key;

    #[test]
    fn the_hosts_replies_become_the_local_flows_answers() {
        assert_eq!(
            code_outcome(CodeReply::Issued {
                sent: true,
                copy_offered: false
            }),
            CodeRequestOutcome::Sent(Delivery::Smtp)
        );
        assert_eq!(
            code_outcome(CodeReply::Cooldown { wait_secs: 30 }),
            CodeRequestOutcome::Denied {
                key: key::otp::COOLDOWN,
                secs: 30
            }
        );
        assert_eq!(
            code_outcome(CodeReply::OtherAddress { wait_secs: 7 }),
            CodeRequestOutcome::Denied {
                key: key::otp::OTHER_ADDRESS,
                secs: 7
            }
        );
        assert!(report_status(SendReply::Wrong { remaining: 2 }).is_none());
        assert!(report_status(SendReply::Accepted { sent: false }).is_some());
    }
}

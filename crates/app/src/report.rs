//! The report screen: address entry with an optional display name beside it (Tab switches),
//! the instructor consent (only when the workshop names an instructor), code entry with
//! remaining tries, and the sending status.

use super::input::{Key, KeyCode};
use super::msg::{CodeRequestOutcome, Delivery, MailFlowError, SaveError};
use super::{Effect, MailRequest, Screen, Session};
use content::key;
use domain::address;
use domain::otp::{MAX_FAILURES, OneTimeCode, Verdict};
use domain::report::{MAX_NAME_CHARS, display_name};
use domain::send_failure::explain;
use domain::workshop::wire::RefusedAt;

/// Longest text the entry field takes (an address cannot be longer).
const MAX_INPUT: usize = address::MAX_LEN + 8;

/// Where the report flow is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportPhase {
    /// Typing the address.
    Address,
    /// Asking whether the instructor gets a copy.
    Consent,
    /// Typing the code from the mail.
    Code,
    /// The report is queued or sent.
    Done,
}

/// Who offers the copy for the instructor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CopyOffer {
    /// This machine's config names the instructor: asked before the code is requested.
    #[default]
    Config,
    /// The workshop host offers it (the address stays on the host): asked after its first
    /// code, once, with the code already on its way.
    Host,
}

/// The report screen's own state. The typed code is never kept here after Enter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportState {
    /// Where the flow is.
    pub phase: ReportPhase,
    /// The text being typed.
    pub input: String,
    /// The display name being typed (beside the address; empty means no name).
    pub name: String,
    /// Whether typing goes into the name field (Tab switches while the address is asked).
    pub name_focus: bool,
    /// The checked display name the report carries (set with the address).
    pub learner: Option<String>,
    /// The confirmed address.
    pub address: String,
    /// Whether the instructor copy was agreed to.
    pub consent: bool,
    /// Whose offer the consent question answers.
    pub copy_offer: CopyOffer,
    /// Wrong tries left (after the first wrong one).
    pub remaining: usize,
    /// Lines to show under the field: (text, is error).
    pub messages: Vec<(String, bool)>,
    /// Where the local copy of the report was saved.
    pub saved_at: Option<String>,
    /// A request is on its way (input is ignored meanwhile).
    pub busy: bool,
    /// The wait before a new code may be asked for, counting down on the screen.
    pub wait: Option<Wait>,
}

/// A refusal that names a wait ("a new code is possible in 33 s"): its line counts down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    /// The string key of the line.
    pub key: content::Key,
    /// Time left, ms.
    pub ms_left: u64,
    /// The line as shown now (replaced on every second).
    pub shown: String,
}

/// How often the countdown line is redrawn.
pub const WAIT_TICK_MS: u32 = 250;

/// Time passed: the wait line shows the seconds left, and says so once the wait is over.
pub fn on_tick(s: &mut ReportState, session: &Session, elapsed_ms: u32) -> Vec<Effect> {
    let Some(wait) = s.wait.as_mut() else {
        return Vec::new();
    };
    wait.ms_left = wait.ms_left.saturating_sub(u64::from(elapsed_ms));
    let text = if wait.ms_left == 0 {
        session.strings().get(key::otp::COOLDOWN_OVER).to_owned()
    } else {
        let secs = wait.ms_left.div_ceil(1000).to_string();
        session.strings().fill(wait.key, &[("secs", &secs)])
    };
    if text != wait.shown {
        if let Some(line) = s.messages.iter_mut().find(|(t, _)| *t == wait.shown) {
            *line = (text.clone(), wait.ms_left > 0);
        }
        wait.shown = text;
    }
    if wait.ms_left == 0 {
        s.wait = None;
    }
    Vec::new()
}

/// Opens the report screen (the quiz must be finished) and saves the local copy.
pub fn open(session: &mut Session) -> Vec<Effect> {
    if !session.quiz.finished {
        let text = session.strings().get(key::report::NEED_QUIZ).to_owned();
        session.notify(text, true);
        return Vec::new();
    }
    // The name given on an earlier request is offered again.
    let name = session.report_name.clone();
    session.push(Screen::Report(ReportState {
        phase: ReportPhase::Address,
        input: String::new(),
        name: name.clone().unwrap_or_default(),
        name_focus: false,
        learner: None,
        address: String::new(),
        consent: false,
        copy_offer: CopyOffer::Config,
        remaining: MAX_FAILURES,
        messages: Vec::new(),
        saved_at: None,
        busy: false,
        wait: None,
    }));
    vec![Effect::Mail(MailRequest::SaveReport {
        lang: session.lang,
        name,
    })]
}

fn say(
    s: &mut ReportState,
    session: &Session,
    key: content::Key,
    args: &[(&str, &str)],
    error: bool,
) {
    let text = session.strings().fill(key, args);
    // Progress supersedes earlier complaints: "Code confirmed." must not stand below "The code
    // has exactly 6 digits." from a typo that was already corrected.
    if !error {
        s.messages.retain(|(_, was_error)| !was_error);
    }
    // A line said again (a new code after `r`) moves to the bottom instead of standing twice.
    s.messages.retain(|(said, _)| *said != text);
    s.messages.push((text, error));
    // Keep the last few lines; older ones scroll away.
    let excess = s.messages.len().saturating_sub(4);
    s.messages.drain(..excess);
}

fn request_code(s: &ReportState, lang: content::Lang) -> Effect {
    Effect::Mail(MailRequest::RequestCode {
        address: s.address.clone(),
        lang,
    })
}

/// Whether the screen takes typed characters (everything but Done).
pub fn captures_keys(state: &ReportState) -> bool {
    state.phase != ReportPhase::Done
}

/// Keys while typing: characters, Backspace, Enter, Esc (back).
pub fn on_captured_key(s: &mut ReportState, session: &mut Session, key: Key) -> Vec<Effect> {
    let lang = session.lang;
    if key.code == KeyCode::Esc {
        session.back();
        return Vec::new();
    }
    // `?` opens the help as the legend promises; no code and practically no address has one.
    if key.code == KeyCode::Char('?') {
        session.help = true;
        return Vec::new();
    }
    if s.busy {
        return Vec::new();
    }
    if s.phase == ReportPhase::Address
        && let Some(effects) = on_address_key(s, session, key.code)
    {
        return effects;
    }
    match (s.phase, key.code) {
        (ReportPhase::Consent, KeyCode::Char(c)) => {
            s.consent = matches!(c, 'y' | 'Y' | 'j' | 'J');
            s.phase = ReportPhase::Code;
            if s.copy_offer == CopyOffer::Host {
                return Vec::new();
            }
            s.busy = true;
            vec![request_code(s, lang)]
        }
        (ReportPhase::Code, KeyCode::Char('r' | 'R')) if s.input.is_empty() => {
            s.busy = true;
            vec![request_code(s, lang)]
        }
        (_, KeyCode::Char(c)) => {
            if s.input.chars().count() < MAX_INPUT && !c.is_control() {
                s.input.push(c);
            }
            Vec::new()
        }
        (_, KeyCode::Backspace) => {
            s.input.pop();
            Vec::new()
        }
        (ReportPhase::Address, KeyCode::Enter) => submit_address(s, session),
        (ReportPhase::Code, KeyCode::Enter) if !s.input.trim().is_empty() => {
            // The typed code leaves the screen state at once.
            let code = OneTimeCode::typed(&std::mem::take(&mut s.input));
            s.busy = true;
            vec![Effect::Mail(MailRequest::ConfirmCode {
                address: s.address.clone(),
                code,
                consent: s.consent,
                lang,
                name: s.learner.clone(),
            })]
        }
        _ => Vec::new(),
    }
}

/// Enter on the address: a valid name and address are kept (and the local copy saved again with
/// the name); then the copy question, or at once the code request. A bad one is said on screen.
fn submit_address(s: &mut ReportState, session: &mut Session) -> Vec<Effect> {
    let lang = session.lang;
    // Joined, the host's config alone decides whether a copy is offered.
    let cc = session.instructor_cc.is_some() && session.workshop.is_none();
    let learner = match display_name(&s.name) {
        Ok(learner) => learner,
        Err(e) => {
            s.name_focus = true;
            say(s, session, e.key(), &[], true);
            return Vec::new();
        }
    };
    match address::validate(&s.input) {
        Ok(valid) => {
            s.address = valid;
            s.input.clear();
            s.messages.clear();
            // The local copy was saved without a name; save it again with it.
            let mut effects: Vec<Effect> = learner
                .iter()
                .map(|name| {
                    Effect::Mail(MailRequest::SaveReport {
                        lang,
                        name: Some(name.clone()),
                    })
                })
                .collect();
            session.report_name.clone_from(&learner);
            s.learner = learner;
            if cc {
                s.phase = ReportPhase::Consent;
            } else {
                s.phase = ReportPhase::Code;
                s.busy = true;
                effects.push(request_code(s, lang));
            }
            effects
        }
        Err(e) => {
            say(s, session, e.key(), &[], true);
            Vec::new()
        }
    }
}

/// The name field while the address is asked: Tab/Shift+Tab switch fields, typing goes into
/// the name, Enter in the name moves on to the address. None: the key is the address field's.
fn on_address_key(s: &mut ReportState, session: &Session, code: KeyCode) -> Option<Vec<Effect>> {
    match code {
        KeyCode::Tab | KeyCode::BackTab => s.name_focus = !s.name_focus,
        _ if !s.name_focus => return None,
        KeyCode::Char(c) if s.name.chars().count() < MAX_NAME_CHARS && !c.is_control() => {
            s.name.push(c);
        }
        KeyCode::Backspace => {
            s.name.pop();
        }
        KeyCode::Enter => match display_name(&s.name) {
            Ok(_) => {
                s.messages.retain(|(_, error)| !error);
                s.name_focus = false;
            }
            Err(e) => say(s, session, e.key(), &[], true),
        },
        _ => {}
    }
    Some(Vec::new())
}

/// The local copy was saved (or not).
pub fn report_saved(s: &mut ReportState, session: &Session, result: Result<String, SaveError>) {
    match result {
        Ok(path) => {
            say(
                s,
                session,
                key::report::SAVED_LOCAL,
                &[("path", &path)],
                false,
            );
            s.saved_at = Some(path);
        }
        Err(e) => say(
            s,
            session,
            key::common::SAVE_FAILED,
            &[("reason", &e.describe(session.strings()))],
            true,
        ),
    }
}

/// The answer to a code request.
pub fn code_requested(
    s: &mut ReportState,
    session: &Session,
    outcome: Result<CodeRequestOutcome, MailFlowError>,
) {
    s.busy = false;
    match outcome {
        Ok(CodeRequestOutcome::SentCopyOffered(delivery)) => {
            code_requested(s, session, Ok(CodeRequestOutcome::Sent(delivery)));
            if s.copy_offer == CopyOffer::Config {
                s.copy_offer = CopyOffer::Host;
                s.phase = ReportPhase::Consent;
            }
        }
        Ok(CodeRequestOutcome::Sent(delivery)) => {
            let address = s.address.clone();
            say(
                s,
                session,
                key::report::CODE_SENT,
                &[("address", &address)],
                false,
            );
            delivered(s, session, &delivery);
        }
        Ok(CodeRequestOutcome::Denied { key, secs }) => {
            say(s, session, key, &[("secs", &secs.to_string())], true);
            // The cooldown counts down where the learner reads it.
            s.wait = (key == key::otp::COOLDOWN && secs > 0).then(|| Wait {
                key,
                ms_left: u64::try_from(secs).unwrap_or(0) * 1000,
                shown: session.strings().fill(key, &[("secs", &secs.to_string())]),
            });
        }
        Ok(CodeRequestOutcome::Invalid { key }) => {
            say(s, session, key, &[], true);
            s.phase = ReportPhase::Address;
        }
        Err(e) => say_failure(s, session, &e),
    }
}

/// Why the flow got no answer; a workshop host of another protocol names the version to
/// install.
fn say_failure(s: &mut ReportState, session: &Session, e: &MailFlowError) {
    match e {
        MailFlowError::Failed(reason) => say(
            s,
            session,
            key::common::SAVE_FAILED,
            &[("reason", reason)],
            true,
        ),
        MailFlowError::HostVersion(refusal) => {
            let values = refusal.values();
            let pairs: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
            say(s, session, refusal.key(RefusedAt::Host), &pairs, true);
        }
    }
}

/// Says where a mail went (file path, retry reason).
pub fn delivered(s: &mut ReportState, session: &Session, delivery: &Delivery) {
    match delivery {
        Delivery::File(path) => say(
            s,
            session,
            key::mail::FILE_WRITTEN,
            &[("path", path)],
            false,
        ),
        Delivery::Smtp => {}
        // The server's raw words stay in the log; the screen says them in a sentence of the
        // learner's language.
        Delivery::Retry(reason) => {
            let why = explain(reason, session.strings());
            say(
                s,
                session,
                key::mail::RETRY_LATER,
                &[("reason", &why)],
                true,
            );
        }
        Delivery::Failed(reason) => {
            let why = explain(reason, session.strings());
            say(
                s,
                session,
                key::mail::STATUS_FAILED,
                &[("reason", &why)],
                true,
            );
        }
    }
}

/// The report went out.
pub fn say_sent(s: &mut ReportState, session: &Session) {
    let address = s.address.clone();
    say(
        s,
        session,
        key::report::SENT,
        &[("address", &address)],
        false,
    );
}

/// The verdict on a typed code.
pub fn code_checked(
    s: &mut ReportState,
    session: &Session,
    verdict: Result<Verdict, MailFlowError>,
) {
    s.busy = false;
    let verdict = match verdict {
        Ok(v) => v,
        Err(e) => {
            say_failure(s, session, &e);
            return;
        }
    };
    let (remaining, secs) = match verdict {
        Verdict::Wrong { remaining } => (remaining, 0),
        Verdict::Locked { wait_secs } => (0, wait_secs),
        _ => (MAX_FAILURES, 0),
    };
    let ok = matches!(verdict, Verdict::Accepted { .. });
    say(
        s,
        session,
        verdict.key(),
        &[
            ("remaining", &remaining.to_string()),
            ("secs", &secs.to_string()),
        ],
        !ok,
    );
    if matches!(verdict, Verdict::Wrong { .. } | Verdict::Locked { .. }) {
        s.remaining = remaining;
    }
    if ok {
        s.phase = ReportPhase::Done;
    }
    if ok {
        let address = s.address.clone();
        say(
            s,
            session,
            key::report::QUEUED,
            &[("address", &address)],
            false,
        );
    }
}

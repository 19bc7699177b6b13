//! "Join a workshop" on Home (key `w`): type `HOST:PORT CODE` from the projector (or the whole
//! join URL); for the short form the host's check digits are shown to compare with the projector
//! (y/n) before the certificate is pinned. Then the host is asked whether it knows the code, and
//! only a code it takes leads on to the name the instructor sees: nobody types a name for a
//! session that will refuse them. The code goes only over a confirmed (pinned) connection. While
//! joined the same key offers to leave (y/n). Mistakes and refusals are named in the dialog and
//! the typed text stays, so fixing one character is one key.

use crate::input::{Key, KeyCode};
use crate::{Effect, Session, WorkshopRequest};
use content::key;
use domain::workshop::join_url::{CODE_LEN, JoinUrlError, foreign_code_chars};
use domain::workshop::{JoinRefusal, JoinTarget, check_name};

/// Longest text a field takes (a join URL with an IPv6 address fits).
const MAX_INPUT: usize = 200;

/// Which question the dialog asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JoinStep {
    /// The join URL or `HOST:PORT CODE`.
    Url,
    /// The name, once the host took the code.
    Name {
        /// The pinned join URL the host answered on.
        url: String,
        /// The session's name, as the host says it.
        session: String,
    },
    /// The host's check digits: the same as on the projector? (y/n).
    ConfirmDigits {
        /// The join URL pinned to the certificate seen.
        url: String,
        /// The digits of that certificate.
        digits: String,
    },
    /// Joined already: leave? (y/n).
    ConfirmLeave,
    /// Waiting for the dispatcher's answer.
    Waiting,
}

/// The dialog's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinForm {
    /// The question.
    pub step: JoinStep,
    /// What was typed for it.
    pub input: String,
    /// The last mistake or the host's refusal, shown under the field.
    pub error: Option<String>,
    /// What was typed at the first question, given back after a refusal.
    pub typed: String,
    /// The name typed before, offered again after a refusal.
    pub name: String,
    /// Certificates of sessions found by the code whose digits the learner said no to: the
    /// search goes on past them.
    pub declined: Vec<String>,
}

impl JoinForm {
    fn new(step: JoinStep) -> JoinForm {
        JoinForm {
            step,
            input: String::new(),
            error: None,
            typed: String::new(),
            name: String::new(),
            declined: Vec::new(),
        }
    }

    /// Back at the first question with `typed` in the field and the reason under it; the
    /// name typed before waits for the next question.
    fn refused(typed: String, name: String, reason: String) -> JoinForm {
        JoinForm {
            step: JoinStep::Url,
            input: typed.clone(),
            error: Some(reason),
            typed,
            name,
            declined: Vec::new(),
        }
    }

    /// Back at the first question after the host (or the learner) said no.
    fn refuse(self, refusal: &JoinRefusal, session: &Session) -> JoinForm {
        JoinForm::refused(self.typed, self.name, refusal.message(session.strings()))
    }

    /// The string key of the dialog's title: leaving is not joining.
    pub fn title_key(&self) -> content::Key {
        match self.step {
            JoinStep::ConfirmLeave => key::join::LEAVE_TITLE,
            _ => key::join::TITLE,
        }
    }

    /// The string key of the question on screen.
    pub fn label_key(&self) -> content::Key {
        match self.step {
            JoinStep::Url => key::join::ASK_SHORT,
            JoinStep::Name { .. } => key::join::ASK_NAME,
            JoinStep::ConfirmDigits { .. } => key::join::CONFIRM_DIGITS,
            JoinStep::ConfirmLeave => key::join::ASK_LEAVE,
            JoinStep::Waiting => key::join::WAITING,
        }
    }
}

/// Opens the dialog: join when not joined, leave when joined.
pub fn open(session: &Session) -> JoinForm {
    if session.workshop.is_some() {
        JoinForm::new(JoinStep::ConfirmLeave)
    } else {
        JoinForm::new(JoinStep::Url)
    }
}

/// A key while the dialog is open; `None` closes it.
pub fn on_key(
    mut form: JoinForm,
    session: &mut Session,
    key: Key,
) -> (Option<JoinForm>, Vec<Effect>) {
    if key.code == KeyCode::Esc {
        return (None, Vec::new());
    }
    match form.step.clone() {
        JoinStep::Waiting => (Some(form), Vec::new()),
        JoinStep::ConfirmLeave => match key.code {
            KeyCode::Char('y' | 'Y' | 'j' | 'J') => {
                form.step = JoinStep::Waiting;
                (Some(form), vec![Effect::Workshop(WorkshopRequest::Leave)])
            }
            _ => (None, Vec::new()),
        },
        JoinStep::ConfirmDigits { url, digits } => match key.code {
            KeyCode::Char('y' | 'Y' | 'j' | 'J') => {
                form.step = JoinStep::Waiting;
                (
                    Some(form),
                    vec![Effect::Workshop(WorkshopRequest::Hello { url })],
                )
            }
            KeyCode::Char(_) | KeyCode::Enter => {
                // Found by the code alone: another session may take it (a fake one may have
                // answered first), so the search goes on past this certificate.
                if let Ok(JoinTarget::Code { code }) = JoinTarget::parse(&form.typed)
                    && let Ok(seen) = domain::workshop::JoinUrl::parse(&url)
                {
                    form.declined.push(seen.fingerprint);
                    form.step = JoinStep::Waiting;
                    form.error = Some(session.strings().get(key::join::NEXT_SESSION).to_owned());
                    let declined = form.declined.clone();
                    return (
                        Some(form),
                        vec![Effect::Workshop(WorkshopRequest::Find { code, declined })],
                    );
                }
                let reason = JoinRefusal::NotConfirmed { digits }.message(session.strings());
                (
                    Some(JoinForm::refused(form.typed, form.name, reason)),
                    Vec::new(),
                )
            }
            _ => (Some(form), Vec::new()),
        },
        step @ (JoinStep::Url | JoinStep::Name { .. }) => {
            match key.code {
                KeyCode::Enter => return submit(form, step, session),
                KeyCode::Backspace => {
                    form.input.pop();
                }
                KeyCode::Char(c) if !c.is_control() && form.input.chars().count() < MAX_INPUT => {
                    form.input.push(c);
                }
                _ => {}
            }
            (Some(form), Vec::new())
        }
    }
}

fn submit(
    mut form: JoinForm,
    step: JoinStep,
    session: &mut Session,
) -> (Option<JoinForm>, Vec<Effect>) {
    let s = session.strings();
    let typed = form.input.trim().to_owned();
    match step {
        // The code's form is checked here and the host is asked about it before the name;
        // a mistake keeps the typed text.
        JoinStep::Url => match JoinTarget::parse(&typed) {
            Ok(target) => {
                if let Some(mistake) = code_mistake(&target, s) {
                    form.error = Some(mistake);
                } else {
                    form.typed = typed;
                    form.step = JoinStep::Waiting;
                    form.error = None;
                    form.declined.clear();
                    let request = match target {
                        JoinTarget::Url(url) => WorkshopRequest::Hello {
                            url: url.to_string(),
                        },
                        JoinTarget::Short { host, port, code } => {
                            WorkshopRequest::Observe { host, port, code }
                        }
                        JoinTarget::Code { code } => WorkshopRequest::Find {
                            code,
                            declined: Vec::new(),
                        },
                    };
                    return (Some(form), vec![Effect::Workshop(request)]);
                }
            }
            Err(e) => form.error = Some(s.fill(error_key(&e), &[("typed", &typed)])),
        },
        JoinStep::Name { .. } if typed.is_empty() => {
            form.error = Some(s.get(key::join::NAME_EMPTY).to_owned());
        }
        JoinStep::Name { url, .. } => match check_name(&typed) {
            Ok(name) => {
                form.name.clone_from(&name);
                form.step = JoinStep::Waiting;
                form.error = None;
                return (
                    Some(form),
                    vec![Effect::Workshop(WorkshopRequest::Join { url, name })],
                );
            }
            Err(e) => form.error = Some(e.message(s)),
        },
        JoinStep::ConfirmLeave | JoinStep::Waiting | JoinStep::ConfirmDigits { .. } => {}
    }
    (Some(form), Vec::new())
}

/// A short-form code no host issues: of another length, or with a character hosts leave out
/// (a 0 read for an O, a 1 for an I). The whole URL is copied, not typed, and not checked here.
fn code_mistake(target: &JoinTarget, s: &content::Strings) -> Option<String> {
    let (JoinTarget::Short { code, .. } | JoinTarget::Code { code }) = target else {
        return None;
    };
    let foreign = foreign_code_chars(code);
    if code.chars().count() != CODE_LEN {
        let n = code.chars().count().to_string();
        let len = CODE_LEN.to_string();
        Some(s.fill(
            key::join::CODE_LENGTH,
            &[("code", code), ("n", &n), ("len", &len)],
        ))
    } else if !foreign.is_empty() {
        Some(s.fill(
            key::join::CODE_CHARS,
            &[("code", code), ("chars", &foreign)],
        ))
    } else {
        None
    }
}

/// The string key that names what is wrong with a typed join URL or short line.
fn error_key(e: &JoinUrlError) -> content::Key {
    match e {
        JoinUrlError::Scheme(_) => key::join::ERR_SCHEME,
        JoinUrlError::Address(_) => key::join::ERR_ADDRESS,
        JoinUrlError::Path(_) => key::join::ERR_PATH,
        JoinUrlError::Code(_) => key::join::ERR_CODE,
        JoinUrlError::Fingerprint(_) => key::join::ERR_FINGERPRINT,
        JoinUrlError::Short(_) => key::join::ERR_SHORT,
    }
}

#[cfg(test)]
mod tests;

/// The dispatcher's answer to a join or leave: the dialog closes, or shows why not with the
/// typed text back in the field, so the learner can fix it and try again.
pub fn answered(
    form: &mut Option<JoinForm>,
    session: &mut Session,
    result: Result<bool, JoinRefusal>,
) {
    match result {
        Ok(joined) => {
            *form = None;
            let key = if joined {
                key::join::JOINED
            } else {
                key::join::LEFT
            };
            let text = session.strings().get(key).to_owned();
            session.notify(text, false);
        }
        Err(refusal) => {
            let current = form.take().unwrap_or_else(|| JoinForm::new(JoinStep::Url));
            *form = Some(current.refuse(&refusal, session));
        }
    }
}

/// The dispatcher met the host of a short join line: ask to compare its check digits, or say
/// why it could not be reached.
pub fn observed(
    form: &mut Option<JoinForm>,
    session: &Session,
    result: Result<(String, String), JoinRefusal>,
) {
    let Some(current) = form.take() else {
        return;
    };
    *form = Some(match result {
        Ok((url, digits)) => JoinForm {
            step: JoinStep::ConfirmDigits { url, digits },
            input: String::new(),
            error: None,
            typed: current.typed,
            name: current.name,
            declined: current.declined,
        },
        Err(refusal) => current.refuse(&refusal, session),
    });
}

/// The host took the join code (over the pinned connection): ask for the name, offering the
/// one typed before; or say why not, with the typed line back in the field.
pub fn greeted(
    form: &mut Option<JoinForm>,
    session: &Session,
    result: Result<(String, String), JoinRefusal>,
) {
    let Some(current) = form.take() else {
        return;
    };
    *form = Some(match result {
        Ok((url, name_of_session)) => JoinForm {
            step: JoinStep::Name {
                url,
                session: name_of_session,
            },
            input: current.name.clone(),
            error: None,
            typed: current.typed,
            name: current.name,
            declined: current.declined,
        },
        Err(refusal) => current.refuse(&refusal, session),
    });
}

//! "Join a workshop" on Home (key `w`): type the join URL, then the name the instructor sees;
//! while joined the same key offers to leave (y/n). Mistakes are named in the dialog and the
//! typed text stays, so fixing one character is one key.

use crate::app::input::{Key, KeyCode};
use crate::app::{Effect, Session, WorkshopRequest};
use crate::domain::workshop::join_url::valid_code;
use crate::domain::workshop::{JoinUrl, check_name};

/// Longest text a field takes (a join URL with an IPv6 address fits).
const MAX_INPUT: usize = 200;

/// Which question the dialog asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JoinStep {
    /// The join URL.
    Url,
    /// The name, after a valid URL.
    Name {
        /// The URL typed before.
        url: String,
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
}

impl JoinForm {
    fn new(step: JoinStep) -> JoinForm {
        JoinForm {
            step,
            input: String::new(),
            error: None,
        }
    }

    /// The string key of the dialog's title: leaving is not joining.
    pub fn title_key(&self) -> &'static str {
        match self.step {
            JoinStep::ConfirmLeave => "join.leave_title",
            _ => "join.title",
        }
    }

    /// The string key of the question on screen.
    pub fn label_key(&self) -> &'static str {
        match self.step {
            JoinStep::Url => "join.ask_url",
            JoinStep::Name { .. } => "join.ask_name",
            JoinStep::ConfirmLeave => "join.ask_leave",
            JoinStep::Waiting => "join.waiting",
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
        JoinStep::Url => match JoinUrl::parse(&typed) {
            Ok(url) => {
                form.step = JoinStep::Name {
                    url: url.to_string(),
                };
                form.input.clear();
                form.error = None;
            }
            // A code alone cannot reach the host: the URL carries its address and the
            // certificate fingerprint the connection is pinned to.
            Err(_) if valid_code(&typed) => form.error = Some(s.get("join.code_alone").to_owned()),
            Err(e) => form.error = Some(e.to_string()),
        },
        JoinStep::Name { .. } if typed.is_empty() => {
            form.error = Some(s.get("join.name_empty").to_owned());
        }
        JoinStep::Name { url } => match check_name(&typed) {
            Ok(name) => {
                form.step = JoinStep::Waiting;
                form.error = None;
                return (
                    Some(form),
                    vec![Effect::Workshop(WorkshopRequest::Join { url, name })],
                );
            }
            Err(e) => form.error = Some(e),
        },
        JoinStep::ConfirmLeave | JoinStep::Waiting => {}
    }
    (Some(form), Vec::new())
}

#[cfg(test)]
mod tests;

/// The dispatcher's answer to a join or leave: the dialog closes, or shows why not and lets
/// the learner try again.
pub fn answered(form: &mut Option<JoinForm>, session: &mut Session, result: Result<bool, String>) {
    match result {
        Ok(joined) => {
            *form = None;
            let key = if joined { "join.joined" } else { "join.left" };
            let text = session.strings().get(key).to_owned();
            session.notify(text, false);
        }
        Err(reason) => {
            let mut again = JoinForm::new(JoinStep::Url);
            again.error = Some(reason);
            *form = Some(again);
        }
    }
}

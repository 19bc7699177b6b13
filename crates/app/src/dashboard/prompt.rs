//! Typing a pacing command in the dashboard's footer: a chapter number, a scenario number with a
//! mode, or a decision number. Numbers are what the room sees on screen; ids travel.

use crate::input::{Key, KeyCode};
use crate::simulator::view::mode_key;
use content::key;
use content::{Content, Lang};
use domain::workshop::PaceKind;
use domain::workshop::pace::PACE_MODES;
use model::Mode;

/// Longest input (a number, a space and a mode fit easily).
const MAX_INPUT: usize = 24;

/// Which command is being typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    /// "open chapter N".
    Chapter,
    /// "open scenario N in mode M".
    Scenario,
    /// "reveal decision K".
    Reveal,
    /// "the room votes on decision K again".
    SecondVote,
    /// "remove trainee NAME" (a name or id, not a pacing command).
    Kick,
    /// "remove the row of NAME" (the client is not refused).
    RemoveRow,
    /// "I have seen NAME's stuck signal".
    Acknowledge,
    /// "remove every trainee who never sent an event" (Enter confirms, nothing to type).
    RemoveSilent,
    /// "stop the session" (Enter confirms): trainees cannot send until a restart.
    Quit,
    /// "yes, remove this trainee and refuse their client" (Enter confirms the picked row).
    ConfirmKick,
    /// "yes, remove this trainee's row and answers" (Enter confirms the picked row).
    ConfirmRemoveRow,
}

impl PromptKind {
    /// Whether it takes a trainee (by row, number or name) rather than a pacing command.
    pub fn takes_trainee(self) -> bool {
        matches!(
            self,
            PromptKind::Kick | PromptKind::RemoveRow | PromptKind::Acknowledge
        )
    }

    /// The string key of the question shown before the input.
    pub fn label_key(self) -> content::Key {
        match self {
            PromptKind::Chapter => key::dash::ASK_CHAPTER,
            PromptKind::Scenario => key::dash::ASK_SCENARIO,
            PromptKind::Reveal => key::dash::ASK_REVEAL,
            PromptKind::SecondVote => key::dash::ASK_SECOND_VOTE,
            PromptKind::Kick => key::dash::ASK_KICK,
            PromptKind::RemoveRow => key::dash::ASK_REMOVE_ROW,
            PromptKind::Acknowledge => key::dash::ASK_ACK,
            PromptKind::RemoveSilent => key::dash::ASK_REMOVE_SILENT,
            PromptKind::Quit => key::dash::ASK_QUIT,
            PromptKind::ConfirmKick => key::dash::CONFIRM_KICK,
            PromptKind::ConfirmRemoveRow => key::dash::CONFIRM_REMOVE_ROW,
        }
    }
}

/// The input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// What is asked.
    pub kind: PromptKind,
    /// What was typed.
    pub input: String,
    /// The trainee row chosen with the arrow keys (prompts that take a name), as an index of
    /// the summary's trainees.
    pub cursor: Option<usize>,
    /// The trainee a confirmation is about: id and name.
    pub target: Option<(String, String)>,
}

/// What a key did to the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Still typing.
    Typing,
    /// Esc.
    Cancelled,
    /// Enter with this text.
    Submitted(String),
}

impl Prompt {
    /// An empty prompt.
    pub fn new(kind: PromptKind) -> Prompt {
        Prompt {
            kind,
            input: String::new(),
            cursor: None,
            target: None,
        }
    }

    /// Applies a key.
    pub fn on_key(&mut self, key: Key) -> Outcome {
        match key.code {
            KeyCode::Esc => return Outcome::Cancelled,
            KeyCode::Enter => return Outcome::Submitted(self.input.trim().to_owned()),
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Char(c) if !c.is_control() && self.input.chars().count() < MAX_INPUT => {
                self.input.push(c);
            }
            _ => {}
        }
        Outcome::Typing
    }
}

/// The command the text names, or (string key, offending value) for the error line.
pub fn parse(
    kind: PromptKind,
    text: &str,
    content: &Content,
) -> Result<PaceKind, (content::Key, String)> {
    let course = content.course(Lang::En);
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    let number = |len: usize| {
        first
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=len).contains(n))
            .map(|n| n - 1)
    };
    match kind {
        PromptKind::Chapter => {
            let i =
                number(course.chapters.len()).ok_or((key::dash::BAD_NUMBER, text.to_owned()))?;
            Ok(PaceKind::OpenChapter {
                chapter: course.chapters[i].id.clone(),
            })
        }
        PromptKind::Reveal | PromptKind::SecondVote => {
            let i =
                number(course.decisions.len()).ok_or((key::dash::BAD_NUMBER, text.to_owned()))?;
            let decision = course.decisions[i].id.clone();
            Ok(if kind == PromptKind::Reveal {
                PaceKind::RevealDecision { decision }
            } else {
                PaceKind::SecondVote { decision }
            })
        }
        PromptKind::Scenario => {
            let mut scenarios: Vec<_> = content.scenarios.iter().collect();
            scenarios.sort_by_key(|s| s.position);
            // The number of `sim --list` and the simulator's menu, or the id itself.
            let i = number(scenarios.len())
                .or_else(|| scenarios.iter().position(|s| s.id == first))
                .ok_or((key::dash::BAD_NUMBER, first.to_owned()))?;
            let typed = words.next().unwrap_or(PACE_MODES[0]);
            let mode = mode_named(typed, content).ok_or((key::dash::BAD_MODE, typed.to_owned()))?;
            Ok(PaceKind::OpenScenario {
                scenario: scenarios[i].id.clone(),
                mode: mode.as_str().to_owned(),
            })
        }
        // A name is no pacing command: the dashboard sends it as a removal instead.
        PromptKind::Kick
        | PromptKind::RemoveRow
        | PromptKind::Acknowledge
        | PromptKind::RemoveSilent
        | PromptKind::Quit
        | PromptKind::ConfirmKick
        | PromptKind::ConfirmRemoveRow => Err((key::dash::BAD_NUMBER, text.to_owned())),
    }
}

/// The simulator mode `typed` names: its id (`naive`) or its name on the simulator's screen in
/// either language (`naiv`, `sicher`), in any case.
pub fn mode_named(typed: &str, content: &Content) -> Option<Mode> {
    let typed = typed.trim().to_lowercase();
    Mode::ALL.into_iter().find(|mode| {
        mode.as_str() == typed
            || Lang::ALL.iter().any(|lang| {
                let name = content.course(*lang).strings.get(mode_key(*mode));
                name.to_lowercase() == typed
            })
    })
}

//! The final quiz screen: a question with its shuffled options, the explanation after each
//! answer, and the result (score, level, next steps, review, retake, report).

use super::keymap::Action;
use super::{Effect, Screen, Session, StoreRequest};
use content::Question;
use content::key;
use domain::quiz::Attempt;
use std::collections::BTreeSet;

pub mod text;

/// The learner's quiz as the app knows it (mirrors the store).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QuizRecord {
    /// The newest attempt, finished or not.
    pub attempt: Option<Attempt>,
    /// Whether that attempt is finished.
    pub finished: bool,
}

/// Where the quiz screen is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuizPhase {
    /// Waiting for the store to start a new attempt.
    Starting,
    /// A question is shown.
    Question,
    /// The answer was given; the explanation is shown.
    Feedback {
        /// Whether it was right.
        correct: bool,
    },
    /// Score, level, next steps and review.
    Result,
}

/// The quiz screen's own state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizState {
    /// Where the screen is.
    pub phase: QuizPhase,
    /// Cursor among the shown options.
    pub cursor: usize,
    /// Positions of the chosen options.
    pub selected: BTreeSet<usize>,
    /// Scroll offset of the feedback and result text.
    pub scroll: u16,
}

impl QuizState {
    fn at(phase: QuizPhase) -> QuizState {
        QuizState {
            phase,
            cursor: 0,
            selected: BTreeSet::new(),
            scroll: 0,
        }
    }
}

/// Opens the quiz: resumes an unfinished attempt, shows the last result, or starts one.
pub fn open(session: &mut Session) -> Vec<Effect> {
    let (phase, effects) = match (&session.quiz.attempt, session.quiz.finished) {
        (Some(_), false) => (QuizPhase::Question, Vec::new()),
        (Some(_), true) => (QuizPhase::Result, Vec::new()),
        (None, _) => (
            QuizPhase::Starting,
            vec![Effect::Store(StoreRequest::StartAttempt)],
        ),
    };
    session.push(Screen::Quiz(QuizState::at(phase)));
    effects
}

/// A new attempt arrived from the store; the quiz screen, when shown, moves to its first
/// question.
pub fn attempt_started(shown: Option<&mut QuizState>, session: &mut Session, attempt: Attempt) {
    session.quiz = QuizRecord {
        attempt: Some(attempt),
        finished: false,
    };
    if let Some(state) = shown {
        *state = QuizState::at(QuizPhase::Question);
        // Never silently: a new attempt draws new questions and starts the score at zero.
        let text = session.strings().get(key::quiz::ATTEMPT_STARTED).to_owned();
        session.notify(text, false);
    }
}

/// The question on screen (the first unanswered one, or the one just answered in feedback).
pub fn current_question<'a>(session: &'a Session, state: &QuizState) -> Option<&'a Question> {
    let attempt = session.quiz.attempt.as_ref()?;
    let quiz = &session.course().quiz;
    match state.phase {
        QuizPhase::Question => attempt.next_question(quiz),
        // Answers come in attempt order, so the one just answered sits right before the first
        // unanswered one (or is the last question once all are answered).
        QuizPhase::Feedback { .. } => attempt.last_answered(quiz),
        _ => None,
    }
}

/// Handles a key action on the quiz.
pub fn on_action(state: &mut QuizState, session: &mut Session, action: Action) -> Vec<Effect> {
    match state.phase {
        QuizPhase::Starting => Vec::new(),
        QuizPhase::Question => on_question(state, session, action),
        QuizPhase::Feedback { .. } => match action {
            Action::Open => {
                let complete = session
                    .quiz
                    .attempt
                    .as_ref()
                    .is_some_and(|a| a.is_complete(&session.course().quiz));
                *state = QuizState::at(if complete {
                    QuizPhase::Result
                } else {
                    QuizPhase::Question
                });
                Vec::new()
            }
            _ => scroll(state, session, action),
        },
        QuizPhase::Result => match action {
            Action::Retake => {
                *state = QuizState::at(QuizPhase::Starting);
                vec![Effect::Store(StoreRequest::StartAttempt)]
            }
            Action::SendReport => super::report::open(session),
            _ => scroll(state, session, action),
        },
    }
}

/// Scrolls the feedback or result text, never past its last line.
fn scroll(state: &mut QuizState, session: &Session, action: Action) -> Vec<Effect> {
    let page = crate::layout::reader_text(session.size.0, session.size.1)
        .height
        .saturating_sub(1)
        .max(1);
    let max = text::max_scroll(session, state);
    state.scroll = match action {
        Action::Up => state.scroll.saturating_sub(1),
        Action::Down => state.scroll.saturating_add(1),
        Action::PageUp => state.scroll.saturating_sub(page),
        Action::PageDown => state.scroll.saturating_add(page),
        Action::Top => 0,
        Action::Bottom => max,
        _ => state.scroll,
    }
    .min(max);
    Vec::new()
}

fn on_question(state: &mut QuizState, session: &mut Session, action: Action) -> Vec<Effect> {
    let Some(question) = current_question(session, state) else {
        return Vec::new();
    };
    let count = question.options.len();
    let multi = question.multi;
    match action {
        Action::Up | Action::Down => {
            state.cursor = if action == Action::Up {
                state
                    .cursor
                    .checked_sub(1)
                    .unwrap_or(count.saturating_sub(1))
            } else {
                (state.cursor + 1) % count.max(1)
            };
            // One right option: the arrows move the choice itself, like a radio group.
            if !multi {
                toggle(state, state.cursor, multi);
            }
        }
        Action::Select => toggle(state, state.cursor, multi),
        Action::Number(n) if (1..=count).contains(&usize::from(n)) => {
            state.cursor = usize::from(n) - 1;
            toggle(state, state.cursor, multi);
        }
        Action::Open => return submit(state, session),
        _ => {}
    }
    Vec::new()
}

fn toggle(state: &mut QuizState, index: usize, multi: bool) {
    if multi {
        if !state.selected.remove(&index) {
            state.selected.insert(index);
        }
    } else {
        state.selected = BTreeSet::from([index]);
    }
}

fn submit(state: &mut QuizState, session: &mut Session) -> Vec<Effect> {
    if state.selected.is_empty() {
        // Nothing chosen yet (a stray Enter right after opening the quiz): say what to do
        // instead of answering with whatever option the cursor happens to start on.
        let multi = current_question(session, state).is_some_and(|q| q.multi);
        let key = if multi {
            key::quiz::SELECT_FIRST
        } else {
            key::quiz::SELECT_FIRST_SINGLE
        };
        let hint = session.strings().get(key).to_owned();
        session.notify(hint, false);
        return Vec::new();
    }
    let content = session.content.clone();
    let quiz = &content.course(session.lang).quiz;
    let Some(attempt) = session.quiz.attempt.as_mut() else {
        return Vec::new();
    };
    let Some(question) = attempt.next_question(quiz) else {
        return Vec::new();
    };
    let shown = attempt.options(question);
    let chosen: BTreeSet<String> = state
        .selected
        .iter()
        .filter_map(|i| shown.get(*i).map(|o| o.id.clone()))
        .collect();
    attempt.answer(&question.id, chosen.clone());
    let correct = attempt.is_correct(question);
    let finished = attempt
        .is_complete(quiz)
        .then(|| attempt.score(quiz).correct);
    session.quiz.finished = finished.is_some();
    let effect = Effect::Store(StoreRequest::SaveAnswer {
        attempt_id: attempt.id,
        question_id: question.id.clone(),
        chosen,
        correct,
        finished,
    });
    *state = QuizState::at(QuizPhase::Feedback { correct });
    // A hint about this question ("nothing chosen yet") ends with the answer it asked for.
    session.status = None;
    vec![effect]
}

#[cfg(test)]
mod report_tests;
#[cfg(test)]
mod tests;

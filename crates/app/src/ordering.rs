//! The seven-step ordering game screen: pick the cards in order (digits, arrows + Enter,
//! click), `r` deals a new attempt. The game itself lives in `domain::ordering`.

use super::input::{Mouse, MouseKind};
use super::keymap::Action;
use super::{Effect, Screen, Session, layout};
use domain::{Fact, OrderingGame, Pick};

/// What the last pick said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feedback {
    /// The step went into place.
    Correct(usize),
    /// A wrong pick; the step still missing next.
    Missing(usize),
}

/// The ordering screen's own state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderingState {
    /// The current attempt.
    pub game: OrderingGame,
    /// Selected card position.
    pub cursor: usize,
    /// The answer to the last pick.
    pub feedback: Option<Feedback>,
    /// Deals on this screen so far (mixed into the seed so `r` deals anew).
    pub round: u64,
}

impl OrderingState {
    /// A fresh deal; the seed comes from the attempts saved so far and the round, so every
    /// attempt is shuffled differently and a test can predict it.
    pub fn new(steps: usize, attempts: u32, round: u64) -> OrderingState {
        let seed = u64::from(attempts)
            .wrapping_mul(1_000_003)
            .wrapping_add(round);
        OrderingState {
            game: OrderingGame::new(steps, seed),
            cursor: 0,
            feedback: None,
            round,
        }
    }
}

/// Opens the ordering game.
pub fn open(session: &mut Session) -> Vec<Effect> {
    let steps = session.course().ordering.steps.len();
    let state = OrderingState::new(steps, session.progress.ordering.attempts, 0);
    session.push(Screen::Ordering(state));
    Vec::new()
}

/// Handles a key action in the ordering game.
pub fn on_action(s: &mut OrderingState, session: &mut Session, action: Action) -> Vec<Effect> {
    let attempts = session.progress.ordering.attempts;
    let last = s.game.len().saturating_sub(1);
    match action {
        Action::Up => s.cursor = s.cursor.saturating_sub(1),
        Action::Down => s.cursor = (s.cursor + 1).min(last),
        Action::Number(n) if n >= 1 && usize::from(n) <= s.game.len() => {
            s.cursor = usize::from(n) - 1;
            return pick(s, session);
        }
        Action::Open => return pick(s, session),
        Action::Restart => {
            let steps = s.game.len();
            let round = s.round + 1;
            *s = OrderingState::new(steps, attempts, round);
        }
        _ => {}
    }
    Vec::new()
}

/// Picks the card under the cursor and records what must be saved.
fn pick(s: &mut OrderingState, session: &mut Session) -> Vec<Effect> {
    let first = !s.game.started();
    let result = s.game.pick(s.cursor);
    let mut facts = Vec::new();
    if first && result != Pick::Ignored {
        facts.push(Fact::OrderingAttempt);
    }
    match result {
        Pick::Correct { step, .. } => {
            s.feedback = Some(Feedback::Correct(step));
            if s.game.is_solved() {
                facts.push(Fact::OrderingSolved);
            } else if let Some(next) = (0..s.game.len()).find(|p| s.game.place_of(*p).is_none()) {
                // Move on to a card still open, so Enter-Enter-Enter does not stall.
                if s.game.place_of(s.cursor).is_some() {
                    s.cursor = next;
                }
            }
        }
        Pick::Wrong { missing, .. } => {
            s.feedback = Some(Feedback::Missing(missing));
            facts.push(Fact::OrderingMistake);
        }
        Pick::Ignored => {}
    }
    facts.into_iter().map(|f| session.record(f)).collect()
}

/// Handles the mouse: a click on a card picks it; the wheel moves the cursor.
pub fn on_mouse(s: &mut OrderingState, session: &mut Session, mouse: Mouse) -> Vec<Effect> {
    let cards = layout::ordering_cards(session.size.0, session.size.1);
    match mouse.kind {
        MouseKind::ScrollUp => on_action(s, session, Action::Up),
        MouseKind::ScrollDown => on_action(s, session, Action::Down),
        MouseKind::Click if cards.contains(mouse.column, mouse.row) => {
            let index = usize::from(mouse.row - cards.y);
            if index < s.game.len() && !s.game.is_solved() {
                s.cursor = index;
                pick(s, session)
            } else {
                Vec::new()
            }
        }
        MouseKind::Click => Vec::new(),
    }
}

#[cfg(test)]
mod tests;

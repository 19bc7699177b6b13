//! The seven-step ordering game screen: pick the cards in order (digits, arrows + Enter,
//! click), `r` deals a new attempt. The game itself lives in `domain::ordering`.

use super::doc_layout::wrap::wrap;
use super::doc_layout::{DocLine, Span, Tone};
use super::input::{Mouse, MouseKind};
use super::keymap::Action;
use super::{Effect, Screen, Session, layout};
use content::key;
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
    /// Lines the solved summary is scrolled down.
    pub scroll: u16,
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
            scroll: 0,
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
    if s.game.is_solved() && action != Action::Restart {
        scroll_summary(s, session, action);
        return Vec::new();
    }
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

/// The solved summary, laid out at `width`: the solved line, one paragraph per step on why it
/// stands there, and how to play again. The screen draws these lines, and the scrolling
/// stops at the last one.
pub fn summary_lines(session: &Session, width: usize) -> Vec<DocLine> {
    let game = &session.course().ordering;
    let max = width.max(10);
    let mut out: Vec<DocLine> = wrap(&[(game.solved.clone(), Tone::Good)], max, &[], &[])
        .into_iter()
        .map(DocLine::new)
        .collect();
    for (i, step) in game.steps.iter().enumerate() {
        let runs = [
            (format!("{}. {}: ", i + 1, step.label), Tone::Bold),
            (step.reason.clone(), Tone::Text),
        ];
        let indent = [Span {
            text: "   ".to_owned(),
            tone: Tone::Text,
        }];
        out.extend(wrap(&runs, max, &[], &indent).into_iter().map(DocLine::new));
    }
    let again = session.strings().get(key::ordering::AGAIN).to_owned();
    out.extend(
        wrap(&[(again, Tone::Dim)], max, &[], &[])
            .into_iter()
            .map(DocLine::new),
    );
    out
}

/// Where the summary's lines go on screen: below the progress, above the status row.
pub fn summary_area(session: &Session) -> layout::Area {
    let (width, height) = session.size;
    let body = layout::body(width, height);
    let cards = layout::ordering_cards(width, height);
    layout::Area {
        x: 2,
        y: cards.y,
        width: body.width.saturating_sub(4),
        height: (body.y + body.height).saturating_sub(cards.y + 1),
    }
}

/// The arrows and page keys scroll the solved summary; it stops at its last line.
fn scroll_summary(s: &mut OrderingState, session: &Session, action: Action) {
    let area = summary_area(session);
    let total = summary_lines(session, usize::from(area.width)).len();
    let max = u16::try_from(total.saturating_sub(usize::from(area.height))).unwrap_or(u16::MAX);
    let page = area.height.saturating_sub(1).max(1);
    s.scroll = match action {
        Action::Up => s.scroll.saturating_sub(1),
        Action::Down => s.scroll.saturating_add(1),
        Action::PageUp => s.scroll.saturating_sub(page),
        Action::PageDown => s.scroll.saturating_add(page),
        Action::Top => 0,
        Action::Bottom => max,
        _ => s.scroll,
    }
    .min(max);
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

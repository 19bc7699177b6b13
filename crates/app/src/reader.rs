//! The lesson reader: scrolling, next/previous chapter, interactive parts, course search.

use content::key;

mod interact;
mod search;

pub use search::SearchState;

use super::doc_layout::{self, DocContext, DocLine, Target};
use super::input::{Key, Mouse, MouseKind};
use super::keymap::Action;
use super::{Effect, Screen, Session, layout};
use domain::Fact;
use domain::calculator::{CalcField, CalcValues};

/// The reader's own state.
#[derive(Debug, Clone, PartialEq)]
pub struct ReaderState {
    /// Index of the chapter shown.
    pub chapter: usize,
    /// First visible line.
    pub scroll: u32,
    /// The focused interactive part (index into the chapter's targets).
    pub focus: Option<usize>,
    /// The course search, while active.
    pub search: Option<SearchState>,
    /// Calculator values (chapter 11).
    pub calc: CalcValues,
    /// The calculator field being edited, with the text typed so far.
    pub calc_edit: Option<(CalcField, String)>,
    /// The last calculator input error (a string key).
    pub calc_error: Option<content::Key>,
    /// Whether the learner's own scrolling has brought the last line on screen (arriving,
    /// `n`, a search hit or the chapter list do not count; a chapter that fits one screen has
    /// it from the start).
    pub end_seen: bool,
    /// Time spent on this chapter while open, from the runtime's ticks.
    pub reading_ms: u64,
}

impl ReaderState {
    /// True while typed characters are text (search prompt, calculator field), not commands.
    pub fn captures_keys(&self) -> bool {
        self.calc_edit.is_some() || self.search.as_ref().is_some_and(|s| s.editing)
    }
}

/// The laid-out lines of the reader's chapter at the current width.
pub fn lines(session: &Session, state: &ReaderState) -> Vec<DocLine> {
    let course = session.course();
    let Some(chapter) = course.chapters.get(state.chapter) else {
        return Vec::new();
    };
    let ctx = DocContext {
        course,
        progress: &session.progress,
        focus: state.focus,
        calc: &state.calc,
        calc_edit: state.calc_edit.as_ref().map(|(f, t)| (*f, t.as_str())),
        calc_error: state.calc_error,
        ascii: session.options.ascii,
        lang: session.lang,
        votes: session.workshop.as_ref().map(|_| &session.votes),
    };
    let size = session.size;
    doc_layout::layout(chapter, &ctx, layout::reader_text(size.0, size.1).width)
}

/// The largest useful scroll offset.
fn max_scroll(total: usize, size: (u16, u16)) -> u32 {
    let height = usize::from(layout::reader_text(size.0, size.1).height);
    total.saturating_sub(height) as u32
}

/// The scroll offset clamped to the chapter's length (after a resize).
pub fn clamp_scroll(state: &ReaderState, session: &Session) -> u32 {
    let total = lines(session, state).len();
    state.scroll.min(max_scroll(total, session.size))
}

/// A reader on chapter `index` at its remembered position, with the effect of arriving there
/// (position saved). Arriving never marks a chapter read.
fn arrive(session: &mut Session, index: usize) -> Option<(ReaderState, Vec<Effect>)> {
    let course = session.course();
    let chapter = course.chapters.get(index)?;
    let id = chapter.id.clone();
    let scroll = session.progress.positions.get(&id).copied().unwrap_or(0);
    let calculator = &course.reference.calculator;
    let mut calc = CalcValues::from_defaults(calculator);
    // The chapter's worked example stays in the seed's currency; the learner's own numbers
    // start in the workshop's currency, else the language's (EUR for German and English).
    calc.start_in(
        session
            .calc_currency
            .as_deref()
            .unwrap_or(default_currency(session.lang)),
    );
    let mut state = ReaderState {
        chapter: index,
        scroll,
        focus: None,
        search: None,
        calc,
        calc_edit: None,
        calc_error: None,
        end_seen: false,
        reading_ms: 0,
    };
    state.scroll = clamp_scroll(&state, session);
    state.end_seen = max_scroll(lines(session, &state).len(), session.size) == 0
        && !awaits_answer(session, &state);
    let effects = vec![session.record(Fact::Position {
        chapter: id,
        scroll: state.scroll,
    })];
    Some((state, effects))
}

/// Opens chapter `index` on top of the current screen at its remembered position.
pub fn open_chapter(session: &mut Session, index: usize) -> Vec<Effect> {
    let Some((state, effects)) = arrive(session, index) else {
        return Vec::new();
    };
    session.push(Screen::Reader(state));
    effects
}

/// Opens chapter `index` with the course search prompt open.
pub fn open_chapter_searching(session: &mut Session, index: usize) -> Vec<Effect> {
    let Some((mut state, effects)) = arrive(session, index) else {
        return Vec::new();
    };
    search::start(&mut state);
    session.push(Screen::Reader(state));
    effects
}

/// Replaces the open reader's chapter by chapter `index`, saving the old position first.
fn switch_chapter(state: &mut ReaderState, session: &mut Session, index: usize) -> Vec<Effect> {
    let Some((next, arrived)) = arrive(session, index) else {
        return Vec::new();
    };
    let mut effects: Vec<Effect> = position_effect(session, state).into_iter().collect();
    *state = next;
    effects.extend(arrived);
    effects
}

/// Opens the chapter that holds the checklist, focused on its first question.
pub fn open_checklist(session: &mut Session) -> Vec<Effect> {
    let course = session.course();
    let found = course.chapters.iter().enumerate().find_map(|(i, c)| {
        doc_layout::targets(c, course)
            .iter()
            .position(|t| matches!(t, Target::Checklist(_)))
            .map(|t| (i, t))
    });
    let Some((index, target)) = found else {
        return Vec::new();
    };
    let Some((mut state, mut effects)) = arrive(session, index) else {
        return Vec::new();
    };
    effects.extend(interact::focus(&mut state, session, Some(target)));
    session.push(Screen::Reader(state));
    effects
}

/// The effect that saves the reading position of `state`.
pub fn position_effect(session: &mut Session, state: &ReaderState) -> Option<Effect> {
    let id = session.course().chapters.get(state.chapter)?.id.clone();
    // Recorded, so the chapter list knows at once that this chapter was begun.
    Some(session.record(Fact::Position {
        chapter: id,
        scroll: state.scroll,
    }))
}

/// The calculator's currency when the workshop config names none: the language's (both
/// languages are written for the euro area).
pub fn default_currency(lang: content::Lang) -> &'static str {
    match lang {
        content::Lang::De | content::Lang::En => "EUR",
    }
}

/// Words per minute of an unhurried reader; a chapter counts as read after a fifth of the
/// time such a reader needs.
const READING_WPM: u64 = 200;
/// The fraction of that reading time (1/5) a learner must have spent.
const READING_SHARE: u64 = 5;

/// The time a chapter of `words` words must have been open before it counts as read.
pub fn min_reading_ms(words: usize) -> u64 {
    (words as u64) * 60_000 / READING_WPM / READING_SHARE
}

/// Marks the chapter read once the learner scrolled its last line on screen and spent at least
/// [`min_reading_ms`] on it (issue: pressing `n` fifteen times must not read fifteen chapters).
fn mark_read_if_done(state: &ReaderState, session: &mut Session) -> Vec<Effect> {
    if !state.end_seen || awaits_answer(session, state) {
        return Vec::new();
    }
    let needed = needed_reading_ms(session, state);
    let Some(chapter) = session.course().chapters.get(state.chapter) else {
        return Vec::new();
    };
    if state.reading_ms >= needed && !session.progress.chapters_read.contains(&chapter.id) {
        let id = chapter.id.clone();
        return vec![session.record(Fact::ChapterRead(id))];
    }
    Vec::new()
}

/// The notice for leaving the open chapter before it counts as read (its reading time not
/// up yet), or `None` when it is read.
fn not_yet_read(state: &ReaderState, session: &Session) -> Option<String> {
    let chapter = session.course().chapters.get(state.chapter)?;
    if session.progress.chapters_read.contains(&chapter.id) {
        return None;
    }
    let needed = needed_reading_ms(session, state);
    Some(session.strings().fill(
        key::reader::LEFT_UNREAD,
        &[
            ("read", &(state.reading_ms / 1000).to_string()),
            ("needed", &needed.div_ceil(1000).to_string()),
        ],
    ))
}

/// The time the open chapter must have been open before it counts as read.
pub fn needed_reading_ms(session: &Session, state: &ReaderState) -> u64 {
    let words: usize = lines(session, state)
        .iter()
        .map(|l| l.text().split_whitespace().count())
        .sum();
    min_reading_ms(words)
}

/// Time passed while the chapter was open.
pub fn on_tick(state: &mut ReaderState, session: &mut Session, elapsed_ms: u32) -> Vec<Effect> {
    state.reading_ms = state.reading_ms.saturating_add(u64::from(elapsed_ms));
    mark_read_if_done(state, session)
}

/// Whether the reader still needs the clock: only while its chapter is not read yet.
pub fn needs_ticks(state: &ReaderState, session: &Session) -> bool {
    session
        .course()
        .chapters
        .get(state.chapter)
        .is_some_and(|c| !session.progress.chapters_read.contains(&c.id))
}

/// Moves the view by `delta` lines (clamped); used for jumps too, so it never counts as reading.
pub fn scroll_by(state: &mut ReaderState, session: &mut Session, delta: i64) -> Vec<Effect> {
    let total = lines(session, state).len();
    let max = i64::from(max_scroll(total, session.size));
    state.scroll = (i64::from(state.scroll) + delta).clamp(0, max) as u32;
    Vec::new()
}

/// Whether the open chapter stops below a card (not answered yet, or held until the
/// instructor's reveal), so its last line on screen is not the chapter's end.
fn awaits_answer(session: &Session, state: &ReaderState) -> bool {
    let Some(chapter) = session.course().chapters.get(state.chapter) else {
        return false;
    };
    let votes = session.workshop.as_ref().map(|_| &session.votes);
    chapter
        .decision_ids()
        .any(|(id, _)| doc_layout::veiled_after(&session.progress, votes, id).is_some())
}

/// The learner scrolls: when the last line comes on screen the end counts as seen.
fn read_by(state: &mut ReaderState, session: &mut Session, delta: i64) -> Vec<Effect> {
    let mut effects = scroll_by(state, session, delta);
    let total = lines(session, state).len();
    if state.scroll >= max_scroll(total, session.size) && !awaits_answer(session, state) {
        state.end_seen = true;
    }
    effects.extend(mark_read_if_done(state, session));
    effects
}

fn page(session: &Session) -> i64 {
    i64::from(
        layout::reader_text(session.size.0, session.size.1)
            .height
            .saturating_sub(2)
            .max(1),
    )
}

/// Handles a key action in the reader.
pub fn on_action(state: &mut ReaderState, session: &mut Session, action: Action) -> Vec<Effect> {
    let current = state.chapter;
    match action {
        Action::Up => read_by(state, session, -1),
        Action::Down => read_by(state, session, 1),
        Action::PageUp => read_by(state, session, -page(session)),
        // Space ticks a focused checklist item and pages down everywhere else.
        Action::Select if interact::checklist_focused(state, session) => {
            interact::on_action(state, session, Action::Open)
        }
        Action::PageDown | Action::Select => read_by(state, session, page(session)),
        Action::Top => read_by(state, session, -i64::from(u32::MAX)),
        Action::Bottom => read_by(state, session, i64::from(u32::MAX)),
        Action::NextChapter => {
            // Leaving with `n` does not mark the chapter read: only scrolling and time do.
            // The learner is told, so the list's "started" is no surprise.
            let mut effects = Vec::new();
            if current + 1 < session.course().chapters.len() {
                let unread = not_yet_read(state, session);
                effects.extend(switch_chapter(state, session, current + 1));
                if let Some(text) = unread {
                    session.notify(text, false);
                }
            } else {
                let text = session.strings().get(key::reader::LAST_CHAPTER).to_owned();
                session.notify(text, false);
            }
            effects
        }
        Action::PrevChapter if current > 0 => switch_chapter(state, session, current - 1),
        Action::Back => interact::focus(state, session, None),
        Action::Search => {
            search::start(state);
            Vec::new()
        }
        Action::SearchNext => search::next(state, session),
        other => interact::on_action(state, session, other),
    }
}

/// Handles keys while the reader captures text input.
pub fn on_captured_key(state: &mut ReaderState, session: &mut Session, key: Key) -> Vec<Effect> {
    if state.search.as_ref().is_some_and(|s| s.editing) {
        search::on_key(state, session, key)
    } else {
        interact::on_calc_key(state, session, key)
    }
}

/// Handles the mouse in the reader: the wheel scrolls, a click focuses or activates a part.
pub fn on_mouse(state: &mut ReaderState, session: &mut Session, mouse: Mouse) -> Vec<Effect> {
    match mouse.kind {
        MouseKind::ScrollUp => read_by(state, session, -3),
        MouseKind::ScrollDown => read_by(state, session, 3),
        MouseKind::Click => {
            let area = layout::reader_text(session.size.0, session.size.1);
            if !area.contains(mouse.column, mouse.row) {
                return Vec::new();
            }
            let all = lines(session, state);
            let index = state.scroll as usize + usize::from(mouse.row - area.y);
            match all.get(index).and_then(|l| l.target) {
                Some(target) => interact::click(state, session, target),
                None => Vec::new(),
            }
        }
    }
}

#[cfg(test)]
mod tests;

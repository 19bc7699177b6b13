//! The lesson reader: scrolling, next/previous chapter, interactive parts, course search.

mod interact;
mod search;

pub use search::SearchState;

use super::doc_layout::{self, DocContext, DocLine, Target};
use super::input::{Key, Mouse, MouseKind};
use super::keymap::Action;
use super::{App, Effect, Options, Screen, layout};
use crate::content::{Content, Lang};
use crate::domain::calculator::{CalcField, CalcValues};
use crate::domain::{Fact, Progress};

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
    pub calc_error: Option<&'static str>,
}

impl ReaderState {
    /// True while typed characters are text (search prompt, calculator field), not commands.
    pub fn captures_keys(&self) -> bool {
        self.calc_edit.is_some() || self.search.as_ref().is_some_and(|s| s.editing)
    }
}

fn state(app: &mut App) -> Option<&mut ReaderState> {
    match &mut app.screen {
        Screen::Reader(s) => Some(s),
        _ => None,
    }
}

/// The laid-out lines of the reader's chapter at the current width.
pub fn lines(
    content: &Content,
    lang: Lang,
    progress: &Progress,
    options: Options,
    size: (u16, u16),
    state: &ReaderState,
) -> Vec<DocLine> {
    let course = content.course(lang);
    let Some(chapter) = course.chapters.get(state.chapter) else {
        return Vec::new();
    };
    let ctx = DocContext {
        course,
        progress,
        focus: state.focus,
        calc: &state.calc,
        calc_edit: state.calc_edit.as_ref().map(|(f, t)| (*f, t.as_str())),
        calc_error: state.calc_error,
        ascii: options.ascii,
        lang,
    };
    doc_layout::layout(chapter, &ctx, layout::reader_text(size.0, size.1).width)
}

/// The largest useful scroll offset.
fn max_scroll(total: usize, size: (u16, u16)) -> u32 {
    let height = usize::from(layout::reader_text(size.0, size.1).height);
    total.saturating_sub(height) as u32
}

/// The scroll offset clamped to the chapter's length (after a resize).
pub fn clamp_scroll(
    state: &ReaderState,
    content: &Content,
    lang: Lang,
    progress: &Progress,
    options: Options,
    size: (u16, u16),
) -> u32 {
    let total = lines(content, lang, progress, options, size, state).len();
    state.scroll.min(max_scroll(total, size))
}

/// Opens chapter `index` (replacing the reader if one is open) at its remembered position.
pub fn open_chapter(app: &mut App, index: usize) -> Vec<Effect> {
    let course = app.session.course();
    let Some(chapter) = course.chapters.get(index) else {
        return Vec::new();
    };
    let id = chapter.id.clone();
    let scroll = app
        .session
        .progress
        .positions
        .get(&id)
        .copied()
        .unwrap_or(0);
    let calc = CalcValues::from_defaults(&course.reference.calculator);
    let mut effects = Vec::new();
    let next = ReaderState {
        chapter: index,
        scroll,
        focus: None,
        search: None,
        calc,
        calc_edit: None,
        calc_error: None,
    };
    if let Screen::Reader(current) = &app.screen {
        effects.extend(position_effect(app, current));
        app.screen = Screen::Reader(next);
    } else {
        app.push(Screen::Reader(next));
    }
    let scroll = match &app.screen {
        Screen::Reader(s) => clamp_scroll(
            s,
            &app.session.content,
            app.session.lang,
            &app.session.progress,
            app.session.options,
            app.session.size,
        ),
        _ => 0,
    };
    if let Some(s) = state(app) {
        s.scroll = scroll;
    }
    effects.push(app.session.record(Fact::Position {
        chapter: id,
        scroll,
    }));
    effects.extend(mark_read_if_at_end(app));
    effects
}

/// Opens the chapter that holds the checklist, focused on its first question.
pub fn open_checklist(app: &mut App) -> Vec<Effect> {
    let course = app.session.course();
    let found = course.chapters.iter().enumerate().find_map(|(i, c)| {
        doc_layout::targets(c, course)
            .iter()
            .position(|t| matches!(t, Target::Checklist(_)))
            .map(|t| (i, t))
    });
    let Some((index, target)) = found else {
        return Vec::new();
    };
    let mut effects = open_chapter(app, index);
    effects.extend(interact::focus(app, Some(target)));
    effects
}

/// The effect that saves the reading position of `state`.
pub fn position_effect(app: &App, state: &ReaderState) -> Option<Effect> {
    let id = app.session.course().chapters.get(state.chapter)?.id.clone();
    Some(Effect::Save(Fact::Position {
        chapter: id,
        scroll: state.scroll,
    }))
}

/// Marks the chapter read once its last line has been on screen.
fn mark_read_if_at_end(app: &mut App) -> Vec<Effect> {
    let Screen::Reader(state) = &app.screen else {
        return Vec::new();
    };
    let total = lines(
        &app.session.content,
        app.session.lang,
        &app.session.progress,
        app.session.options,
        app.session.size,
        state,
    )
    .len();
    let Some(chapter) = app.session.course().chapters.get(state.chapter) else {
        return Vec::new();
    };
    if state.scroll >= max_scroll(total, app.session.size)
        && !app.session.progress.chapters_read.contains(&chapter.id)
    {
        let id = chapter.id.clone();
        return vec![app.session.record(Fact::ChapterRead(id))];
    }
    Vec::new()
}

/// Scrolls by `delta` lines (clamped) and marks the chapter read at the end.
pub fn scroll_by(app: &mut App, delta: i64) -> Vec<Effect> {
    let Screen::Reader(current) = &app.screen else {
        return Vec::new();
    };
    let total = lines(
        &app.session.content,
        app.session.lang,
        &app.session.progress,
        app.session.options,
        app.session.size,
        current,
    )
    .len();
    let max = i64::from(max_scroll(total, app.session.size));
    if let Some(s) = state(app) {
        s.scroll = (i64::from(s.scroll) + delta).clamp(0, max) as u32;
    }
    mark_read_if_at_end(app)
}

fn page(app: &App) -> i64 {
    i64::from(
        layout::reader_text(app.session.size.0, app.session.size.1)
            .height
            .saturating_sub(2)
            .max(1),
    )
}

/// Handles a key action in the reader.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(current) = state(app).map(|s| s.chapter) else {
        return Vec::new();
    };
    match action {
        Action::Up => scroll_by(app, -1),
        Action::Down => scroll_by(app, 1),
        Action::PageUp => scroll_by(app, -page(app)),
        Action::PageDown => scroll_by(app, page(app)),
        Action::Top => scroll_by(app, -i64::from(u32::MAX)),
        Action::Bottom => scroll_by(app, i64::from(u32::MAX)),
        Action::NextChapter => {
            let mut effects = Vec::new();
            let id = app
                .session
                .course()
                .chapters
                .get(current)
                .map(|c| c.id.clone());
            if let Some(id) = id.filter(|id| !app.session.progress.chapters_read.contains(id)) {
                effects.push(app.session.record(Fact::ChapterRead(id)));
            }
            if current + 1 < app.session.course().chapters.len() {
                effects.extend(open_chapter(app, current + 1));
            } else {
                let text = app.session.strings().get("reader.last_chapter").to_owned();
                app.session.notify(text, false);
            }
            effects
        }
        Action::PrevChapter if current > 0 => open_chapter(app, current - 1),
        Action::Back => interact::focus(app, None),
        Action::Search => search::start(app),
        Action::SearchNext => search::next(app),
        other => interact::on_action(app, other),
    }
}

/// Handles keys while the reader captures text input.
pub fn on_captured_key(app: &mut App, key: Key) -> Vec<Effect> {
    let editing_search =
        matches!(&app.screen, Screen::Reader(s) if s.search.as_ref().is_some_and(|s| s.editing));
    if editing_search {
        search::on_key(app, key)
    } else {
        interact::on_calc_key(app, key)
    }
}

/// Handles the mouse in the reader: the wheel scrolls, a click focuses or activates a part.
pub fn on_mouse(app: &mut App, mouse: Mouse) -> Vec<Effect> {
    match mouse.kind {
        MouseKind::ScrollUp => scroll_by(app, -3),
        MouseKind::ScrollDown => scroll_by(app, 3),
        MouseKind::Click => {
            let area = layout::reader_text(app.session.size.0, app.session.size.1);
            let Screen::Reader(current) = &app.screen else {
                return Vec::new();
            };
            if !area.contains(mouse.column, mouse.row) {
                return Vec::new();
            }
            let all = lines(
                &app.session.content,
                app.session.lang,
                &app.session.progress,
                app.session.options,
                app.session.size,
                current,
            );
            let index = current.scroll as usize + usize::from(mouse.row - area.y);
            match all.get(index).and_then(|l| l.target) {
                Some(target) => interact::click(app, target),
                None => Vec::new(),
            }
        }
    }
}

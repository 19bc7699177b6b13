//! Search across the whole course (`/`): type a query, Enter jumps to the first match, `N`
//! to the next one, across chapters.

use super::super::input::{Key, KeyCode};
use super::super::{Effect, Session};
use super::{ReaderState, lines, switch_chapter};
use content::key;

/// An active search.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchState {
    /// The query typed.
    pub query: String,
    /// Whether the prompt is still open.
    pub editing: bool,
    /// Matches as (chapter index, line index).
    pub hits: Vec<(usize, u32)>,
    /// The match shown.
    pub current: usize,
}

/// Opens the search prompt.
pub fn start(s: &mut ReaderState) {
    s.search = Some(SearchState {
        editing: true,
        ..SearchState::default()
    });
}

/// Keys while the prompt is open.
pub fn on_key(s: &mut ReaderState, session: &mut Session, key: Key) -> Vec<Effect> {
    let Some(search) = &mut s.search else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Char(c) if !c.is_control() && search.query.chars().count() < 60 => {
            search.query.push(c);
        }
        KeyCode::Backspace => {
            search.query.pop();
        }
        KeyCode::Esc => s.search = None,
        KeyCode::Enter => {
            search.editing = false;
            let query = search.query.clone();
            return run(s, session, &query);
        }
        _ => {}
    }
    Vec::new()
}

/// Finds every line of every chapter that contains the query (case-insensitive).
fn run(current: &mut ReaderState, session: &mut Session, query: &str) -> Vec<Effect> {
    let needle = query.trim().to_lowercase();
    let mut hits = Vec::new();
    if !needle.is_empty() {
        for chapter in 0..session.course().chapters.len() {
            let probe = ReaderState {
                chapter,
                focus: None,
                search: None,
                calc_edit: None,
                ..current.clone()
            };
            for (i, line) in lines(session, &probe).iter().enumerate() {
                if line.text().to_lowercase().contains(&needle) {
                    hits.push((chapter, i as u32));
                }
            }
        }
    }
    // Start at the first match at or after the current position.
    let here = (current.chapter, current.scroll);
    let first = hits.iter().position(|h| *h >= here).unwrap_or(0);
    if let Some(search) = &mut current.search {
        search.hits = hits;
        search.current = first;
    }
    show(current, session)
}

/// Jumps to the next match.
pub fn next(s: &mut ReaderState, session: &mut Session) -> Vec<Effect> {
    if let Some(search) = &mut s.search
        && !search.hits.is_empty()
    {
        search.current = (search.current + 1) % search.hits.len();
    }
    show(s, session)
}

/// Opens the chapter of the current match with the match near the top, and says so.
fn show(current: &mut ReaderState, session: &mut Session) -> Vec<Effect> {
    let Some(search) = current.search.clone() else {
        return Vec::new();
    };
    let Some(&(chapter, line)) = search.hits.get(search.current) else {
        let text = session
            .strings()
            .fill(key::reader::SEARCH_NONE, &[("query", &search.query)]);
        session.notify(text, true);
        return Vec::new();
    };
    let mut effects = Vec::new();
    if chapter != current.chapter {
        effects.extend(switch_chapter(current, session, chapter));
    }
    current.search = Some(search.clone());
    current.scroll = 0;
    effects.extend(super::scroll_by(
        current,
        session,
        i64::from(line.saturating_sub(2)),
    ));
    let text = session.strings().fill(
        key::reader::SEARCH_HIT,
        &[
            ("n", &(search.current + 1).to_string()),
            ("total", &search.hits.len().to_string()),
            ("query", &search.query),
        ],
    );
    session.notify(text, false);
    effects
}

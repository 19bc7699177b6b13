//! The chapter list with a status per chapter.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use app::doc_layout::Tone;
use app::{App, ChaptersState, layout};
use content::Chapter;
use content::key;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the chapter list.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &ChaptersState, theme: &Theme) {
    let s = app.session.strings();
    let body = layout::body(app.session.size.0, app.session.size.1);
    let title = format!(" {}", s.get(key::chapters::TITLE));
    let note = title_note(app, state);
    let room = usize::from(body.width).saturating_sub(title.chars().count() + 3);
    let note = super::chrome::ellipsize(&note, room);
    let pad =
        usize::from(body.width).saturating_sub(title.chars().count() + note.chars().count() + 1);
    // A waiting digit stands out; the rule for "read" stays quiet.
    let note_style = if state.pending_digit.is_some() {
        theme.tone(Tone::Focus)
    } else {
        theme.dim()
    };
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(title, theme.tone(Tone::Title)),
            Span::raw(" ".repeat(pad)),
            Span::styled(note, note_style),
        ])),
        clip(frame, Rect::new(0, body.y, body.width, 1)),
    );
    let area = layout::list(app.session.size.0, app.session.size.1);
    let width = usize::from(area.width);
    // The status column is as wide as the longest label in this language ("[entschieden]").
    let status_w = [
        key::chapters::STATUS_NEW,
        key::chapters::STATUS_STARTED,
        key::chapters::STATUS_READ,
        key::chapters::STATUS_DECIDED,
    ]
    .iter()
    .map(|k| s.get(*k).chars().count() + 2)
    .max()
    .unwrap_or(0);
    let lines: Vec<Line<'_>> = app
        .session
        .course()
        .chapters
        .iter()
        .enumerate()
        .skip(state.offset)
        .take(usize::from(area.height))
        .map(|(i, chapter)| {
            let status = format!("[{}]", status_label(app, chapter));
            let head = format!(
                "{:>2}  {status:<status_w$} {}",
                chapter.number, chapter.title
            );
            let head = super::chrome::ellipsize(&head, width);
            let rest = width.saturating_sub(head.chars().count() + 3);
            let summary: String = if rest > 10 {
                format!(" — {}", truncate(&chapter.summary, rest))
            } else {
                String::new()
            };
            if i == state.cursor {
                Line::from(vec![Span::styled(
                    format!("{head}{summary}"),
                    theme.selected(),
                )])
            } else {
                Line::from(vec![Span::raw(head), Span::styled(summary, theme.dim())])
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), clip(frame, rect(area)));
}

/// Beside the title: a digit waiting for a second one and what the next key does, else the
/// rule for "read".
fn title_note(app: &App, state: &ChaptersState) -> String {
    let s = app.session.strings();
    let count = app.session.course().chapters.len();
    match state.pending_digit {
        Some(digit) => {
            let low = usize::from(digit) * 10;
            s.fill(
                key::chapters::PENDING_DIGIT,
                &[
                    ("digit", &digit.to_string()),
                    ("low", &low.to_string()),
                    ("high", &(low + 9).min(count).to_string()),
                ],
            )
        }
        None => s.get(key::chapters::READ_RULE).to_owned(),
    }
}

/// "new", "started", "read" or "decided" (read and every decision in it answered).
fn status_label<'a>(app: &'a App, chapter: &Chapter) -> &'a str {
    let s = app.session.strings();
    let mut decisions = chapter.decision_ids().peekable();
    let has_decisions = decisions.peek().is_some();
    let all_decided = has_decisions
        && chapter
            .decision_ids()
            .all(|(id, _)| app.session.progress.decisions.contains_key(id));
    if all_decided {
        s.get(key::chapters::STATUS_DECIDED)
    } else if app.session.progress.chapters_read.contains(&chapter.id) {
        s.get(key::chapters::STATUS_READ)
    } else if app.session.progress.positions.contains_key(&chapter.id)
        || app.session.progress.last_chapter.as_ref() == Some(&chapter.id)
    {
        // Opened, but not read to its end with its reading time.
        s.get(key::chapters::STATUS_STARTED)
    } else {
        s.get(key::chapters::STATUS_NEW)
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

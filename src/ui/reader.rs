//! The lesson reader: chapter header line, the laid-out text, the search prompt.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use crate::app::doc_layout::Tone;
use crate::app::{App, ReaderState, layout};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the reader.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &ReaderState, theme: &Theme) {
    let s = app.session.strings();
    let course = app.session.course();
    let Some(chapter) = course.chapters.get(state.chapter) else {
        return;
    };
    let body = layout::body(app.session.size.0, app.session.size.1);
    let lines = crate::app::reader_lines(app, state);
    let area = layout::reader_text(app.session.size.0, app.session.size.1);
    let height = usize::from(area.height);
    let max_scroll = lines.len().saturating_sub(height);
    let percent = ((state.scroll as usize).min(max_scroll) * 100)
        .checked_div(max_scroll)
        .unwrap_or(100);
    let position = s.fill(
        "reader.chapter_of",
        &[
            ("n", &chapter.number.to_string()),
            ("total", &course.chapters.len().to_string()),
        ],
    );
    let head = format!(" {position} · {}", chapter.title);
    let right = format!("{percent}% ");
    let pad = usize::from(body.width).saturating_sub(head.chars().count() + right.chars().count());
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(head, theme.dim()),
            Span::raw(" ".repeat(pad)),
            Span::styled(right, theme.dim()),
        ])),
        clip(frame, Rect::new(0, body.y, body.width, 1)),
    );
    let visible: Vec<Line<'_>> = lines
        .iter()
        .skip(state.scroll as usize)
        .take(height)
        .map(|line| {
            Line::from(
                line.spans
                    .iter()
                    .map(|span| Span::styled(span.text.clone(), theme.tone(span.tone)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(visible), clip(frame, rect(area)));
    if let Some(search) = state.search.as_ref().filter(|s| s.editing) {
        let prompt = Line::from(vec![
            Span::styled(
                format!(" {}", s.get("reader.search_prompt")),
                theme.tone(Tone::Bold),
            ),
            Span::styled(format!("{}▏", search.query), theme.tone(Tone::Focus)),
        ]);
        let row = Rect::new(
            0,
            app.session.size.1.saturating_sub(2),
            app.session.size.0,
            1,
        );
        frame.render_widget(ratatui::widgets::Clear, clip(frame, row));
        frame.render_widget(Paragraph::new(prompt), clip(frame, row));
    }
}

//! A part of the workshop that arrives in a later version.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use crate::app::doc_layout::Tone;
use crate::app::{App, PlaceholderState, layout};
use ratatui::Frame;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the placeholder.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &PlaceholderState, theme: &Theme) {
    let s = app.strings();
    let lines = vec![
        Line::styled(s.get(state.title_key), theme.tone(Tone::Title)),
        Line::raw(""),
        Line::raw(s.get("placeholder.body")),
    ];
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }),
        clip(frame, rect(layout::list(app.size.0, app.size.1))),
    );
}

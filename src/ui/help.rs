//! The `?` help: every binding of the current screen, from the same table the keys use.

use super::chrome::clip;
use super::theme::Theme;
use crate::app::App;
use crate::app::doc_layout::Tone;
use crate::app::keymap::bindings;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

/// Draws the help overlay.
pub fn draw(frame: &mut Frame<'_>, app: &App, theme: &Theme) {
    let s = app.session.strings();
    let table = bindings(app.screen.kind());
    let mut lines: Vec<Line<'_>> = Vec::new();
    let mut seen = Vec::new();
    for binding in table {
        let keys: Vec<String> = binding.keys.iter().map(|k| k.label()).collect();
        let keys = keys.join(" / ");
        if seen.contains(&(keys.clone(), binding.label)) {
            continue;
        }
        seen.push((keys.clone(), binding.label));
        lines.push(Line::from(vec![
            Span::styled(format!("{keys:<22}"), theme.key()),
            Span::raw(s.get(binding.label).to_owned()),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(s.get("help.global"), theme.dim()));
    lines.push(Line::styled(s.get("help.close"), theme.dim()));
    let area = frame.area();
    let width = area.width.saturating_sub(4).min(70);
    let height = (lines.len() as u16 + 2).min(area.height.saturating_sub(2));
    let popup = Rect::new(
        (area.width - width) / 2,
        (area.height.saturating_sub(height)) / 2,
        width,
        height,
    );
    let title = s.fill("help.title", &[("screen", s.get(app.screen.title_key()))]);
    let border = super::theme::border_set(app.session.options.ascii);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_set(border)
        .title(Span::styled(title, theme.tone(Tone::Bold)));
    frame.render_widget(Clear, clip(frame, popup));
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        clip(frame, popup),
    );
}

//! The `?` help: every binding of the current screen, from the same table the keys use.

use super::chrome::clip;
use super::theme::Theme;
use crate::app::App;
use crate::app::doc_layout::Tone;
use crate::app::keymap::bindings;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::keymap::Binding;
use crate::content::Strings;

/// Draws the help overlay.
pub fn draw(frame: &mut Frame<'_>, app: &App, theme: &Theme) {
    let s = app.session.strings();
    let table = bindings(app.screen.kind());
    let area = frame.area();
    let width = area.width.saturating_sub(2).min(100);
    let (lines, height) = layout_lines(&entries(table, s), s, theme, area, width);
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
        .title(Span::styled(title, theme.tone(Tone::Bold)))
        // The close hint sits in the frame, so it stays visible however long the list is.
        .title_bottom(Span::styled(s.get("help.close"), theme.dim()));
    frame.render_widget(Clear, clip(frame, popup));
    frame.render_widget(Paragraph::new(lines).block(block), clip(frame, popup));
}

/// The bindings as (keys, label) pairs, each pair once.
fn entries<'a>(table: &[Binding], s: &'a Strings) -> Vec<(String, &'a str)> {
    let mut out: Vec<(String, &str)> = Vec::new();
    for binding in table {
        let keys: Vec<String> = binding.keys.iter().map(|k| k.label()).collect();
        let keys = keys.join(" / ");
        let label = s.get(binding.label);
        if !out.iter().any(|(k, l)| *k == keys && *l == label) {
            out.push((keys, label));
        }
    }
    out
}

/// The overlay's lines and height: one column when the list fits the terminal, else two
/// columns side by side (a short terminal such as 80x24 still shows every binding).
fn layout_lines<'a>(
    entries: &[(String, &'a str)],
    s: &'a Strings,
    theme: &Theme,
    area: Rect,
    width: u16,
) -> (Vec<Line<'a>>, u16) {
    // Two border rows; the close hint lives in the bottom border.
    let room = usize::from(area.height.saturating_sub(4));
    let inner = usize::from(width.saturating_sub(2));
    let columns = if entries.len() + 2 <= room { 1 } else { 2 };
    // Two columns are narrow: "h/l" instead of "h / l" leaves the labels their room.
    let compact: Vec<(String, &'a str)> = entries
        .iter()
        .map(|(k, l)| {
            (
                if columns > 1 {
                    k.replace(" / ", "/")
                } else {
                    k.clone()
                },
                *l,
            )
        })
        .collect();
    let entries = &compact;
    let per_column = entries.len().div_ceil(columns);
    let column_width = inner / columns;
    let key_width = entries
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0)
        .min(column_width / 2)
        + 1;
    let label_width = column_width.saturating_sub(key_width + 1).max(1);
    // One column's rows: key and label, a long label continues on the next row.
    let column = |part: &[(String, &'a str)]| -> Vec<(String, String)> {
        let mut rows = Vec::new();
        for (keys, label) in part {
            let keys: String = keys.chars().take(key_width - 1).collect();
            let mut first = true;
            for chunk in wrap(label, label_width) {
                let k = if first { keys.clone() } else { String::new() };
                rows.push((k, chunk));
                first = false;
            }
        }
        rows
    };
    let parts: Vec<Vec<(String, String)>> = entries.chunks(per_column.max(1)).map(column).collect();
    let height_rows = parts.iter().map(Vec::len).max().unwrap_or(0);
    let mut lines: Vec<Line<'a>> = (0..height_rows)
        .map(|row| {
            let mut spans = Vec::new();
            for part in &parts {
                let (k, l) = part.get(row).cloned().unwrap_or_default();
                spans.push(Span::styled(format!("{k:<key_width$}"), theme.key()));
                spans.push(Span::raw(format!(
                    "{l:<w$}",
                    w = column_width.saturating_sub(key_width)
                )));
            }
            Line::from(spans)
        })
        .collect();
    if lines.len() + 2 <= room {
        lines.push(Line::raw(""));
        lines.push(Line::styled(s.get("help.global"), theme.dim()));
    }
    let height = (lines.len() as u16 + 2).min(area.height.saturating_sub(2));
    (lines, height)
}

/// Splits `text` into pieces of at most `width` characters, at spaces where it can.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let head: String = line.chars().take(width).collect();
            line = line.chars().skip(width).collect();
            out.push(head);
        }
    }
    out.push(line);
    out
}

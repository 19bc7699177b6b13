//! The `?` help: every binding of the current screen, from the same table the keys use. When
//! the rows do not fit one column they go into two; the close hint sits in the bottom border so
//! it stays visible at every size.

use super::chrome::clip;
use super::theme::Theme;
use app::App;
use app::doc_layout::Tone;
use app::keymap::{ScreenKind, WORKSHOP_HELP, bindings};
use content::key;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph};

/// Widest the overlay gets on large terminals.
const MAX_WIDTH: u16 = 100;
/// Space between the two columns.
const GUTTER: usize = 2;

/// Draws the help overlay.
pub fn draw(frame: &mut Frame<'_>, app: &App, theme: &Theme) {
    let s = app.session.strings();
    let mut rows: Vec<(String, String)> = Vec::new();
    // Every screen's help ends with the workshop keys (stuck signal, instructor's banner).
    for binding in bindings(app.screen.kind()).iter().chain(WORKSHOP_HELP) {
        let keys: Vec<String> = binding.keys.iter().map(|k| k.label()).collect();
        let row = (keys.join(" / "), s.get(binding.label).to_owned());
        if !rows.contains(&row) {
            rows.push(row);
        }
    }
    let area = frame.area();
    let width = area.width.saturating_sub(4).min(MAX_WIDTH);
    let inner_w = usize::from(width.saturating_sub(4));
    let inner_h = usize::from(area.height.saturating_sub(4));
    let global = s.get(key::help::GLOBAL);
    let mut body = column(&rows, inner_w, theme);
    let mut with_global = true;
    if body.len() + 2 > inner_h {
        // Narrow columns: keys joined without spaces ("↑/↓/k/j") leave room for the labels.
        for row in &mut rows {
            row.0 = row.0.replace(" / ", "/");
        }
        body = two_columns(&rows, inner_w, theme);
        // Still too long: first the "everywhere" line gives way (its keys are rows too), then
        // the screen's last rows, never the workshop keys at the end (the stuck key must be
        // findable on every screen).
        with_global = body.len() + 2 <= inner_h;
        while body.len() > inner_h && rows.len() > WORKSHOP_HELP.len() + 1 {
            rows.remove(rows.len() - WORKSHOP_HELP.len() - 1);
            body = two_columns(&rows, inner_w, theme);
        }
    }
    if with_global {
        body.push(Line::raw(""));
        body.push(Line::styled(global, theme.dim()));
    }
    // Where chapters are read and listed, the rule for "read" (the list's status, Home's count).
    if matches!(app.screen.kind(), ScreenKind::Reader | ScreenKind::Chapters) {
        let rule = wrap(s.get(key::help::READ_RULE), inner_w);
        if body.len() + rule.len() < inner_h {
            body.push(Line::raw(""));
            body.extend(rule.into_iter().map(|l| Line::styled(l, theme.dim())));
        }
    }
    let height = u16::try_from(body.len() + 2)
        .unwrap_or(u16::MAX)
        .min(area.height.saturating_sub(2));
    let popup = Rect::new(
        area.width.saturating_sub(width) / 2,
        area.height.saturating_sub(height) / 2,
        width,
        height,
    );
    let title = s.fill(
        key::help::TITLE,
        &[("screen", s.get(app.screen.help_title_key()))],
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .padding(Padding::horizontal(1))
        .border_set(super::theme::border_set(app.session.options.ascii))
        .title(Span::styled(format!(" {title} "), theme.tone(Tone::Bold)))
        .title_bottom(
            Line::from(Span::styled(
                format!(" {} ", s.get(key::help::CLOSE)),
                theme.key(),
            ))
            .right_aligned(),
        );
    frame.render_widget(Clear, clip(frame, popup));
    frame.render_widget(Paragraph::new(body).block(block), clip(frame, popup));
}

/// The rows in two columns side by side, the first half on the left.
fn two_columns<'a>(rows: &[(String, String)], inner_w: usize, theme: &Theme) -> Vec<Line<'a>> {
    let col_w = inner_w.saturating_sub(GUTTER) / 2;
    // Split where the taller column is shortest: labels wrap to different heights, so half the
    // rows on each side can waste lines a small terminal needs.
    let half = (1..rows.len())
        .min_by_key(|&at| {
            let left = column(&rows[..at], col_w, theme).len();
            let right = column(&rows[at..], col_w, theme).len();
            (left.max(right), left.abs_diff(right))
        })
        .unwrap_or(rows.len());
    let left = column(&rows[..half], col_w, theme);
    let right = column(&rows[half..], col_w, theme);
    (0..left.len().max(right.len()))
        .map(|i| {
            let mut spans = left.get(i).map_or_else(
                || vec![Span::raw(" ".repeat(col_w))],
                |line| line.spans.clone(),
            );
            let used: usize = spans.iter().map(|sp| sp.content.chars().count()).sum();
            spans.push(Span::raw(" ".repeat(col_w.saturating_sub(used) + GUTTER)));
            if let Some(line) = right.get(i) {
                spans.extend(line.spans.iter().cloned());
            }
            Line::from(spans)
        })
        .collect()
}

/// One column of rows: keys padded to the widest, the description wrapped beside them.
fn column<'a>(rows: &[(String, String)], width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let key_w = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0) + 2;
    let text_w = width.saturating_sub(key_w).max(8);
    let mut lines = Vec::new();
    for (keys, label) in rows {
        for (i, part) in wrap(label, text_w).into_iter().enumerate() {
            let first = if i == 0 { keys.as_str() } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!("{first:<key_w$}"), theme.key()),
                Span::raw(part),
            ]));
        }
    }
    lines
}

/// Word wrap by characters (labels are short; a word longer than the width is split).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = vec![String::new()];
    let mut words: Vec<String> = Vec::new();
    for word in text.split(' ') {
        let chars: Vec<char> = word.chars().collect();
        if chars.is_empty() {
            words.push(String::new());
        }
        words.extend(chars.chunks(width).map(|c| c.iter().collect::<String>()));
    }
    for word in &words {
        let current = lines.last_mut().map_or(0, |l| l.chars().count());
        if current > 0 && current + 1 + word.chars().count() > width {
            lines.push(String::new());
        }
        if let Some(line) = lines.last_mut() {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wraps_at_spaces() {
        assert_eq!(
            wrap("scroll the tab now", 10),
            vec!["scroll the", "tab now"]
        );
        assert_eq!(wrap("short", 10), vec!["short"]);
        assert_eq!(wrap("fokussierten ab", 5), vec!["fokus", "siert", "en ab"]);
    }
}

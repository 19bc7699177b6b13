//! The scenario and fault menus: full width, one line per row (title and where it belongs, or
//! fault name and whether it can still fire), and the selected row explained underneath.

use super::super::chrome::clip;
use super::super::theme::Theme;
use app::doc_layout::Tone;
use app::simulator::{Picker, PickerKind, fault_rows, scenario_rows};
use app::{App, SimState};
use content::key;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

/// Rows kept for the explanation of the selected row when the terminal allows.
const DETAIL_ROWS: u16 = 4;
/// Rows the explanation keeps however long the list is (a scenario's summary and its
/// `queuelab sim` line): a longer list scrolls instead.
const DETAIL_MIN_ROWS: u16 = 3;

/// One menu row as drawn: the name column, the note after it, and whether the note is a warning.
struct Row {
    name: String,
    note: String,
    warn: bool,
    detail: Vec<(String, Tone)>,
}

/// Cuts `text` to `max` characters at a word boundary, ending in "…" when something was cut.
pub fn cut_at_word(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let room = max.saturating_sub(1);
    let head: String = text.chars().take(room + 1).collect();
    let cut = head
        .char_indices()
        .filter(|(_, c)| *c == ' ')
        .map(|(i, _)| i)
        .next_back()
        .filter(|i| *i > 0)
        .unwrap_or_else(|| head.char_indices().nth(room).map_or(head.len(), |(i, _)| i));
    let mut out = head[..cut].trim_end().to_owned();
    if max > 0 {
        out.push('…');
    }
    out
}

fn rows(app: &App, s: &SimState, kind: PickerKind) -> Vec<Row> {
    match kind {
        PickerKind::Scenario => scenario_rows(&app.session)
            .into_iter()
            .map(|r| Row {
                detail: vec![
                    (r.summary, Tone::Text),
                    (format!("queuelab sim --scenario {}", r.id), Tone::Dim),
                ],
                name: r.title,
                note: r.belongs,
                warn: false,
            })
            .collect(),
        PickerKind::Fault => fault_rows(&app.session, s)
            .into_iter()
            .map(|r| {
                let mut detail = vec![(r.explanation, Tone::Text)];
                if let Some(why) = &r.blocked {
                    detail.push((why.clone(), Tone::Bad));
                }
                Row {
                    name: r.name,
                    note: r.blocked.unwrap_or_default(),
                    warn: true,
                    detail,
                }
            })
            .collect(),
    }
}

/// The menu's rows from `first`, `shown` of them, each a name column and its note (the one at
/// `cursor` selected), then the rule above the explanation.
fn list_lines<'a>(
    rows: &[Row],
    cursor: usize,
    first: usize,
    shown: usize,
    inner_w: usize,
    ascii: bool,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let name_w = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(inner_w / 2);
    let mut lines: Vec<Line<'_>> = Vec::new();
    for (i, row) in rows.iter().enumerate().skip(first).take(shown) {
        let marker = if i == cursor { "> " } else { "  " };
        let name = cut_at_word(&row.name, name_w);
        let note_w = inner_w.saturating_sub(name_w + 4);
        let note = cut_at_word(&row.note, note_w);
        let head = format!("{marker}{name:<name_w$}  ");
        let note_tone = if row.warn { Tone::Bad } else { Tone::Dim };
        lines.push(if i == cursor {
            Line::styled(format!("{head}{note}"), theme.selected())
        } else {
            Line::from(vec![
                Span::raw(head),
                Span::styled(note, theme.tone(note_tone)),
            ])
        });
    }
    let rule = if ascii { "-" } else { "─" };
    lines.push(Line::styled(rule.repeat(inner_w), theme.dim()));
    lines
}

/// Draws the open menu over the screen: the popup's frame, the list, the selected row's
/// explanation and the keys line.
pub fn draw(frame: &mut Frame<'_>, app: &App, s: &SimState, picker: Picker, theme: &Theme) {
    let strings = app.session.strings();
    let rows = rows(app, s, picker.kind);
    let title = match picker.kind {
        PickerKind::Scenario => strings.get(key::simulator::CHOOSE_SCENARIO),
        PickerKind::Fault => strings.get(key::simulator::CHOOSE_FAULT),
    };
    let area = frame.area();
    let width = area.width.saturating_sub(2);
    let inner_w = usize::from(width.saturating_sub(2));
    let list_h = rows.len() as u16;
    // Borders, the keys line, a rule, the explanation.
    let height = (list_h + 4 + DETAIL_ROWS).min(area.height.saturating_sub(2));
    let popup = Rect::new(1, area.height.saturating_sub(height) / 2, width, height);
    let inner_h = height.saturating_sub(3);
    // The explanation gets what the list leaves, at least DETAIL_MIN_ROWS (while the popup
    // keeps a list row beside them), at most DETAIL_ROWS.
    let least = DETAIL_MIN_ROWS.min(inner_h.saturating_sub(2)).max(1);
    let detail_h = inner_h.saturating_sub(list_h + 1).clamp(least, DETAIL_ROWS);
    let shown = usize::from(inner_h.saturating_sub(detail_h + 1)).max(1);
    let first = picker.cursor.saturating_sub(shown - 1);
    let ascii = app.session.options.ascii;
    let mut list = list_lines(&rows, picker.cursor, first, shown, inner_w, ascii, theme);
    let set = super::super::theme::border_set(ascii);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_set(set)
        .title(Span::styled(title, theme.tone(Tone::Bold)));
    frame.render_widget(Clear, clip(frame, popup));
    let inner = block.inner(popup);
    frame.render_widget(block, clip(frame, popup));
    let list_rect = Rect::new(
        inner.x,
        inner.y,
        inner.width,
        (list.len() as u16).min(inner.height),
    );
    let detail_rect = Rect::new(
        inner.x,
        list_rect.y + list_rect.height,
        inner.width,
        detail_h.min(inner.height.saturating_sub(list_rect.height + 1)),
    );
    let keys_rect = Rect::new(
        inner.x,
        inner.y + inner.height.saturating_sub(1),
        inner.width,
        1,
    );
    let detail: Vec<Line<'_>> = rows
        .get(picker.cursor)
        .map(|r| {
            r.detail
                .iter()
                .map(|(t, tone)| Line::styled(t.clone(), theme.tone(*tone)))
                .collect()
        })
        .unwrap_or_default();
    list.truncate(usize::from(list_rect.height));
    frame.render_widget(Paragraph::new(list), clip(frame, list_rect));
    frame.render_widget(
        Paragraph::new(detail).wrap(Wrap { trim: true }),
        clip(frame, detail_rect),
    );
    frame.render_widget(
        Paragraph::new(Line::styled(
            strings.get(key::simulator::PICKER_KEYS),
            theme.dim(),
        )),
        clip(frame, keys_rect),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_fall_between_words() {
        assert_eq!(
            cut_at_word("Kapitel 9: Die Inbox", 40),
            "Kapitel 9: Die Inbox"
        );
        assert_eq!(cut_at_word("Kapitel 9: Die Inbox", 15), "Kapitel 9: Die…");
        assert_eq!(cut_at_word("Idempotenzschlüssel", 8), "Idempot…");
        assert_eq!(cut_at_word("abc", 0), "");
    }
}

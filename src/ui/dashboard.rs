//! The instructor's dashboard: a header with the session and the instructor key, the section
//! tabs, one scrollable section, and a footer with the keys, the pacing prompt or the last
//! outcome. It borrows the dashboard state and draws; nothing here changes state.

use content::key;

mod answers;
mod door;
mod join;
mod pace_list;
mod room;

use super::chrome::ellipsize;
use super::theme::Theme;
use app::dashboard::{Dashboard, Section};
use app::doc_layout::Tone;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

/// Smallest terminal the dashboard draws in (header, tabs, a few rows, footer).
pub const MIN_SIZE: (u16, u16) = (40, 8);

/// Draws the dashboard.
pub fn draw(frame: &mut Frame<'_>, dash: &Dashboard, theme: &Theme) {
    let area = frame.area();
    if area.width == 0 || area.height == 0 {
        return;
    }
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = dash.strings().fill(
            key::dash::TOO_SMALL,
            &[
                ("w", &MIN_SIZE.0.to_string()),
                ("h", &MIN_SIZE.1.to_string()),
            ],
        );
        frame.render_widget(
            Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    header(frame, dash, theme, row(area, 0));
    tabs(frame, dash, theme, row(area, 1));
    let body = Rect::new(0, 2, area.width, dash.page());
    let lines = body_lines(dash, theme, body.width);
    let from = dash.clamped_scroll(lines.len());
    let shown: Vec<Line<'_>> = lines
        .into_iter()
        .skip(from)
        .take(usize::from(body.height))
        .collect();
    frame.render_widget(Paragraph::new(shown), body);
    let footer_top = 2 + dash.page();
    let footer_area = Rect::new(
        area.x,
        area.y + footer_top,
        area.width,
        area.height.saturating_sub(footer_top),
    );
    footer(frame, dash, theme, footer_area);
}

/// How many body lines the current section has at `width` (for clamping the scroll).
pub fn body_len(dash: &Dashboard, width: u16) -> usize {
    body_lines(dash, &Theme::new(true), width).len()
}

fn body_lines(dash: &Dashboard, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width);
    // A pacing prompt shows what it offers, by title, until it is sent or cancelled.
    if let Some(list) = dash
        .prompt
        .as_ref()
        .and_then(|p| pace_list::lines(dash, p.kind, theme, width))
    {
        return list;
    }
    match dash.section {
        Section::Room => room::lines(dash, theme, width),
        Section::Answers => answers::lines(dash, theme, width),
        Section::Join => join::lines(dash, theme, width),
    }
}

fn row(area: Rect, y: u16) -> Rect {
    Rect::new(area.x, area.y + y, area.width, 1)
}

fn header(frame: &mut Frame<'_>, dash: &Dashboard, theme: &Theme, area: Rect) {
    let s = dash.strings();
    let stuck = dash.summary.trainees.iter().filter(|t| t.stuck).count();
    let (in_room, active) = dash.summary.presence_counts(dash.summary.now_ms);
    let counts = s.fill(
        key::dash::HEADER,
        &[
            ("in_room", &in_room.to_string()),
            ("active", &active.to_string()),
            ("stuck", &stuck.to_string()),
        ],
    );
    // The key only on request (`v`): any section may be on the projector.
    let right = if dash.key_shown() {
        s.fill(key::dash::KEY, &[("key", &dash.access.key)])
    } else {
        String::new()
    };
    let width = usize::from(area.width);
    // The key and the counts stay whole; the session name gives way.
    let room = width.saturating_sub(counts.width() + right.width() + 7);
    // The date only where the whole name fits beside it: the name says which session.
    let dated = format!("{} · {}", dash.summary.session, dash.summary.date);
    let session = if dash.summary.date.is_empty() || dated.width() > room {
        dash.summary.session.clone()
    } else {
        dated
    };
    let left = format!(" {} · {counts}", ellipsize(&session, room));
    let gap = width.saturating_sub(left.width() + right.width() + 1);
    let line = format!("{left}{}{right} ", " ".repeat(gap));
    frame.render_widget(Paragraph::new(line).style(theme.header()), area);
}

fn tabs(frame: &mut Frame<'_>, dash: &Dashboard, theme: &Theme, area: Rect) {
    let s = dash.strings();
    let mut spans = vec![Span::raw(" ")];
    for (i, section) in Section::ALL.iter().enumerate() {
        let label = format!(" {} {} ", i + 1, s.get(section.label_key()));
        let style = if *section == dash.section {
            theme.selected()
        } else {
            theme.dim()
        };
        spans.push(Span::styled(label, style));
        spans.push(Span::raw(" "));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn footer(frame: &mut Frame<'_>, dash: &Dashboard, theme: &Theme, area: Rect) {
    let width = usize::from(area.width);
    let line = if let Some(prompt) = &dash.prompt {
        Line::from(vec![
            Span::styled(format!(" {} ", dash.prompt_label(prompt)), theme.key()),
            Span::raw(format!("{}_", prompt.input)),
        ])
    } else if let Some((text, error)) = &dash.note {
        let style = if *error {
            theme.error()
        } else {
            theme.tone(Tone::Good)
        };
        // The whole outcome over the footer's rows (the keys come back after a few seconds).
        let mut rows = join::words(text, width.saturating_sub(1));
        let height = usize::from(area.height.max(1));
        if rows.len() > height {
            rows.truncate(height);
            if let Some(last) = rows.last_mut() {
                *last = ellipsize(&format!("{last} …"), width.saturating_sub(1));
            }
        }
        let lines: Vec<Line<'_>> = rows
            .into_iter()
            .map(|row| Line::styled(format!(" {row}"), style))
            .collect();
        frame.render_widget(Paragraph::new(lines), area);
        return;
    } else {
        let rows: Vec<Line<'_>> = dash
            .key_help()
            .iter()
            .map(|keys| {
                Line::styled(
                    format!(" {}", ellipsize(keys, width.saturating_sub(1))),
                    theme.dim(),
                )
            })
            .collect();
        frame.render_widget(Paragraph::new(rows), area);
        return;
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// `text` cut or padded to exactly `width` columns.
fn cell(text: &str, width: usize) -> String {
    let mut out = ellipsize(text, width);
    while out.width() > width {
        out.pop();
    }
    let pad = width - out.width();
    out + &" ".repeat(pad)
}

/// A section title line.
fn title(text: &str, theme: &Theme) -> Line<'static> {
    Line::styled(format!(" {text}"), theme.tone(Tone::Heading))
}

/// A bar of `value` out of `max` in `width` cells (at least one cell for any non-zero value,
/// so a single answer is visible).
fn bar(value: u32, max: u32, width: usize, ascii: bool) -> String {
    let filled = if max == 0 || value == 0 {
        0
    } else {
        ((value as usize * width).div_ceil(max as usize)).clamp(1, width)
    };
    let (full, empty) = if ascii { ('#', '.') } else { ('█', '░') };
    std::iter::repeat_n(full, filled)
        .chain(std::iter::repeat_n(empty, width - filled))
        .collect()
}

/// Styled text for a dim remark.
fn dim(text: String, theme: &Theme) -> Span<'static> {
    Span::styled(text, theme.dim())
}

/// Unstyled text.
fn plain(text: String) -> Span<'static> {
    Span::styled(text, Style::default())
}

#[cfg(test)]
mod tests {
    use super::{bar, cell};

    #[test]
    fn bars_show_any_answer_and_fill_at_the_maximum() {
        assert_eq!(bar(0, 5, 4, true), "....");
        assert_eq!(bar(1, 40, 4, true), "#...");
        assert_eq!(bar(5, 5, 4, false), "████");
        assert_eq!(bar(3, 0, 2, true), "..");
    }

    #[test]
    fn cells_have_their_exact_width() {
        assert_eq!(cell("Ada", 5), "Ada  ");
        assert_eq!(cell("Idempotenz", 5), "Idem…");
        assert!(cell("日本語テキスト", 5).chars().count() <= 5);
    }
}

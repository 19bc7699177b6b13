//! The "join a workshop" dialog over Home (or "leave the workshop" when joined): the question,
//! the whole typed text wrapped, the last mistake, and the keys.

use super::chrome::{clip, ellipsize};
use super::theme::Theme;
use app::App;
use app::doc_layout::Tone;
use app::{JoinForm, JoinStep};
use content::key;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Wrap};

/// Widest the dialog gets.
const MAX_WIDTH: u16 = 76;

/// Draws the dialog centred on the screen.
pub fn draw(frame: &mut Frame<'_>, app: &App, form: &JoinForm, theme: &Theme) {
    let s = app.session.strings();
    let area = frame.area();
    let width = area.width.saturating_sub(4).min(MAX_WIDTH);
    let inner = usize::from(width.saturating_sub(4));
    let mut lines = Vec::new();
    match &form.step {
        JoinStep::ConfirmDigits { digits, .. } => lines.push(Line::styled(
            s.fill(key::join::CHECK_DIGITS, &[("digits", digits)]),
            theme.tone(Tone::Bold),
        )),
        JoinStep::Name { session, .. } => {
            lines.push(Line::raw(
                s.fill(key::join::CODE_TAKEN, &[("session", session)]),
            ));
        }
        _ => {}
    }
    lines.push(Line::styled(
        s.get(form.label_key()),
        theme.tone(Tone::Bold),
    ));
    if matches!(form.step, JoinStep::Url | JoinStep::Name { .. }) {
        // The whole typed text, cut into rows here (a URL has no spaces to wrap at): a long
        // URL's start (its host) stays readable too.
        let typed: Vec<char> = format!("{}_", form.input).chars().collect();
        let first = inner.saturating_sub(2).max(1).min(typed.len());
        lines.push(Line::from(vec![
            Span::styled("> ", theme.key()),
            Span::raw(typed[..first].iter().collect::<String>()),
        ]));
        for row in typed[first..].chunks(inner.max(1)) {
            lines.push(Line::raw(row.iter().collect::<String>()));
        }
    }
    if let Some(error) = &form.error {
        lines.push(Line::styled(error.clone(), theme.error()));
    }
    // Rows the wrapped lines take (an unbroken URL wraps by characters), plus borders and a
    // blank row above and below.
    let rows: usize = lines
        .iter()
        .map(|l| l.width().div_ceil(inner.max(1)).max(1))
        .sum();
    let height = u16::try_from(rows + 4)
        .unwrap_or(u16::MAX)
        .min(area.height.saturating_sub(2));
    let popup = Rect::new(
        area.width.saturating_sub(width) / 2,
        area.height.saturating_sub(height) / 2,
        width,
        height,
    );
    let hint = ellipsize(s.get(key::join::HINT), inner);
    let block = Block::default()
        .borders(Borders::ALL)
        .padding(Padding::horizontal(1))
        .border_set(super::theme::border_set(app.session.options.ascii))
        .title(Span::styled(
            format!(" {} ", s.get(form.title_key())),
            theme.tone(Tone::Bold),
        ))
        .title_bottom(Line::from(Span::styled(format!(" {hint} "), theme.key())).right_aligned());
    frame.render_widget(Clear, clip(frame, popup));
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).block(block),
        clip(frame, popup),
    );
}

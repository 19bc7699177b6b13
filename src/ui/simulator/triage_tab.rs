//! The DLQ triage tab: "cause fixed", the replay batch, the DLQ as it was at the event under the
//! time cursor (with each entry's reason, or where to find it on SQS), what duplicate detection
//! dropped, and what a replay under a new message id means for the inbox.

use super::super::chrome::clip;
use super::super::rect;
use super::super::theme::Theme;
use crate::app::doc_layout::Tone;
use crate::app::simulator::{MAX_BATCH, entries_at, last_drop, view};
use crate::app::{App, SimState, layout};
use crate::sim::moments::human_ms;
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

/// Draws the DLQ triage tab into `area`.
pub fn draw(frame: &mut Frame<'_>, app: &App, s: &SimState, theme: &Theme, area: layout::Area) {
    let strings = app.session.strings();
    let lang = app.session.lang;
    let width = usize::from(area.width);
    let fixed = if s.triage.cause_fixed { "[x]" } else { "[ ]" };
    let entries = entries_at(s);
    let event = s.shown_index().map_or(0, |i| i + 1);
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("{fixed} {}", strings.get("simulator.cause_fixed")),
            theme.tone(if s.triage.cause_fixed {
                Tone::Good
            } else {
                Tone::Bold
            }),
        ),
        Span::raw(format!(
            "  ·  {}",
            strings.fill(
                "simulator.batch",
                &[
                    ("n", &s.triage.batch.to_string()),
                    ("max", &MAX_BATCH.to_string())
                ]
            )
        )),
    ])];
    // The count and what duplicate detection dropped share one wrapped paragraph, so at 80x24
    // the outcome and the offer below both stay on screen.
    let mut count = strings.fill(
        "simulator.dlq_count",
        &[
            ("n", &entries.len().to_string()),
            ("event", &event.to_string()),
        ],
    );
    let mut tone = theme.dim();
    if let Some(drop) = last_drop(s) {
        count.push_str(" · ");
        count.push_str(&strings.fill(
            "simulator.triage_dropped",
            &[
                ("n", &drop.count),
                ("ago", &human_ms(lang, drop.ago_ms)),
                ("window", &human_ms(lang, drop.window_ms)),
            ],
        ));
        tone = theme.tone(Tone::Bad);
    }
    wrapped(&mut lines, &count, width, tone);
    if !entries.is_empty() {
        let text = strings.get("simulator.triage_new_id");
        wrapped(&mut lines, text, width, theme.dim());
    }
    for entry in entries.iter().skip(usize::from(s.scroll)) {
        let mark = if entry.dropped { "!" } else { " " };
        let mut spans = vec![
            Span::styled(mark, theme.tone(Tone::Bad)),
            Span::styled(
                format!("{:<6}", view::short_id(&entry.message_id)),
                theme.tone(Tone::Bold),
            ),
        ];
        if entry.reason.is_empty() {
            // SQS: the redrive policy moves the message without any reason.
            spans.push(Span::styled(
                format!(
                    "×{} {}",
                    entry.deliveries,
                    strings.get("simulator.triage_no_reason")
                ),
                theme.dim(),
            ));
        } else {
            spans.push(Span::styled(
                format!("{:<24} ", entry.reason),
                theme.tone(Tone::Bad),
            ));
            spans.push(Span::raw(format!(
                "×{} {}",
                entry.deliveries, entry.description
            )));
        }
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), clip(frame, rect(area)));
}

/// Appends `text` word-wrapped to `width` columns, so the explanation is never cut off.
fn wrapped(lines: &mut Vec<Line<'_>>, text: &str, width: usize, style: Style) {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.width() + 1 + word.width() > width {
            lines.push(Line::styled(std::mem::take(&mut line), style));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(Line::styled(line, style));
    }
}

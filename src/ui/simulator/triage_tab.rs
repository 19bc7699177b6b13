//! The DLQ triage tab: "cause fixed", the replay batch, and the DLQ entries with their reason.

use super::super::chrome::clip;
use super::super::rect;
use super::super::theme::Theme;
use crate::app::doc_layout::Tone;
use crate::app::simulator::MAX_BATCH;
use crate::app::simulator::view;
use crate::app::{App, SimState, layout};
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the DLQ triage tab into `area`.
pub fn draw(frame: &mut Frame<'_>, app: &App, s: &SimState, theme: &Theme, area: layout::Area) {
    let strings = app.session.strings();
    let fixed = if s.triage.cause_fixed { "[x]" } else { "[ ]" };
    let mut lines = vec![
        Line::from(vec![
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
        ]),
        Line::styled(
            strings.fill(
                "simulator.dlq_count",
                &[("n", &s.triage.dlq.len().to_string())],
            ),
            theme.dim(),
        ),
    ];
    for entry in s.triage.dlq.iter().skip(usize::from(s.scroll)) {
        lines.push(Line::from(vec![
            Span::styled(
                format!("{:<6}", view::short_id(&entry.message_id)),
                theme.tone(Tone::Bold),
            ),
            Span::styled(format!("{:<24} ", entry.reason), theme.tone(Tone::Bad)),
            Span::raw(format!("×{} {}", entry.delivery_count, entry.description)),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), clip(frame, rect(area)));
}

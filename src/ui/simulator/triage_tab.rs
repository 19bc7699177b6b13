//! The DLQ triage tab: "cause fixed", the replay batch, the DLQ as it was at the event under the
//! time cursor (with each entry's reason, or where to find it on SQS), what duplicate detection
//! dropped, and what a replay under a new message id means for the inbox.

use super::super::chrome::clip;
use super::super::rect;
use super::super::theme::Theme;
use super::picker;
use app::doc_layout::Tone;
use app::simulator::{Dropped, MAX_BATCH, ShownEntry, entries_at, last_drop, view};
use app::{App, SimState, layout};
use content::key;
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use sim::moments::human_ms;
use unicode_width::UnicodeWidthStr;

/// Draws the DLQ triage tab into `area`. The entries matter most: the keys row, a one-row
/// summary and as many entries as fit come first (with a `PgDn` hint for the rest); the longer
/// explanations follow only where each fits whole, so a tall moment above never hides the
/// entries.
pub fn draw(frame: &mut Frame<'_>, app: &App, s: &SimState, theme: &Theme, area: layout::Area) {
    let strings = app.session.strings();
    let width = usize::from(area.width);
    let height = usize::from(area.height);
    let entries = entries_at(s);
    let drop = last_drop(s);
    let mut lines = head_lines(app, s, theme, area, &entries, drop.as_ref());
    // The entries take every row left, less one for the "more" hint when they do not all fit.
    let room = height.saturating_sub(lines.len()).max(1);
    let skip = usize::from(s.scroll).min(entries.len().saturating_sub(1));
    let rest = entries.len() - skip;
    let shown = if rest > room {
        room.saturating_sub(1).max(1)
    } else {
        rest
    };
    for entry in entries.iter().skip(skip).take(shown) {
        lines.push(entry_line(strings, theme, entry, width));
    }
    let hidden = rest - shown;
    if hidden > 0 {
        let text = strings.fill(key::simulator::TRIAGE_MORE, &[("n", &hidden.to_string())]);
        lines.push(Line::styled(picker::cut_at_word(&text, width), theme.dim()));
    }
    // The explanations, each only when it fits whole in the rows still free.
    for (text, style) in details(app, theme, &entries, drop.as_ref()) {
        let mut rows = Vec::new();
        wrapped(&mut rows, &text, width, style);
        if lines.len() + rows.len() <= height {
            lines.extend(rows);
        }
    }
    frame.render_widget(Paragraph::new(lines), clip(frame, rect(area)));
}

/// The keys row ("cause fixed", the batch) and the summary (entries at the event, what was
/// dropped); the summary keeps one row when wrapping it would push out the first entry.
fn head_lines(
    app: &App,
    s: &SimState,
    theme: &Theme,
    area: layout::Area,
    entries: &[ShownEntry],
    drop: Option<&Dropped>,
) -> Vec<Line<'static>> {
    let strings = app.session.strings();
    let width = usize::from(area.width);
    let height = usize::from(area.height);
    let fixed = if s.triage.cause_fixed { "[x]" } else { "[ ]" };
    let event = s.shown_index().map_or(0, |i| i + 1);
    let keys = format!(
        "{fixed} {}  ·  {}",
        strings.get(key::simulator::CAUSE_FIXED),
        strings.fill(
            key::simulator::BATCH,
            &[
                ("n", &s.triage.batch.to_string()),
                ("max", &MAX_BATCH.to_string())
            ]
        )
    );
    let key_tone = theme.tone(if s.triage.cause_fixed {
        Tone::Good
    } else {
        Tone::Bold
    });
    let mut lines = Vec::new();
    wrapped(&mut lines, &keys, width, key_tone);
    let mut summary = strings.fill(
        key::simulator::DLQ_COUNT,
        &[
            ("n", &entries.len().to_string()),
            ("event", &event.to_string()),
        ],
    );
    if let Some(drop) = drop {
        summary.push_str(" · ");
        summary
            .push_str(&strings.fill(key::simulator::TRIAGE_DROPPED_SHORT, &[("n", &drop.count)]));
    }
    let summary_tone = if drop.is_some() {
        theme.tone(Tone::Bad)
    } else {
        theme.dim()
    };
    // The summary wraps while the first entry still fits below it; else it keeps one row.
    let keys_rows = lines.len();
    wrapped(&mut lines, &summary, width, summary_tone);
    if lines.len() + usize::from(!entries.is_empty()) > height {
        lines.truncate(keys_rows);
        lines.push(Line::styled(
            picker::cut_at_word(&summary, width),
            summary_tone,
        ));
    }
    lines
}

/// The longer explanations with their styles: what duplicate detection dropped, and what a
/// replay under a new message id means.
fn details(
    app: &App,
    theme: &Theme,
    entries: &[ShownEntry],
    drop: Option<&Dropped>,
) -> Vec<(String, Style)> {
    let strings = app.session.strings();
    let lang = app.session.lang;
    let mut details = Vec::new();
    if let Some(drop) = drop {
        details.push((
            strings.fill(
                key::simulator::TRIAGE_DROPPED,
                &[
                    ("n", &drop.count),
                    ("ago", &human_ms(lang, drop.ago_ms)),
                    ("window", &human_ms(lang, drop.window_ms)),
                ],
            ),
            theme.tone(Tone::Bad),
        ));
    }
    if !entries.is_empty() {
        details.push((
            strings.get(key::simulator::TRIAGE_NEW_ID).to_owned(),
            theme.dim(),
        ));
    }
    details
}

/// One DLQ entry in one row: its mark, id, reason (or where to look for it on SQS), deliveries
/// and last error; a row wider than the tab ends in "…".
fn entry_line<'a>(
    strings: &content::Strings,
    theme: &Theme,
    entry: &ShownEntry,
    width: usize,
) -> Line<'a> {
    let mark = if entry.dropped { "!" } else { " " };
    let id = format!("{:<6}", view::short_id(&entry.message_id));
    let used = mark.width() + id.width();
    let mut spans = vec![
        Span::styled(mark, theme.tone(Tone::Bad)),
        Span::styled(id, theme.tone(Tone::Bold)),
    ];
    let fit = |text: String, used: usize| picker::cut_at_word(&text, width.saturating_sub(used));
    if entry.reason.is_empty() {
        // SQS: the redrive policy moves the message without any reason.
        let text = format!(
            "×{} {}",
            entry.deliveries,
            strings.get(key::simulator::TRIAGE_NO_REASON)
        );
        spans.push(Span::styled(fit(text, used), theme.dim()));
    } else {
        let reason = fit(format!("{:<24} ", entry.reason), used);
        let used = used + reason.width();
        spans.push(Span::styled(reason, theme.tone(Tone::Bad)));
        let text = format!("×{} {}", entry.deliveries, entry.description);
        spans.push(Span::raw(fit(text, used)));
    }
    Line::from(spans)
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

//! The flow map: eight stages as boxes with counters and tokens, arrows between them, the
//! failing part highlighted and marked in words, and tokens moving during a beat.

use super::super::chrome::clip;
use super::super::rect;
use super::super::theme::Theme;
use crate::app::doc_layout::Tone;
use crate::app::simulator::{labels, view};
use crate::app::{App, SimState, layout};
use crate::sim::{Outcome, Snapshot, Stage};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

fn count(stage: Stage, snap: &Snapshot) -> u64 {
    let tokens = snap.tokens.iter().filter(|t| t.stage == stage).count() as u64;
    match stage {
        // The engine counts no retry stage; waiting messages are the tokens there.
        Stage::Retry => tokens,
        // Its stage counters for these two miss some paths; the metrics are exact.
        Stage::Api => snap.metrics.accepted,
        Stage::Effect => snap
            .metrics
            .effects
            .max(snap.tables.len(crate::sim::Table::Effects) as u64),
        _ => snap.scalars.stages.for_stage(stage),
    }
}

/// Draws the map into `area`.
pub fn draw(frame: &mut Frame<'_>, app: &App, s: &SimState, theme: &Theme, area: layout::Area) {
    let boxes = layout::flow_boxes(area);
    let snap = s.shown();
    let failing = snap.and_then(view::failing);
    let active = snap.and_then(|x| x.last_event.as_ref()).map(|e| e.stage);
    let ascii = app.session.options.ascii;
    let strings = app.session.strings();
    let border = if ascii {
        super::super::theme::ASCII_BORDER
    } else {
        ratatui::symbols::border::ROUNDED
    };
    for (stage, area) in Stage::ALL.iter().zip(boxes) {
        let n = snap.map_or(0, |x| count(*stage, x));
        let fail = failing.filter(|(f, _)| f == stage);
        let is_active = active == Some(*stage);
        let style = match (fail, is_active) {
            (Some(_), _) => theme.tone(Tone::Bad),
            (None, true) => theme.tone(Tone::Focus),
            (None, false) => theme.tone(Tone::Border),
        };
        // The count goes inside the box: a title cut at a narrow width would turn 10 into 1.
        let title = if *stage == Stage::Consumer {
            format!("{} {n}", labels::title(strings, *stage, s.settings.broker))
        } else {
            labels::title(strings, *stage, s.settings.broker)
        };
        // Service Bus in a narrow box: its short name rather than a cut one.
        let title =
            if title.chars().count() + 2 > usize::from(area.width) && *stage == Stage::Broker {
                s.settings.broker.as_str().to_uppercase()
            } else {
                title
            };
        // The active stage gets a thick frame and a failing one a double frame, so neither
        // depends on colour.
        let set = match (fail, is_active, ascii) {
            (Some(_), _, false) => ratatui::symbols::border::DOUBLE,
            (None, true, false) => ratatui::symbols::border::THICK,
            _ => border,
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_set(set)
            .border_style(style)
            .title(Span::styled(title, style));
        let mut lines = Vec::new();
        if *stage == Stage::Consumer {
            for i in 0..s.timeline.consumers {
                let (text, outcome) =
                    labels::consumer_state(strings, s.settings.broker, view::instance_event(s, i));
                let tone = if outcome == Outcome::Ok {
                    Tone::Text
                } else {
                    Tone::Bad
                };
                lines.push(Line::styled(
                    format!("{} {text}", view::instance_letter(i)),
                    theme.tone(tone),
                ));
            }
        } else {
            let dups = snap.map_or(0, view::duplicate_effects);
            let words = snap.and_then(|x| {
                labels::count_line(
                    strings,
                    app.session.lang,
                    *stage,
                    s.settings.broker,
                    x,
                    n,
                    dups,
                )
            });
            let tone = if dups > 0 && *stage == Stage::Effect {
                Tone::Bad
            } else {
                Tone::Text
            };
            // A word that cannot fit the box would be cut: then the number and its dots.
            let inner = usize::from(area.width.saturating_sub(2));
            let words = words.filter(|w| w.split_whitespace().all(|x| x.chars().count() <= inner));
            match words {
                Some(w) => lines.push(Line::styled(w, theme.tone(tone))),
                None => lines.push(tokens_line(*stage, snap, n, ascii, usize::from(area.width))),
            }
            if dups > 0 && *stage == Stage::Effect && lines.len() < 2 && inner < 14 {
                // Narrow: the duplicate count still shows, in its short form.
                lines.push(Line::styled(
                    strings.fill("simulator.mark_duplicates", &[("n", &dups.to_string())]),
                    theme.tone(Tone::Bad),
                ));
            }
        }
        if let Some((_, key)) = fail {
            let mark = if ascii { "!" } else { "✗" };
            // First, so a small box never cuts off what is failing.
            lines.insert(
                0,
                Line::styled(
                    format!("{mark} {}", app.session.strings().get(key)),
                    theme.tone(Tone::Bad),
                ),
            );
        }
        frame.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(ratatui::widgets::Wrap { trim: true }),
            clip(frame, rect(area)),
        );
    }
    arrows(frame, &boxes, ascii, theme.dim());
    if !app.session.options.reduced_motion && s.timeline.playing {
        movers(frame, s, &boxes, ascii, theme.tone(Tone::Focus));
    }
}

/// The stage's count, then one dot per token there (as many as fit).
fn tokens_line(
    stage: Stage,
    snap: Option<&Snapshot>,
    count: u64,
    ascii: bool,
    width: usize,
) -> Line<'static> {
    let Some(snap) = snap else {
        return Line::raw("0");
    };
    let mut text = count.to_string();
    let n = snap.tokens.iter().filter(|t| t.stage == stage).count();
    let room = width.saturating_sub(text.len() + 6);
    let dot = if ascii { "o" } else { "●" };
    let shown = n.min(room);
    if shown > 0 {
        text = format!("{text} {}", dot.repeat(shown));
    }
    if n > shown && room > 0 {
        text = format!("{text}+{}", n - shown);
    }
    Line::raw(text)
}

fn arrows(frame: &mut Frame<'_>, boxes: &[layout::Area; 8], ascii: bool, style: Style) {
    let right = if ascii { "->" } else { "─▶" };
    let main = [0usize, 1, 2, 3, 6, 7];
    for pair in main.windows(2) {
        let (a, b) = (boxes[pair[0]], boxes[pair[1]]);
        let x = a.x + a.width;
        if b.x < x + 2 || a.height == 0 {
            continue;
        }
        let y = a.y + a.height / 2;
        frame.render_widget(
            Paragraph::new(Span::styled(right, style)),
            clip(frame, Rect::new(x, y, 2, 1)),
        );
    }
    // Broker <-> retry (redelivery after backoff), consumers -> DLQ (max deliveries).
    for (upper, lower, glyph) in [
        (3usize, 4usize, if ascii { "|" } else { "↕" }),
        (6, 5, if ascii { "v" } else { "↓" }),
    ] {
        let (a, b) = (boxes[upper], boxes[lower]);
        if b.y <= a.y + a.height {
            continue;
        }
        let x = a.x + a.width / 2;
        frame.render_widget(
            Paragraph::new(Span::styled(glyph, style)),
            clip(frame, Rect::new(x, a.y + a.height, 1, 1)),
        );
    }
}

/// Where a moving token sits for a stage: under a main box (on the lane) or inside a lower box.
fn anchor(stage: Stage, boxes: &[layout::Area; 8]) -> (f32, f32) {
    let i = Stage::ALL.iter().position(|s| *s == stage).unwrap_or(0);
    let b = boxes[i];
    let x = f32::from(b.x) + f32::from(b.width) / 2.0;
    let y = match stage {
        Stage::Retry | Stage::Dlq => f32::from(b.y) + 1.0,
        _ => f32::from(b.y + b.height),
    };
    (x, y)
}

fn movers(
    frame: &mut Frame<'_>,
    s: &SimState,
    boxes: &[layout::Area; 8],
    ascii: bool,
    style: Style,
) {
    let t = s.progress();
    let glyph = if ascii { "*" } else { "◆" };
    for m in &s.timeline.moves {
        let (x0, y0) = anchor(m.from, boxes);
        let (x1, y1) = anchor(m.to, boxes);
        let x = (x0 + (x1 - x0) * t).round().max(0.0) as u16;
        let y = (y0 + (y1 - y0) * t).round().max(0.0) as u16;
        frame.render_widget(
            Paragraph::new(Span::styled(glyph, style)),
            clip(frame, Rect::new(x, y, 1, 1)),
        );
    }
}

//! The tabs under the map: event log (SQL + outcome), tables (live rows), metrics (runbook
//! signals with sparklines); the DLQ triage tab lives in [`super::triage_tab`].

use super::super::chrome::clip;
use super::super::rect;
use super::super::theme::Theme;
use app::doc_layout::Tone;
use app::simulator::Tab;
use app::simulator::fold;
use app::simulator::view::{self, TAB_WIDTH, TableLine};
use app::{App, SimState, layout};
use content::key;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Sparkline};
use sim::Outcome;

/// Sparkline levels for `--ascii` (ratatui's three-level set still uses block characters).
const ASCII_BARS: ratatui::symbols::bar::Set<'static> = ratatui::symbols::bar::Set {
    full: "#",
    seven_eighths: "#",
    three_quarters: "=",
    five_eighths: "=",
    half: "-",
    three_eighths: "-",
    one_quarter: ".",
    one_eighth: ".",
    empty: " ",
};

/// Widest table column, characters (a longer value ends in "…").
const MAX_CELL: usize = 24;

/// Most events the log lays out per frame (only the newest fit on screen anyway).
const LOG_WINDOW: usize = 200;

/// Draws the tab titles and the active tab.
pub fn draw(
    frame: &mut Frame<'_>,
    app: &App,
    s: &SimState,
    theme: &Theme,
    titles: layout::Area,
    content: layout::Area,
) {
    let strings = app.session.strings();
    let spans: Vec<Span<'_>> = Tab::ALL
        .iter()
        .map(|tab| {
            let text: String = format!(" {} ", strings.get(tab.label_key()))
                .chars()
                .take(TAB_WIDTH - 1)
                .collect();
            let text = format!("{text:<TAB_WIDTH$}");
            if *tab == s.tab {
                Span::styled(text, theme.selected())
            } else {
                Span::styled(text, theme.dim())
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(Line::from(spans)), clip(frame, rect(titles)));
    match s.tab {
        Tab::Log => log(frame, app, s, theme, content),
        Tab::Tables => tables(frame, app, s, theme, content),
        Tab::Metrics => metrics(frame, app, s, theme, content),
        Tab::Dlq => super::triage_tab::draw(frame, app, s, theme, content),
    }
}

/// Shows the lines that end `scroll` lines above the bottom (0: the newest at the bottom).
fn bottom_window(lines: Vec<Line<'_>>, height: usize, scroll: usize) -> Vec<Line<'_>> {
    let end = lines
        .len()
        .saturating_sub(scroll.min(lines.len().saturating_sub(height)));
    let start = end.saturating_sub(height);
    lines.into_iter().skip(start).take(end - start).collect()
}

/// Where a statement of the selected event starts, and where its wrapped rows continue.
const SQL_INDENT: &str = "      ";
const SQL_CONTINUED: &str = "        ";

/// Draws the log tab: the event lines scrolled from the bottom, with a note in the first row
/// when the selected event's own line scrolled out above its SQL.
fn log(frame: &mut Frame<'_>, app: &App, s: &SimState, theme: &Theme, area: layout::Area) {
    let strings = app.session.strings();
    let (mut lines, selected_row) = log_lines(app, s, theme, area);
    if lines.is_empty() {
        lines.push(Line::styled(
            app.session.strings().get(key::simulator::LOG_EMPTY),
            theme.dim(),
        ));
    }
    let height = usize::from(area.height);
    let total = lines.len();
    let mut shown = bottom_window(lines, height, usize::from(s.scroll));
    // The selected event's own line scrolled out above its SQL: the first row says where it
    // is, so its statements are never read without their event.
    let start = total - shown.len() - usize::from(s.scroll).min(total.saturating_sub(height));
    if let Some((row, index)) = selected_row.filter(|(row, _)| *row < start)
        && shown.len() > 1
    {
        shown[0] = Line::styled(
            strings.fill(
                key::simulator::ROWS_ABOVE,
                &[
                    ("event", &sim::moments::event_number(index).to_string()),
                    ("n", &(start + 1 - row).to_string()),
                ],
            ),
            theme.tone(Tone::Focus),
        );
    }
    frame.render_widget(Paragraph::new(shown), clip(frame, rect(area)));
}

/// The log's lines, oldest first, and the row of the selected event's line with its index.
fn log_lines<'a>(
    app: &'a App,
    s: &'a SimState,
    theme: &Theme,
    area: layout::Area,
) -> (Vec<Line<'a>>, Option<(usize, u64)>) {
    let events: Vec<_> = view::events_until(s).rev().take(LOG_WINDOW).collect();
    let selected = s.shown_index();
    let strings = app.session.strings();
    let mut lines = Vec::new();
    // The row of the selected event's line, and its index.
    let mut selected_row = None;
    // Routine steps fold into one line unless the full log is open (`o`); the SQL shows for
    // the selected event on demand (`s`), or for every event in the full log with SQL on.
    for row in fold::rows(events.into_iter().rev(), s.full_log, selected) {
        let e = match row {
            fold::Row::Quiet { count, .. } => {
                let text = if count == 1 {
                    strings.get(key::simulator::QUIET_STEP).to_owned()
                } else {
                    strings.fill(key::simulator::QUIET_STEPS, &[("n", &count.to_string())])
                };
                lines.push(Line::styled(text, theme.dim()));
                continue;
            }
            fold::Row::Event(e) => e,
        };
        if Some(e.index) == selected {
            selected_row = Some((lines.len(), e.index));
        }
        lines.extend(event_lines(app, s, theme, area, e));
        if s.show_sql && (s.full_log || Some(e.index) == selected) {
            lines.extend(sql_lines(s, theme, area, e));
        }
    }
    (lines, selected_row)
}

/// One event's line: marker, number, time, actor, message, outcome and caption; the selected
/// event's caption wraps whole while the story panel explains a moment instead.
fn event_lines<'a>(
    app: &App,
    s: &SimState,
    theme: &Theme,
    area: layout::Area,
    e: &sim::Event,
) -> Vec<Line<'a>> {
    let selected = s.shown_index();
    let mut lines = Vec::new();
    let tone = match e.outcome {
        Outcome::Ok => Tone::Good,
        Outcome::Failed | Outcome::Unknown => Tone::Bad,
    };
    let id = e
        .message_id
        .as_deref()
        .map(view::short_id)
        .unwrap_or_default();
    let mark = if Some(e.index) == selected { ">" } else { " " };
    let head = format!(
        "{mark}#{:<4}{:>8} {:<13} {id:<5} ",
        sim::moments::event_number(e.index),
        sim::moments::human_ms(app.session.lang, e.at_ms),
        e.actor.to_string()
    );
    let outcome = format!("[{}] ", e.outcome.as_str());
    // Captions end at a word with "…" (the story panel shows the selected one whole); while
    // the panel explains a moment instead, the selected event's caption wraps here whole.
    let indent = head.chars().count() + outcome.chars().count();
    let room = usize::from(area.width).saturating_sub(indent);
    let caption = view::caption(&app.session, e);
    let mut rows = if Some(e.index) == selected && s.story.explains(selected) {
        super::super::help::wrap(&super::units::glue(&caption), room)
    } else {
        vec![super::picker::cut_at_word(&caption, room)]
    }
    .into_iter();
    lines.push(Line::from(vec![
        Span::styled(super::units::glue(&head), theme.dim()),
        Span::styled(outcome, theme.tone(tone)),
        Span::raw(super::units::glue(&rows.next().unwrap_or_default())),
    ]));
    for row in rows {
        lines.push(Line::raw(format!("{}{row}", " ".repeat(indent))));
    }
    lines
}

/// The event's SQL statements (and, in a lab's run, the learner's own), wrapped between
/// words with continued rows indented further.
fn sql_lines<'a>(s: &SimState, theme: &Theme, area: layout::Area, e: &sim::Event) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    // Each statement wraps between words, continued rows indented further, so no
    // condition is cut at the edge (the log scrolls when they are many).
    let width = usize::from(area.width).saturating_sub(SQL_INDENT.len() + 2);
    // A lab's run: below the marker of a section of the learner's file, its
    // statements with their line numbers.
    let own = s
        .settings
        .lab
        .as_ref()
        .map(|lab| super::lab_sql::statements(lab, e.sql))
        .unwrap_or_default();
    for sql in e.sql.iter().copied().chain(own.iter().map(String::as_str)) {
        for (k, part) in super::super::help::wrap(sql, width).into_iter().enumerate() {
            let indent = if k == 0 { SQL_INDENT } else { SQL_CONTINUED };
            lines.push(Line::styled(
                format!("{indent}{part}"),
                theme.tone(Tone::Code),
            ));
        }
    }
    lines
}

fn tables(frame: &mut Frame<'_>, app: &App, s: &SimState, theme: &Theme, area: layout::Area) {
    let Some(snap) = s.shown() else {
        return;
    };
    let rows_label = app.session.strings().get(key::simulator::ROWS);
    let table = view::table_lines(snap, rows_label);
    // Each table's columns are as wide as their name and their widest value (up to a cap),
    // so "delivery_count" is never cut to "delivery_cou".
    let mut widths: Vec<Vec<usize>> = Vec::new();
    let mut section: Vec<usize> = Vec::with_capacity(table.len());
    for line in &table {
        let cells: Vec<usize> = match line {
            TableLine::Title(_) => {
                widths.push(Vec::new());
                Vec::new()
            }
            TableLine::Header(cols) => cols.iter().map(|c| c.chars().count()).collect(),
            TableLine::Row(cells) => cells.iter().map(|c| c.chars().count()).collect(),
        };
        if widths.is_empty() {
            widths.push(Vec::new());
        }
        let w = widths.last_mut().expect("a section was pushed above");
        for (i, n) in cells.into_iter().enumerate() {
            let n = n.min(MAX_CELL);
            match w.get_mut(i) {
                Some(old) => *old = (*old).max(n),
                None => w.push(n),
            }
        }
        section.push(widths.len() - 1);
    }
    let cells = |texts: &mut dyn Iterator<Item = &str>, w: &[usize]| -> String {
        let mut out = String::new();
        for (i, text) in texts.enumerate() {
            let width = w.get(i).copied().unwrap_or(MAX_CELL);
            let t = super::super::chrome::ellipsize(text, width);
            out.push_str(&t);
            // Pad to the column (ellipsize kept it within `width` characters).
            out.extend(std::iter::repeat_n(
                ' ',
                width + 1 - t.chars().count().min(width),
            ));
        }
        out
    };
    let draw_line = |i: usize| {
        let w = &widths[section[i]];
        match &table[i] {
            TableLine::Title(t) => Line::styled(t.clone(), theme.tone(Tone::Subheading)),
            TableLine::Header(cols) => {
                Line::styled(cells(&mut cols.iter().copied(), w), theme.dim())
            }
            TableLine::Row(row) => Line::raw(cells(&mut row.iter().map(String::as_str), w)),
        }
    };
    let (pinned, body) = view::table_window(&table, usize::from(s.scroll));
    let index_of = |l: &TableLine| table.iter().position(|t| std::ptr::eq(t, l)).unwrap_or(0);
    let mut lines: Vec<Line<'_>> = pinned.iter().map(|l| draw_line(index_of(l))).collect();
    let room = usize::from(area.height).saturating_sub(lines.len());
    let start = table.len() - body.len();
    lines.extend((start..table.len()).take(room).map(draw_line));
    frame.render_widget(Paragraph::new(lines), clip(frame, rect(area)));
}

fn metrics(frame: &mut Frame<'_>, app: &App, s: &SimState, theme: &Theme, area: layout::Area) {
    let strings = app.session.strings();
    let Some(snap) = s.shown() else {
        return;
    };
    // As wide as the longest label in this language, so none is cut; the sparklines get the
    // rest (none when the terminal is too narrow for them).
    let longest = view::SIGNALS
        .iter()
        .map(|sig| strings.get(sig.key).chars().count())
        .max()
        .unwrap_or(0) as u16;
    let value_w: u16 = 10;
    let label_w: u16 = (longest + 1).min(area.width.saturating_sub(value_w));
    let rows = view::SIGNALS
        .iter()
        .skip(usize::from(s.scroll))
        .take(usize::from(area.height));
    for (i, signal) in rows.enumerate() {
        let y = area.y + i as u16;
        let value = (signal.value)(&snap.metrics);
        let value = if signal.millis {
            sim::moments::human_ms(app.session.lang, value)
        } else {
            value.to_string()
        };
        let text = super::picker::cut_at_word(
            strings.get(signal.key),
            usize::from(label_w.saturating_sub(1)),
        );
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::raw(format!("{text:<w$}", w = usize::from(label_w))),
                Span::styled(
                    super::units::glue(&format!("{value:>9}")),
                    theme.tone(Tone::Bold),
                ),
            ])),
            clip(frame, Rect::new(area.x, y, label_w + value_w, 1)),
        );
        let spark_x = area.x + label_w + value_w + 1;
        let spark_w = (area.x + area.width).saturating_sub(spark_x);
        if spark_w == 0 {
            continue;
        }
        let data: Vec<u64> = s
            .timeline
            .samples
            .iter()
            .rev()
            .take(usize::from(spark_w))
            .rev()
            .map(|m| (signal.value)(m))
            .collect();
        let bar = if app.session.options.ascii {
            ASCII_BARS
        } else {
            ratatui::symbols::bar::NINE_LEVELS
        };
        frame.render_widget(
            Sparkline::default()
                .data(&data)
                .bar_set(bar)
                .style(theme.tone(Tone::Code)),
            clip(frame, Rect::new(spark_x, y, spark_w, 1)),
        );
    }
}

//! The flow map: eight stages as boxes that say what their numbers mean, arrows between them
//! with the message tokens travelling on them, the failing part highlighted and marked in
//! words. A box too narrow for its words shows the numbers, and a legend line says what they
//! mean; no word is ever cut.

use content::key;

mod tokens;

use super::super::chrome::clip;
use super::super::rect;
use super::super::theme::Theme;
use app::doc_layout::Tone;
use app::simulator::{labels, view};
use app::{App, SimState, layout};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use sim::{Outcome, Snapshot, Stage};

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
            .max(snap.tables.len(sim::Table::Effects) as u64),
        _ => snap.scalars.stages.for_stage(stage),
    }
}

/// `text` broken into at most `rows` lines of at most `width` characters, between words only;
/// `None` when it does not fit that way.
pub fn fit_words(text: &str, width: usize, rows: usize) -> Option<Vec<String>> {
    let mut lines: Vec<String> = Vec::new();
    // Only plain spaces break: a no-break space keeps "1,3 s" together.
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let n = word.chars().count();
        if n > width {
            return None;
        }
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + n <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    (lines.len() <= rows).then_some(lines)
}

/// Cuts a line at a word boundary to `width`, ending in "…" when something was cut.
fn cut_line(text: &str, width: usize) -> String {
    super::picker::cut_at_word(text, width)
}

/// What every box of one drawn map shares: the shown snapshot, its failing and active stage.
struct MapFrame<'a> {
    app: &'a App,
    s: &'a SimState,
    theme: &'a Theme,
    snap: Option<&'a Snapshot>,
    failing: Option<(Stage, content::Key)>,
    active: Option<Stage>,
}

/// Draws the map into `area`: the eight boxes, the arrows with their tokens, the legend.
pub fn draw(frame: &mut Frame<'_>, app: &App, s: &SimState, theme: &Theme, area: layout::Area) {
    let boxes = layout::flow_boxes(area);
    let snap = s.shown();
    let map = MapFrame {
        app,
        s,
        theme,
        snap,
        failing: snap.and_then(view::failing),
        active: snap.and_then(|x| x.last_event.as_ref()).map(|e| e.stage),
    };
    let ascii = app.session.options.ascii;
    let strings = app.session.strings();
    let mut legend: Vec<String> = Vec::new();
    for (stage, area) in Stage::ALL.iter().zip(boxes) {
        draw_box(frame, &map, *stage, area, &mut legend);
    }
    tokens::arrows(frame, &boxes, ascii, theme.dim());
    let moves = &s.timeline.moves;
    // Without motion the tokens stand where their beat took them.
    let t = if app.session.options.reduced_motion {
        1.0
    } else {
        s.progress()
    };
    tokens::movers(frame, moves, t, &boxes, ascii, theme.tone(Tone::Focus));
    let mut notes = Vec::new();
    if !legend.is_empty() {
        notes.push(strings.fill(key::flow::LEGEND, &[("entries", &legend.join("; "))]));
    }
    if let Some(m) = moves.iter().find(|m| m.again) {
        notes.push(strings.fill(
            key::flow::LEGEND_AGAIN,
            &[
                ("mark", &tokens::label(m, ascii)),
                ("order", &labels::order_of(&m.message_id)),
            ],
        ));
    }
    draw_legend(frame, &boxes, area, &notes.join(" · "), theme);
}

/// Draws one stage's box: its frame and title, then the instances (consumers) or the counts;
/// a count too wide for the box adds its meaning to `legend`.
fn draw_box(
    frame: &mut Frame<'_>,
    map: &MapFrame<'_>,
    stage: Stage,
    area: layout::Area,
    legend: &mut Vec<String>,
) {
    let inner_w = usize::from(area.width.saturating_sub(2));
    let mut rows = usize::from(area.height.saturating_sub(2));
    let mut lines = Vec::new();
    let (block, plain_title) = box_frame(map, stage, area, &mut lines, &mut rows);
    if stage == Stage::Consumer {
        lines.extend(instance_lines(map, inner_w));
    } else {
        count_lines(map, stage, inner_w, rows, &mut lines, |meaning| {
            legend.push(format!("{plain_title}: {meaning}"));
        });
    }
    frame.render_widget(Paragraph::new(lines).block(block), clip(frame, rect(area)));
}

/// The box's frame: its border by state and its title with the failure mark when that fits;
/// a mark that does not fit goes into `lines` and takes one of the `rows`. Returns the block
/// and the title without the mark.
fn box_frame(
    map: &MapFrame<'_>,
    stage: Stage,
    area: layout::Area,
    lines: &mut Vec<Line<'static>>,
    rows: &mut usize,
) -> (Block<'static>, String) {
    let (s, theme) = (map.s, map.theme);
    let ascii = map.app.session.options.ascii;
    let strings = map.app.session.strings();
    let border = if ascii {
        super::super::theme::ASCII_BORDER
    } else {
        ratatui::symbols::border::ROUNDED
    };
    let fail = map.failing.filter(|(f, _)| *f == stage);
    let is_active = map.active == Some(stage);
    let style = match (fail, is_active) {
        (Some(_), _) => theme.tone(Tone::Bad),
        (None, true) => theme.tone(Tone::Focus),
        (None, false) => theme.tone(Tone::Border),
    };
    // The counts go inside the box, in words; the consumers box lists its instances.
    // A narrow box gets its short title, one narrower still none: never a cut word.
    let fits = |t: &String| t.chars().count() + 2 <= usize::from(area.width);
    let title = Some(labels::title(strings, stage, s.settings.broker))
        .filter(fits)
        .or_else(|| Some(labels::short_title(strings, stage, s.settings.broker)).filter(fits))
        .unwrap_or_default();
    // The active stage gets a thick frame and a failing one a double frame, so neither
    // depends on colour.
    let set = match (fail, is_active, ascii) {
        (Some(_), _, false) => ratatui::symbols::border::DOUBLE,
        (None, true, false) => ratatui::symbols::border::THICK,
        _ => border,
    };
    let inner_w = usize::from(area.width.saturating_sub(2));
    // What is failing goes into the title when it fits there (the rows stay for the
    // instances), else first in the box, so a small box never cuts it off.
    let mark = fail.map(|(_, key)| {
        let sign = if ascii { "!" } else { "✗" };
        format!("{sign} {}", strings.get(key))
    });
    let plain_title = title.clone();
    let title = match &mark {
        Some(m) if title.chars().count() + m.chars().count() + 3 <= usize::from(area.width) => {
            format!("{title} {m}")
        }
        Some(m) => {
            lines.push(Line::styled(cut_line(m, inner_w), theme.tone(Tone::Bad)));
            *rows = rows.saturating_sub(1);
            title
        }
        None => title,
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_set(set)
        .border_style(style)
        .title(Span::styled(title, style));
    (block, plain_title)
}

/// The consumers box's rows: one per instance with what it last did, so every instance stays
/// on screen.
fn instance_lines(map: &MapFrame<'_>, inner_w: usize) -> Vec<Line<'static>> {
    let s = map.s;
    let strings = map.app.session.strings();
    (0..s.timeline.consumers)
        .map(|i| {
            let (text, outcome) =
                labels::consumer_state(strings, s.settings.broker, view::instance_event(s, i));
            let tone = if outcome == Outcome::Ok {
                Tone::Text
            } else {
                Tone::Bad
            };
            let text = format!("{} {text}", view::instance_letter(i));
            Line::styled(cut_line(&text, inner_w), map.theme.tone(tone))
        })
        .collect()
}

/// A stage box's counts in words into `lines`: one part a row, or the words wrapped, or when
/// neither fits the bare numbers, whose meaning goes to `to_legend`.
fn count_lines(
    map: &MapFrame<'_>,
    stage: Stage,
    inner_w: usize,
    rows: usize,
    lines: &mut Vec<Line<'static>>,
    to_legend: impl FnOnce(&str),
) {
    let (app, s, theme, snap) = (map.app, map.s, map.theme, map.snap);
    let strings = app.session.strings();
    let n = snap.map_or(0, |x| count(stage, x));
    let dups = snap.map_or(0, view::duplicate_effects);
    let words = snap.and_then(|x| {
        labels::count_line(
            strings,
            app.session.lang,
            stage,
            s.settings.broker,
            x,
            n,
            dups,
        )
    });
    let tone = if dups > 0 && stage == Stage::Effect {
        Tone::Bad
    } else {
        Tone::Text
    };
    // Each part on its own row when they fit that way, else the words wrapped.
    let fitted = |w: &labels::CountWords| {
        let one_each =
            w.parts.len() <= rows.max(1) && w.parts.iter().all(|p| p.chars().count() <= inner_w);
        if one_each {
            Some(w.parts.clone())
        } else {
            fit_words(&w.full, inner_w, rows.max(1))
        }
    };
    match words {
        Some(w) => {
            if let Some(fitted) = fitted(&w) {
                lines.extend(
                    fitted
                        .into_iter()
                        .map(|l| Line::styled(l, theme.tone(tone))),
                );
            } else {
                // One row per part when they fit ("3" over "1.2 s"), else one line.
                let numbers = if w.numbers.len() <= rows.max(1) {
                    w.numbers.clone()
                } else {
                    vec![w.numbers.join(" · ")]
                };
                lines.extend(
                    numbers
                        .iter()
                        .map(|l| Line::styled(cut_line(l, inner_w), theme.tone(tone))),
                );
                to_legend(&w.legend);
            }
        }
        None => lines.push(Line::raw(n.to_string())),
    }
}

/// The legend under the left half of the map (beside the retry box): what the bare numbers
/// mean, and the redelivery mark.
fn draw_legend(
    frame: &mut Frame<'_>,
    boxes: &[layout::Area; 8],
    map: layout::Area,
    text: &str,
    theme: &Theme,
) {
    if text.is_empty() {
        return;
    }
    let lane = boxes[0].y + boxes[0].height;
    let right = boxes[4].x.saturating_sub(2);
    let height = (map.y + map.height).saturating_sub(lane);
    if right <= map.x || height == 0 {
        return;
    }
    let area = Rect::new(map.x, lane, right - map.x, height);
    frame.render_widget(
        Paragraph::new(Line::styled(text.to_owned(), theme.dim())).wrap(Wrap { trim: true }),
        clip(frame, area),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_break_between_words_or_not_at_all() {
        assert_eq!(
            fit_words("0 sichtbar · 2 mit Lock", 12, 2),
            Some(vec!["0 sichtbar ·".to_owned(), "2 mit Lock".to_owned()])
        );
        assert_eq!(fit_words("0 sichtbar · 2 mit Lock", 10, 2), None);
        assert_eq!(
            fit_words("10 angenommen", 8, 2),
            None,
            "a word wider than the box"
        );
        assert_eq!(
            fit_words("10 accepted", 8, 2),
            Some(vec!["10".into(), "accepted".into()])
        );
    }
}

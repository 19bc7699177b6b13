//! What every screen shares: the header, the status line, the key legend, the too-small notice.

use super::rect;
use super::theme::Theme;
use app::keymap::{Action, Binding, bindings};
use app::{App, layout};
use content::key;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// The top bar: title, workshop name, decisions and chapters counts (once the store has
/// opened), language.
pub fn header(frame: &mut Frame<'_>, app: &App, theme: &Theme) {
    let area = rect(layout::header(app.session.size.0.min(frame.area().width)));
    let s = app.session.strings();
    let title = format!(" {}", s.get(key::app::TITLE));
    let lang = app.session.lang.code().to_uppercase();
    let workshop = app.session.info.workshop.as_ref();
    // Until the store has opened there are no counts to show, only the language (and the
    // course behind the counts may still be parsing).
    let rights = if app.session.store_pending() {
        [format!("{lang} "), String::new()]
    } else {
        let counts = counts(app);
        [format!("{counts} · {lang} "), format!("{counts} ")]
    };
    // Longest first; the first pair that fits with a two-space gap wins, so the parts never
    // run together (at 60 columns the workshop name and the language give way first).
    let mut candidates = Vec::new();
    for right in rights {
        if let Some(name) = workshop {
            candidates.push((format!("{title} · {name}"), right.clone()));
        }
        candidates.push((title.clone(), right));
    }
    let width = usize::from(area.width);
    let fits = |(l, r): &(String, String)| l.chars().count() + 2 + r.chars().count() <= width;
    let (left, right) = candidates
        .iter()
        .find(|c| fits(c))
        .cloned()
        .unwrap_or_else(|| (title.clone(), String::new()));
    let pad = width.saturating_sub(left.chars().count() + right.chars().count());
    let text = format!("{left}{}{right}", " ".repeat(pad));
    frame.render_widget(Paragraph::new(text).style(theme.header()), area);
}

/// "Decisions 1/4 · Chapters read 3/16".
fn counts(app: &App) -> String {
    let s = app.session.strings();
    let course = app.session.course();
    let decisions = course
        .decisions
        .iter()
        .filter(|d| app.session.progress.decisions.contains_key(&d.id))
        .count();
    let read = domain::progress::chapters_read_count(
        course.chapters.iter().map(|c| c.id.as_str()),
        &app.session.progress.chapters_read,
    );
    format!(
        "{} · {} {read}/{}",
        s.fill(
            key::decision::ANSWERED,
            &[
                ("n", &decisions.to_string()),
                ("total", &course.decisions.len().to_string())
            ]
        ),
        s.get(key::home::CHAPTERS_READ),
        course.chapters.len(),
    )
}

fn keys_label(binding: &Binding) -> String {
    if binding.action == Action::Up && binding.keys.len() > 1 {
        return "↑↓".to_owned();
    }
    if binding.action == Action::StepBack && binding.keys.len() > 1 {
        return "←→".to_owned();
    }
    binding.keys.first().map(|k| k.label()).unwrap_or_default()
}

/// The one-line key legend, built from the screen's key table. When it does not fit, entries
/// drop from the end, but `? help` always stays: the help lists everything.
pub fn legend(frame: &mut Frame<'_>, app: &App, theme: &Theme) {
    let area = rect(layout::legend(app.session.size.0, app.session.size.1));
    let s = app.session.strings();
    let entries: Vec<(String, String, bool)> = bindings(app.screen.kind())
        .iter()
        .filter(|b| b.legend && app.screen.legend_offers(b.action))
        .map(|b| {
            (
                keys_label(b),
                format!(" {}  ", s.get(app.screen.legend_label(b.action, b.label))),
                b.action == Action::Help,
            )
        })
        .collect();
    let width = |e: &(String, String, bool)| e.0.chars().count() + e.1.chars().count();
    let mut kept: Vec<&(String, String, bool)> = entries.iter().collect();
    while kept.len() > 1
        && 1 + kept.iter().map(|e| width(e)).sum::<usize>() > usize::from(area.width)
    {
        let drop = kept.iter().rposition(|e| !e.2).unwrap_or(0);
        kept.remove(drop);
    }
    let mut spans = vec![Span::raw(" ")];
    for (keys, label, _) in kept {
        spans.push(Span::styled(keys.clone(), theme.key()));
        spans.push(Span::styled(label.clone(), theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), clip(frame, area));
}

/// The status line above the legend (saved / failed / hints).
pub fn status(frame: &mut Frame<'_>, app: &App, theme: &Theme) {
    let area = Rect::new(
        0,
        app.session.size.1.saturating_sub(2),
        app.session.size.0,
        1,
    );
    // A fresh notice (saved, failed) wins for its moment; the instructor's banner stays until
    // followed or dismissed.
    let (text, style) = match &app.session.status {
        Some(status) if status.error => (status.text.clone(), theme.error()),
        Some(status) => (status.text.clone(), theme.dim()),
        None => match app::pace::banner(&app.session) {
            Some(banner) => (banner, theme.tone(app::doc_layout::Tone::Focus)),
            None => return,
        },
    };
    // The key hint and the numbers come first in every such text; what does not fit on the
    // status row takes the row above it (the body's last row) rather than being cut.
    let lines = two_lines(&text, usize::from(area.width).saturating_sub(1));
    let top = area.y.saturating_sub(lines.len().saturating_sub(1) as u16);
    for (i, line) in lines.into_iter().enumerate() {
        let row = Rect::new(area.x, top + i as u16, area.width, 1);
        frame.render_widget(
            Paragraph::new(format!(" {line}")).style(style),
            clip(frame, row),
        );
    }
}

/// `text` broken at spaces into at most two lines of `width` characters; the second ends in
/// "…" when even two are too few. A count stays with its option ("[4] 1", "[2] 5 ✓").
fn two_lines(text: &str, width: usize) -> Vec<String> {
    if text.chars().count() <= width {
        return vec![text.to_owned()];
    }
    let mut first = String::new();
    let mut rest = text;
    for (i, _) in text.match_indices(' ') {
        let binds = text[..i].ends_with(']') || text[i + 1..].starts_with('\u{2713}');
        if binds {
            continue;
        }
        if text[..i].chars().count() > width {
            break;
        }
        text[..i].clone_into(&mut first);
        rest = text[i + 1..].trim_start();
    }
    if first.is_empty() {
        // One word longer than the row: cut it, the rest follows.
        first = text.chars().take(width).collect();
        rest = &text[first.len()..];
    }
    vec![first, ellipsize(rest, width)]
}

/// The notice for terminals below the minimum size (down to 0x0).
pub fn too_small(frame: &mut Frame<'_>, app: &App, theme: &Theme) {
    let area = frame.area();
    if area.width == 0 || area.height == 0 {
        return;
    }
    let text = app.session.strings().fill(
        key::common::TOO_SMALL,
        &[
            ("w", &area.width.to_string()),
            ("h", &area.height.to_string()),
            ("need_w", &layout::MIN_WIDTH.to_string()),
            ("need_h", &layout::MIN_HEIGHT.to_string()),
        ],
    );
    frame.render_widget(
        Paragraph::new(text)
            .style(theme.tone(app::doc_layout::Tone::Bold))
            .wrap(Wrap { trim: true }),
        area,
    );
}

/// Shortens `text` to `max` characters, ending in "…" when something was cut, so a cut line
/// never looks complete.
pub fn ellipsize(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    if max > 0 {
        out.push('…');
    }
    out
}

/// Keeps an area inside the frame (the app's size and the frame's may differ for one frame
/// during a resize).
pub fn clip(frame: &Frame<'_>, area: Rect) -> Rect {
    area.intersection(frame.area())
}

#[cfg(test)]
mod tests {
    use super::ellipsize;

    #[test]
    fn ellipsize_marks_a_cut() {
        assert_eq!(ellipsize("Idempotenzschlüssel", 8), "Idempot…");
        assert_eq!(ellipsize("kurz", 8), "kurz");
        assert_eq!(ellipsize("abc", 0), "");
    }
}

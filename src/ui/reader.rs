//! The lesson reader: chapter header line, the laid-out text, the search prompt.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use app::doc_layout::Tone;
use app::{App, ReaderState, layout};
use content::key;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the reader.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &ReaderState, theme: &Theme) {
    let s = app.session.strings();
    let course = app.session.course();
    let Some(chapter) = course.chapters.get(state.chapter) else {
        return;
    };
    let body = layout::body(app.session.size.0, app.session.size.1);
    let lines = app::reader_lines(app, state);
    let area = layout::reader_text(app.session.size.0, app.session.size.1);
    let height = usize::from(area.height);
    let max_scroll = lines.len().saturating_sub(height);
    let percent = ((state.scroll as usize).min(max_scroll) * 100)
        .checked_div(max_scroll)
        .unwrap_or(100);
    let position = s.fill(
        key::reader::CHAPTER_OF,
        &[
            ("n", &chapter.number.to_string()),
            ("total", &course.chapters.len().to_string()),
        ],
    );
    let right = format!("{} · {percent}% ", reading_indicator(app, state));
    let head = super::chrome::ellipsize(
        &format!(" {position} · {}", chapter.title),
        usize::from(body.width).saturating_sub(right.chars().count() + 1),
    );
    let pad = usize::from(body.width).saturating_sub(head.chars().count() + right.chars().count());
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(head, theme.dim()),
            Span::raw(" ".repeat(pad)),
            Span::styled(right, theme.dim()),
        ])),
        clip(frame, Rect::new(0, body.y, body.width, 1)),
    );
    let query = state
        .search
        .as_ref()
        .map(|s| s.query.as_str())
        .filter(|q| !q.trim().is_empty());
    let visible: Vec<Line<'_>> = lines
        .iter()
        .skip(state.scroll as usize)
        .take(height)
        .map(|line| {
            let mut spans = Vec::new();
            for span in &line.spans {
                let style = theme.tone(span.tone);
                for (part, hit) in split_hits(&span.text, query) {
                    spans.push(Span::styled(
                        part,
                        if hit {
                            style.patch(theme.selected())
                        } else {
                            style
                        },
                    ));
                }
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(visible), clip(frame, rect(area)));
    if let Some(search) = state.search.as_ref().filter(|s| s.editing) {
        let prompt = Line::from(vec![
            Span::styled(
                format!(" {}", s.get(key::reader::SEARCH_PROMPT)),
                theme.tone(Tone::Bold),
            ),
            Span::styled(format!("{}▏", search.query), theme.tone(Tone::Focus)),
        ]);
        let row = Rect::new(
            0,
            app.session.size.1.saturating_sub(2),
            app.session.size.0,
            1,
        );
        frame.render_widget(ratatui::widgets::Clear, clip(frame, row));
        frame.render_widget(Paragraph::new(prompt), clip(frame, row));
    }
}

/// The quiet indicator of the rule for "read": "read" once counted, else both conditions
/// ("end ○ · time 12/48 s"), so the learner sees what is missing.
fn reading_indicator(app: &App, state: &ReaderState) -> String {
    let s = app.session.strings();
    let progress = app::reading_progress(app, state);
    if progress.read {
        return s.get(key::chapters::STATUS_READ).to_owned();
    }
    let (done, open) = if app.session.options.ascii {
        ("x", "-")
    } else {
        ("✓", "○")
    };
    let needed = progress.needed_ms.div_ceil(1_000);
    let spent = (progress.spent_ms / 1_000).min(needed);
    s.fill(
        key::reader::READ_WHEN,
        &[
            ("end", if progress.end_seen { done } else { open }),
            ("spent", &spent.to_string()),
            ("needed", &needed.to_string()),
        ],
    )
}

/// Splits `text` into parts, marking those that match `query` (case-insensitive) so search hits
/// stand out from the line around them.
fn split_hits(text: &str, query: Option<&str>) -> Vec<(String, bool)> {
    let Some(query) = query else {
        return vec![(text.to_owned(), false)];
    };
    let fold = |c: char| c.to_lowercase().next().unwrap_or(c);
    let chars: Vec<char> = text.chars().collect();
    let needle: Vec<char> = query.chars().map(fold).collect();
    let mut parts: Vec<(String, bool)> = Vec::new();
    let mut plain = String::new();
    let mut i = 0;
    while i < chars.len() {
        let matches = i + needle.len() <= chars.len()
            && chars[i..i + needle.len()]
                .iter()
                .zip(&needle)
                .all(|(a, b)| fold(*a) == *b);
        if matches {
            if !plain.is_empty() {
                parts.push((std::mem::take(&mut plain), false));
            }
            parts.push((chars[i..i + needle.len()].iter().collect(), true));
            i += needle.len();
        } else {
            plain.push(chars[i]);
            i += 1;
        }
    }
    if !plain.is_empty() || parts.is_empty() {
        parts.push((plain, false));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::split_hits;

    #[test]
    fn hits_are_split_out_case_insensitively() {
        assert_eq!(
            split_hits("Lockstep and lockstep", Some("LOCKstep")),
            vec![
                ("Lockstep".to_owned(), true),
                (" and ".to_owned(), false),
                ("lockstep".to_owned(), true)
            ]
        );
        assert_eq!(
            split_hits("Größe", Some("grö")),
            vec![("Grö".to_owned(), true), ("ße".to_owned(), false)]
        );
        assert_eq!(split_hits("x", None), vec![("x".to_owned(), false)]);
    }
}

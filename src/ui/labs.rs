//! The lab list (number, status, title) and a lab's screen: title and status, the learner's
//! file, the check (progress or its result), the hints revealed so far, then the brief.

use super::chrome::clip;
use super::theme::Theme;
use app::doc_layout::Tone;
use app::labs::{CheckState, LabReportKind, LabStatus};
use app::{App, LabListState, LabState, layout};
use content::Lab;
use content::key;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the lab list.
pub fn draw_list(frame: &mut Frame<'_>, app: &App, state: &LabListState, theme: &Theme) {
    let s = app.session.strings();
    let body = layout::body(app.session.size.0, app.session.size.1);
    let status_w = [LabStatus::Done, LabStatus::Attempted, LabStatus::New]
        .iter()
        .map(|st| s.get(st.key()).chars().count() + 2)
        .max()
        .unwrap_or(0);
    let mut lines = vec![
        Line::styled(
            format!(" {}", s.get(key::labs::TITLE)),
            theme.tone(Tone::Title),
        ),
        Line::styled(format!(" {}", s.get(key::labs::LIST_INTRO)), theme.dim()),
        Line::raw(""),
    ];
    let labs = &app.session.content.labs;
    if labs.is_empty() {
        lines.push(Line::raw(format!(" {}", s.get(key::labs::NONE))));
    }
    for (i, lab) in labs.iter().enumerate() {
        let status = LabStatus::of(state.results.get(&lab.id));
        let word = format!("[{}]", s.get(status.key()));
        let marker = if i == state.cursor { "▸" } else { " " };
        let marker = if app.session.options.ascii && i == state.cursor {
            ">"
        } else {
            marker
        };
        let style = if i == state.cursor {
            theme.selected()
        } else {
            theme.tone(Tone::Text)
        };
        let status_style = match status {
            LabStatus::Done => theme.tone(Tone::Good),
            LabStatus::Attempted => theme.tone(Tone::Bad),
            LabStatus::New => theme.dim(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!(" {marker} {:>2}  ", lab.number), style),
            Span::styled(format!("{word:<status_w$} "), status_style),
            Span::styled(lab.title(app.session.lang).to_owned(), style),
        ]));
    }
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        clip(frame, super::rect(body)),
    );
}

/// Draws one lab.
pub fn draw_lab(frame: &mut Frame<'_>, app: &App, state: &LabState, theme: &Theme) {
    let s = app.session.strings();
    let body = layout::body(app.session.size.0, app.session.size.1);
    let Some(lab) = app.session.content.labs.get(state.lab) else {
        return;
    };
    let lang = app.session.lang;
    let status = LabStatus::of(Some(&state.result));
    let status_style = match status {
        LabStatus::Done => theme.tone(Tone::Good),
        LabStatus::Attempted => theme.tone(Tone::Bad),
        LabStatus::New => theme.dim(),
    };
    let head = vec![
        Line::from(vec![
            Span::styled(
                format!(
                    " {} {}: {}  ",
                    s.get(key::labs::LAB),
                    lab.number,
                    lab.title(lang)
                ),
                theme.tone(Tone::Title),
            ),
            Span::styled(format!("[{}]", s.get(status.key())), status_style),
        ]),
        Line::from(vec![
            Span::styled(format!(" {} ", s.get(key::labs::YOUR_FILE)), theme.dim()),
            Span::styled(state.file.clone(), theme.tone(Tone::Code)),
        ]),
    ];
    // One column stays free on the right, as the screen's own margin on the left.
    let width = usize::from(body.width).saturating_sub(1);
    let mut lines = Vec::new();
    for line in head {
        lines.extend(wrap_line(&line, width));
    }
    for line in check_lines(app, state, theme)
        .into_iter()
        .chain([Line::raw("")])
        .chain(hint_lines(app, lab, state, theme))
        .chain(brief_lines(lab, lang, theme))
    {
        lines.extend(wrap_line(&line, width));
    }
    frame.render_widget(
        Paragraph::new(lines).scroll((state.scroll, 0)),
        clip(frame, Rect::new(0, body.y, body.width, body.height)),
    );
}

/// Word-wraps one line to `width`, continuing under its first word: the spans' text is
/// joined, wrapped, and each piece keeps the style of the span it starts in (lines here have
/// at most a label and a value, so a style change inside a piece is rare and harmless).
fn wrap_line(line: &Line<'_>, width: usize) -> Vec<Line<'static>> {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let indent = text.chars().take_while(|c| *c == ' ').count();
    // A label ("Hint 1/3:", "Your file:") hangs its value under itself.
    let hang = if line.spans.len() > 1 {
        line.spans[0].content.chars().count().min(width / 2)
    } else {
        indent
    };
    let style_at = |offset: usize| {
        let mut seen = 0;
        for span in &line.spans {
            seen += span.content.chars().count();
            if offset < seen {
                return span.style;
            }
        }
        line.spans.last().map(|s| s.style).unwrap_or_default()
    };
    if text.chars().count() <= width {
        return vec![Line::from(
            line.spans
                .iter()
                .map(|s| Span::styled(s.content.to_string(), s.style))
                .collect::<Vec<_>>(),
        )];
    }
    let first_width = width;
    let rest_width = width.saturating_sub(hang).max(10);
    let body = text.trim_start();
    let mut out = Vec::new();
    let mut offset = indent;
    let pieces = super::help::wrap(body, first_width.saturating_sub(indent).max(10));
    // The first piece at the first width; the rest wrapped again at the hanging width.
    let Some((first, rest)) = pieces.split_first() else {
        return out;
    };
    out.push(Line::styled(
        format!("{}{first}", " ".repeat(indent)),
        style_at(offset),
    ));
    offset += first.chars().count() + 1;
    let rest = rest.join(" ");
    for piece in super::help::wrap(&rest, rest_width) {
        if piece.is_empty() {
            continue;
        }
        let style = style_at(offset);
        offset += piece.chars().count() + 1;
        out.push(Line::styled(format!("{}{piece}", " ".repeat(hang)), style));
    }
    out
}

fn check_lines<'a>(app: &'a App, state: &'a LabState, theme: &Theme) -> Vec<Line<'a>> {
    let s = app.session.strings();
    match &state.check {
        CheckState::Idle => vec![Line::styled(
            format!(" {}", s.get(key::labs::NOT_CHECKED)),
            theme.dim(),
        )],
        CheckState::Running(p) => {
            let seed = p.seed.max(1);
            let last = p.last_seed.max(seed);
            vec![Line::styled(
                format!(
                    " {}",
                    s.fill(
                        key::labs::CHECKING,
                        &[
                            ("seed", &seed.to_string()),
                            ("seeds", &last.to_string()),
                            ("done", &p.runs_done.to_string()),
                            ("runs", &p.runs_total.to_string()),
                        ],
                    )
                ),
                theme.tone(Tone::Focus),
            )]
        }
        CheckState::Done(report) => {
            let style = match report.kind {
                LabReportKind::Passed => theme.tone(Tone::Good),
                LabReportKind::Broken | LabReportKind::CannotRun | LabReportKind::Failed => {
                    theme.tone(Tone::Bad)
                }
            };
            let mut lines = Vec::with_capacity(report.lines.len() + 1);
            let verdict = match report.kind {
                LabReportKind::Passed => key::labs::PASSED,
                LabReportKind::Broken => key::labs::BROKEN,
                LabReportKind::CannotRun => key::labs::CANNOT_RUN,
                LabReportKind::Failed => key::labs::CHECK_FAILED,
            };
            lines.push(Line::styled(format!(" {}", s.get(verdict)), style));
            for (i, line) in report.lines.iter().enumerate() {
                let tone = if i == 0 {
                    style
                } else {
                    theme.tone(Tone::Text)
                };
                lines.push(Line::styled(format!("   {line}"), tone));
            }
            lines
        }
    }
}

fn hint_lines<'a>(app: &'a App, lab: &'a Lab, state: &LabState, theme: &Theme) -> Vec<Line<'a>> {
    let s = app.session.strings();
    let Some(hints) = lab.hints.get(&app.session.lang) else {
        return Vec::new();
    };
    let shown = usize::try_from(state.result.hints).unwrap_or(usize::MAX);
    let mut lines = Vec::new();
    for (i, hint) in hints.iter().take(shown).enumerate() {
        lines.push(Line::from(vec![
            Span::styled(
                format!(
                    " {} ",
                    s.fill(
                        key::labs::HINT,
                        &[
                            ("n", &(i + 1).to_string()),
                            ("total", &hints.len().to_string())
                        ]
                    )
                ),
                theme.tone(Tone::Subheading),
            ),
            Span::styled(hint.clone(), theme.tone(Tone::Quote)),
        ]));
    }
    if !lines.is_empty() {
        lines.push(Line::raw(""));
    }
    lines
}

/// The brief, with its Markdown marks dropped: `#` titles in the title tone, `**` removed.
fn brief_lines<'a>(lab: &'a Lab, lang: content::Lang, theme: &Theme) -> Vec<Line<'a>> {
    let text = lab
        .brief
        .get(&lang)
        .or_else(|| lab.brief.get(&content::Lang::En))
        .map_or("", String::as_str);
    // The brief's source is wrapped for the editor: its lines are joined into paragraphs
    // again (a blank line or a list item starts a new one) and wrapped to the screen.
    let mut paragraphs: Vec<String> = Vec::new();
    let mut open = false;
    // The brief's `# ` title repeats the screen's first line: it is left out.
    let mut source = text.lines().peekable();
    if source.peek().is_some_and(|l| l.starts_with("# ")) {
        source.next();
        while source.peek().is_some_and(|l| l.trim().is_empty()) {
            source.next();
        }
    }
    for line in source {
        let line = line.replace('*', "");
        let trimmed = line.trim();
        if trimmed.is_empty() {
            paragraphs.push(String::new());
            open = false;
        } else if open && !trimmed.starts_with("- ") && !trimmed.starts_with('#') {
            if let Some(last) = paragraphs.last_mut() {
                last.push(' ');
                last.push_str(trimmed);
            }
        } else {
            paragraphs.push(trimmed.to_owned());
            open = !trimmed.starts_with('#');
        }
    }
    paragraphs
        .into_iter()
        .map(|p| match p.strip_prefix("# ") {
            Some(title) => Line::styled(format!(" {title}"), theme.tone(Tone::Heading)),
            None => match p.strip_prefix("- ") {
                Some(item) => Line::from(vec![
                    Span::styled(" - ".to_owned(), theme.tone(Tone::Text)),
                    Span::styled(item.to_owned(), theme.tone(Tone::Text)),
                ]),
                None => Line::styled(format!(" {p}"), theme.tone(Tone::Text)),
            },
        })
        .collect()
}

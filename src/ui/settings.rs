//! Settings: language, clear results, damaged copies, paths.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use app::doc_layout::Tone;
use app::{App, SettingsState, layout};
use content::key;
use domain::report::iso_date;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws Settings.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &SettingsState, theme: &Theme) {
    let s = app.session.strings();
    let body = layout::body(app.session.size.0, app.session.size.1);
    frame.render_widget(
        Paragraph::new(Line::styled(
            format!(" {}", s.get(key::settings::TITLE)),
            theme.tone(Tone::Title),
        )),
        clip(frame, Rect::new(0, body.y, body.width, 1)),
    );
    let language = match app.session.lang {
        content::Lang::De => "Deutsch",
        content::Lang::En => "English",
    };
    let items = [
        format!("{}: {language}  (l)", s.get(key::settings::LANGUAGE)),
        format!("{}  (x)", s.get(key::settings::CLEAR)),
    ];
    let mut lines: Vec<Line<'_>> = items
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            if i == state.cursor {
                Line::styled(format!("› {text}"), theme.selected())
            } else {
                Line::raw(format!("  {text}"))
            }
        })
        .collect();
    lines.push(Line::raw(""));
    if state.confirm_clear {
        lines.push(Line::styled(
            s.get(key::settings::CLEAR_CONFIRM),
            theme.error(),
        ));
        lines.push(Line::raw(""));
    }
    damaged_lines(app, state, theme, &mut lines);
    lines.push(Line::styled(
        s.get(key::settings::PATHS),
        theme.tone(Tone::Subheading),
    ));
    for (key, value) in [
        (key::settings::DATA_DIR, &app.session.info.data_dir),
        (key::settings::CONFIG, &app.session.info.config),
        (key::settings::LOG, &app.session.info.log),
    ] {
        lines.push(Line::from(vec![
            Span::styled(format!("{}: ", s.get(key)), theme.dim()),
            Span::raw(value.clone()),
        ]));
    }
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        clip(
            frame,
            rect(layout::list(app.session.size.0, app.session.size.1)),
        ),
    );
}

/// The copies of damaged stores (name, size, date) and the question before deleting them.
fn damaged_lines<'a>(
    app: &'a App,
    state: &SettingsState,
    theme: &Theme,
    lines: &mut Vec<Line<'a>>,
) {
    let s = app.session.strings();
    let copies = &app.session.damaged;
    if copies.is_empty() {
        lines.push(Line::styled(
            s.get(key::settings::DAMAGED_NONE),
            theme.dim(),
        ));
        lines.push(Line::raw(""));
        return;
    }
    lines.push(Line::styled(
        s.get(key::settings::DAMAGED),
        theme.tone(Tone::Subheading),
    ));
    for copy in copies {
        lines.push(Line::from(vec![
            Span::raw(format!("  {}  ", copy.name)),
            Span::styled(
                format!(
                    "{}  {}",
                    kilobytes(copy.bytes),
                    iso_date(copy.modified_secs)
                ),
                theme.dim(),
            ),
        ]));
    }
    if state.confirm_delete {
        let count = copies.len().to_string();
        lines.push(Line::styled(
            s.fill(key::settings::DAMAGED_CONFIRM, &[("count", &count)]),
            theme.error(),
        ));
    }
    lines.push(Line::raw(""));
}

/// A file size in whole kilobytes (at least 1 for a non-empty file).
fn kilobytes(bytes: u64) -> String {
    format!("{} KB", bytes.div_ceil(1024))
}

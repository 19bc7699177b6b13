//! The Join section: the QR code of the join URL (beside the text when there is room, above it
//! otherwise, or the "enlarge" note when a whole code does not fit), the join URL, the projector
//! link and the instructor key. URLs wrap, never cut: a cut URL does not work.

use super::{dim, title};
use crate::ui::theme::Theme;
use app::dashboard::Dashboard;
use app::doc_layout::Tone;
use app::doc_layout::wrap::url_wrap;
use content::key;
use domain::qr::text::{Glyphs, TERMINAL_QUIET_ZONE, render_fitting, size};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

/// Narrowest text column beside the code.
const MIN_TEXT_W: usize = 30;

/// The section's lines at `width`.
pub fn lines(dash: &Dashboard, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let glyphs = if dash.ascii {
        Glyphs::Ascii
    } else {
        Glyphs::HalfBlock
    };
    let rows = usize::from(dash.page());
    let code = dash.qr.as_ref().and_then(|qr| {
        render_fitting(
            qr,
            glyphs,
            TERMINAL_QUIET_ZONE,
            width.saturating_sub(1),
            rows,
        )
    });
    let Some(code) = code else {
        let mut out = Vec::new();
        if let Some(qr) = &dash.qr {
            let (w, h) = size(qr, glyphs, TERMINAL_QUIET_ZONE);
            // The body lacks the header, tabs and footer rows.
            let (w, h) = ((w + 1).to_string(), (h + 3).to_string());
            let note = dash
                .strings()
                .fill(key::map::ENLARGE, &[("w", &w), ("h", &h)]);
            out.push(Line::styled(format!(" {note}"), theme.tone(Tone::Bold)));
            out.push(Line::raw(""));
        }
        out.extend(text(dash, theme, width));
        return out;
    };
    // The code's own colours in every theme, NO_COLOR too: they are function (a scanner needs
    // dark on light), as on the map screen.
    let qr_style = Style::default().fg(Color::White).bg(Color::Black);
    let code_w = code.first().map_or(0, |l| l.chars().count());
    if width >= code_w + 2 + MIN_TEXT_W {
        let text = text(dash, theme, width - code_w - 2);
        let rows = code.len().max(text.len());
        (0..rows)
            .map(|i| {
                let mut spans = vec![Span::raw(" ")];
                spans.push(match code.get(i) {
                    Some(l) => Span::styled(l.clone(), qr_style),
                    None => Span::raw(" ".repeat(code_w)),
                });
                spans.push(Span::raw(" "));
                if let Some(t) = text.get(i) {
                    spans.extend(t.spans.iter().cloned());
                }
                Line::from(spans)
            })
            .collect()
    } else {
        let mut out: Vec<Line<'static>> = code
            .into_iter()
            .map(|l| Line::from(vec![Span::raw(" "), Span::styled(l, qr_style)]))
            .collect();
        out.push(Line::raw(""));
        out.extend(text(dash, theme, width));
        out
    }
}

/// URL, projector link, key and hint in a column `width` wide.
fn text(dash: &Dashboard, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let s = dash.strings();
    let wrap = |url: &str| -> Vec<Line<'static>> {
        url_wrap(url, width.saturating_sub(2))
            .into_iter()
            .map(|part| Line::styled(format!(" {part}"), theme.tone(Tone::Bold)))
            .collect()
    };
    let mut out = Vec::new();
    // What a trainee types (about 20 characters) and the digits they compare: derived from
    // the join URL, so the projector and the trainee's screen use the one derivation.
    if let Ok(url) = domain::workshop::JoinUrl::parse(&dash.access.join_url) {
        out.push(title(s.get(key::dash::JOIN_LINE), theme));
        // Advertised on the LAN, the code alone finds the session; the address is the
        // fallback for networks that block multicast.
        out.extend(wrap(&url.join_command(dash.access.discovery.is_some())));
        if let Some(name) = &dash.access.discovery {
            let found = s.fill(
                key::dash::JOIN_FOUND,
                &[("name", name), ("short", &url.short_line())],
            );
            for part in words(&found, width.saturating_sub(1)) {
                out.push(Line::from(dim(format!(" {part}"), theme)));
            }
        }
        out.push(title(s.get(key::dash::CHECK_DIGITS), theme));
        out.push(Line::styled(
            format!(" {}", dash.access.check_digits),
            theme.tone(Tone::Bold),
        ));
        out.push(Line::raw(""));
    }
    out.push(title(s.get(key::dash::JOIN_URL), theme));
    out.extend(wrap(&dash.access.join_url));
    out.push(Line::raw(""));
    out.push(title(s.get(key::dash::PROJECTOR), theme));
    out.extend(wrap(&dash.access.projector_url));
    out.push(Line::raw(""));
    out.push(title(s.get(key::dash::KEY_LABEL), theme));
    if dash.key_shown() {
        out.push(Line::styled(
            format!(" {}", dash.access.key),
            theme.tone(Tone::Bold),
        ));
    } else {
        for part in words(s.get(key::dash::KEY_HIDDEN), width.saturating_sub(1)) {
            out.push(Line::from(dim(format!(" {part}"), theme)));
        }
    }
    out.push(Line::raw(""));
    let hint = if dash.access.discovery.is_some() {
        key::dash::JOIN_HINT_CODE
    } else {
        key::dash::JOIN_HINT
    };
    for part in words(s.get(hint), width.saturating_sub(1)) {
        out.push(Line::from(dim(format!(" {part}"), theme)));
    }
    out
}

/// Greedy word wrap (a word longer than a line gets a line of its own).
pub(super) fn words(text: &str, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

//! The quick-reference map: the text column (flow, checklist, runbook) and the QR panel with the
//! URL beneath the code. The code is drawn white-on-black by its own style so it scans as
//! dark-on-light in any terminal theme.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use app::doc_layout::Tone;
use app::doc_layout::wrap::url_wrap;
use app::map::{self, MapAreas};
use app::{App, MapState, Sharing, layout};
use content::key;
use domain::qr::QrMatrix;
use domain::qr::text::{TERMINAL_QUIET_ZONE, render};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the map screen.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &MapState, theme: &Theme) {
    let s = app.session.strings();
    let body = layout::body(app.session.size.0, app.session.size.1);
    frame.render_widget(
        Paragraph::new(Line::styled(
            format!(" {}", s.get(key::menu::MAP)),
            theme.tone(Tone::Title),
        )),
        clip(frame, Rect::new(0, body.y, body.width, 1)),
    );
    let areas = map::current_areas(&app.session);
    let text = map::lines(&app.session, usize::from(areas.text.width));
    let visible: Vec<Line<'_>> = text
        .iter()
        .skip(usize::from(state.scroll))
        .take(usize::from(areas.text.height))
        .map(|line| {
            Line::from(
                line.spans
                    .iter()
                    .map(|span| Span::styled(span.text.clone(), theme.tone(span.tone)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(visible), clip(frame, rect(areas.text)));
    panel(frame, app, areas, theme);
}

/// The QR panel: code (or the "enlarge" note), URL in text, and what `s` does.
fn panel(frame: &mut Frame<'_>, app: &App, areas: MapAreas, theme: &Theme) {
    let strings = app.session.strings();
    let area = rect(areas.panel);
    let (lines, top) = if let (Some(url), Some(qr)) = (app.session.map.url(), app.session.map.qr())
    {
        let mut lines = Vec::new();
        let mut top = area.y;
        if areas.qr_fits {
            top += draw_code(frame, app, qr, area);
        } else {
            let (w, h) = map::needed_size(map::qr_size(qr, app.session.options.ascii));
            let note = strings.fill(
                key::map::ENLARGE,
                &[("w", &w.to_string()), ("h", &h.to_string())],
            );
            lines.push(Line::styled(note, theme.tone(Tone::Bold)));
            lines.push(Line::raw(""));
        }
        lines.extend(
            url_wrap(url, usize::from(area.width))
                .into_iter()
                .map(|part| Line::styled(part, theme.tone(Tone::Bold))),
        );
        let hint = match app.session.map.sharing {
            Sharing::On(_) => Some(key::map::SHARING),
            _ if areas.qr_fits => Some(key::map::SCAN),
            _ => None,
        };
        lines.extend(hint.map(|key| Line::styled(strings.get(key), theme.dim())));
        (lines, top)
    } else {
        let lines = vec![
            Line::styled(strings.get(key::map::NO_URL), theme.tone(Tone::Bold)),
            Line::raw(""),
            Line::raw(strings.get(key::map::SHARE_OFFER)),
        ];
        (lines, area.y)
    };
    let rest = Rect::new(
        area.x,
        top,
        area.width,
        (area.y + area.height).saturating_sub(top),
    );
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }),
        clip(frame, rest),
    );
}

/// Draws the code centred at the top of `area`; returns the rows it took.
fn draw_code(frame: &mut Frame<'_>, app: &App, qr: &QrMatrix, area: Rect) -> u16 {
    let code = render(
        qr,
        map::glyphs(app.session.options.ascii),
        TERMINAL_QUIET_ZONE,
    );
    let (width, height) = map::qr_size(qr, app.session.options.ascii);
    let x = area.x + area.width.saturating_sub(width) / 2;
    // Always explicit colours, NO_COLOR too: the glyphs paint the light modules and the quiet
    // zone white, the blanks stay black. With the terminal's default colours a light theme
    // would invert the code and scanners would not read it. These two colours are function,
    // not decoration; the rest of the NO_COLOR theme stays colourless.
    let style = Style::default().fg(Color::White).bg(Color::Black);
    let code: Vec<Line<'_>> = code.into_iter().map(|l| Line::styled(l, style)).collect();
    frame.render_widget(
        Paragraph::new(code),
        clip(frame, Rect::new(x, area.y, width, height)),
    );
    height
}

//! The report view: where the local copy is, the entry field (address, consent or code) with
//! remaining tries, and the messages of the flow (sent, queued, retrying, failed).

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use app::doc_layout::Tone;
use app::{App, ReportPhase, ReportState, layout};
use content::key;
use domain::otp::MAX_FAILURES;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the report screen: the title row, then the entry field and the flow's messages.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &ReportState, theme: &Theme) {
    let s = app.session.strings();
    let body = layout::body(app.session.size.0, app.session.size.1);
    frame.render_widget(
        Paragraph::new(Line::styled(
            format!(" {}", s.get(key::report::TITLE)),
            theme.tone(Tone::Title),
        )),
        clip(frame, Rect::new(0, body.y, body.width, 1)),
    );
    let mut lines = entry_lines(app, state, theme);
    lines.extend(flow_lines(app, state, theme));
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        clip(
            frame,
            rect(layout::reader_text(app.session.size.0, app.session.size.1)),
        ),
    );
}

/// The phase's hint and its entry field: name and address, the copy question, or the code
/// (as dots); nothing once done.
fn entry_lines<'a>(app: &'a App, state: &'a ReportState, theme: &Theme) -> Vec<Line<'a>> {
    let s = app.session.strings();
    let mut lines: Vec<Line<'_>> = Vec::new();
    let (hint, prompt) = match state.phase {
        ReportPhase::Address => (
            s.get(key::report::ENTER_ADDRESS),
            s.get(key::report::ADDRESS_PROMPT),
        ),
        ReportPhase::Consent => (s.get(key::report::CC_HINT), s.get(key::report::CC_PROMPT)),
        ReportPhase::Code => (
            s.get(key::report::ENTER_CODE),
            s.get(key::report::CODE_PROMPT),
        ),
        ReportPhase::Done => ("", ""),
    };
    if !hint.is_empty() {
        lines.push(Line::styled(hint, theme.dim()));
        lines.push(Line::raw(""));
    }
    let cursor = if state.busy { "" } else { "_" };
    if state.phase == ReportPhase::Address {
        lines.extend(address_lines(app, state, theme, prompt, cursor));
    } else if state.phase == ReportPhase::Consent {
        let question = if state.copy_offer == app::CopyOffer::Host {
            s.get(key::report::CC_PROMPT_HOST).to_owned()
        } else {
            let cc = app.session.instructor_cc.clone().unwrap_or_default();
            s.fill(key::report::CC_PROMPT, &[("cc", &cc)])
        };
        lines.push(Line::raw(question));
    } else if !prompt.is_empty() {
        // The code is shown as dots: it is a secret, and screen readers need not read it out.
        let shown = if state.phase == ReportPhase::Code {
            let dot = if app.session.options.ascii {
                "*"
            } else {
                "•"
            };
            dot.repeat(state.input.chars().count())
        } else {
            state.input.clone()
        };
        lines.push(Line::from(vec![
            Span::styled(prompt.trim_end().to_owned(), theme.tone(Tone::Bold)),
            Span::raw(" "),
            Span::styled(format!("{shown}{cursor}"), theme.selected()),
        ]));
    }
    lines
}

/// Below the field: tries left and resend (code phase), sending, the flow's messages and the
/// report's mail status.
fn flow_lines<'a>(app: &'a App, state: &'a ReportState, theme: &Theme) -> Vec<Line<'a>> {
    let s = app.session.strings();
    let mut lines: Vec<Line<'_>> = Vec::new();
    if state.phase == ReportPhase::Code {
        let mut status = Vec::new();
        if state.remaining < MAX_FAILURES {
            status.push(s.fill(
                key::otp::TRIES_LEFT,
                &[("remaining", &state.remaining.to_string())],
            ));
        }
        status.push(s.get(key::otp::RESEND_NOW).to_owned());
        lines.push(Line::styled(status.join(" - "), theme.dim()));
    }
    if state.busy {
        lines.push(Line::styled(s.get(key::report::SENDING), theme.dim()));
    }
    lines.push(Line::raw(""));
    for (text, error) in &state.messages {
        lines.push(if *error {
            Line::styled(text.clone(), theme.error())
        } else {
            Line::raw(text.clone())
        });
    }
    if let Some(status) = &app.session.report_status {
        let text = match status {
            domain::outbox::MailStatus::Failed(reason) => s.fill(
                status.key(),
                &[("reason", &domain::send_failure::explain(reason, s))],
            ),
            other => s.get(other.key()).to_owned(),
        };
        lines.push(Line::raw(""));
        lines.push(Line::from(vec![
            Span::styled(format!("{}: ", s.get(key::home::REPORT)), theme.dim()),
            Span::styled(text, theme.tone(Tone::Bold)),
        ]));
    }
    lines
}

/// The name field over the address field; the focused one carries the cursor.
fn address_lines<'a>(
    app: &'a App,
    state: &'a ReportState,
    theme: &Theme,
    prompt: &'a str,
    cursor: &str,
) -> Vec<Line<'a>> {
    let s = app.session.strings();
    let mut lines: Vec<Line<'_>> = Vec::new();
    // The optional name sits above the address; the focused field carries the cursor.
    let (name_cursor, address_cursor) = if state.name_focus {
        (cursor, "")
    } else {
        ("", cursor)
    };
    lines.push(Line::from(vec![
        Span::styled(
            s.get(key::report::NAME_PROMPT).trim_end().to_owned(),
            theme.tone(Tone::Bold),
        ),
        Span::raw(" "),
        Span::styled(
            format!("{}{name_cursor}", state.name),
            if state.name_focus {
                theme.selected()
            } else {
                theme.dim()
            },
        ),
    ]));
    lines.push(Line::from(vec![
        Span::styled(prompt.trim_end().to_owned(), theme.tone(Tone::Bold)),
        Span::raw(" "),
        Span::styled(
            format!("{}{address_cursor}", state.input),
            if state.name_focus {
                theme.dim()
            } else {
                theme.selected()
            },
        ),
    ]));
    lines.push(Line::styled(s.get(key::report::NAME_HINT), theme.dim()));
    lines
}

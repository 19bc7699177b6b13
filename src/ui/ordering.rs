//! The ordering game: seven cards, progress n/7, the hint after a wrong pick, the summary.

use super::chrome::{clip, ellipsize};
use super::rect;
use super::theme::Theme;
use app::doc_layout::Tone;
use app::{App, Feedback, OrderingState, layout};
use content::key;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the ordering game: the head, then either the summary or the cards with the panel below.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &OrderingState, theme: &Theme) {
    draw_head(frame, app, state, theme);
    if state.game.is_solved() {
        draw_summary(frame, app, state, theme);
        return;
    }
    draw_cards(frame, app, state, theme);
    draw_below(frame, app, state, theme);
}

/// Draws the two head rows: the title, then the progress n/total and the attempts and mistakes.
fn draw_head(frame: &mut Frame<'_>, app: &App, state: &OrderingState, theme: &Theme) {
    let s = app.session.strings();
    let game = &app.session.course().ordering;
    let body = layout::body(app.session.size.0, app.session.size.1);
    let record = app.session.progress.ordering;
    let head = vec![
        Line::styled(format!(" {}", game.title), theme.tone(Tone::Title)),
        Line::from(vec![
            Span::styled(
                format!(
                    " {}",
                    s.fill(
                        key::ordering::PROGRESS,
                        &[
                            ("n", &state.game.placed().to_string()),
                            ("total", &state.game.len().to_string()),
                        ],
                    )
                ),
                theme.tone(Tone::Bold),
            ),
            Span::styled(
                format!(
                    "  ·  {}",
                    s.fill(
                        key::ordering::RECORD,
                        &[
                            ("attempts", &record.attempts.to_string()),
                            ("mistakes", &state.game.mistakes().to_string()),
                        ],
                    )
                ),
                theme.dim(),
            ),
        ]),
    ];
    frame.render_widget(
        Paragraph::new(head),
        clip(frame, Rect::new(0, body.y, body.width, 2)),
    );
}

/// Draws the summary of a solved game, scrolled to the state's offset.
fn draw_summary(frame: &mut Frame<'_>, app: &App, state: &OrderingState, theme: &Theme) {
    let rest = rect(app::ordering_summary_area(&app.session));
    // Laid out by the app, which also stops the scrolling at the last line.
    let lines: Vec<Line<'_>> = app::ordering_summary_lines(&app.session, usize::from(rest.width))
        .into_iter()
        .skip(usize::from(state.scroll))
        .map(|line| {
            Line::from(
                line.spans
                    .into_iter()
                    .map(|span| Span::styled(span.text, theme.tone(span.tone)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), clip(frame, rest));
}

/// Draws the card list: placed cards with their place, open cards with their text cut to one row.
fn draw_cards(frame: &mut Frame<'_>, app: &App, state: &OrderingState, theme: &Theme) {
    let game = &app.session.course().ordering;
    let cards = layout::ordering_cards(app.session.size.0, app.session.size.1);
    let check = if app.session.options.ascii {
        "+"
    } else {
        "✓"
    };
    let lines: Vec<Line<'_>> = state
        .game
        .deck()
        .iter()
        .enumerate()
        .map(|(pos, step)| {
            let card = &game.steps[*step];
            let marker = if pos == state.cursor {
                if app.session.options.ascii {
                    "> "
                } else {
                    "› "
                }
            } else {
                "  "
            };
            if let Some(place) = state.game.place_of(pos) {
                Line::styled(
                    format!("{marker}{} [{check}{}] {}", pos + 1, place + 1, card.label),
                    theme.tone(Tone::Good),
                )
            } else {
                let style = if pos == state.cursor {
                    theme.selected()
                } else {
                    ratatui::style::Style::default()
                };
                let head = format!("{marker}{} [  ] {}", pos + 1, card.label);
                let room = usize::from(cards.width).saturating_sub(head.chars().count());
                Line::from(vec![
                    Span::styled(head, style),
                    Span::styled(ellipsize(&format!(" - {}", card.text), room), theme.dim()),
                ])
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), clip(frame, rect(cards)));
}

/// Draws the panel below the cards: the open card at the cursor in full, the feedback, the intro.
fn draw_below(frame: &mut Frame<'_>, app: &App, state: &OrderingState, theme: &Theme) {
    let s = app.session.strings();
    let game = &app.session.course().ordering;
    let body = layout::body(app.session.size.0, app.session.size.1);
    let cards = layout::ordering_cards(app.session.size.0, app.session.size.1);
    let mut below: Vec<Line<'_>> = Vec::new();
    // The card at the cursor in full: the list cuts long texts to one row.
    if let Some(card) = state
        .game
        .deck()
        .get(state.cursor)
        .filter(|_| state.game.place_of(state.cursor).is_none())
        .map(|step| &game.steps[*step])
    {
        below.push(Line::from(vec![
            Span::styled(format!("{}: ", card.label), theme.tone(Tone::Bold)),
            Span::raw(card.text.clone()),
        ]));
    }
    match state.feedback {
        Some(Feedback::Missing(step)) => below.push(Line::styled(
            s.fill(key::ordering::MISSING, &[("hint", &game.steps[step].hint)]),
            theme.error(),
        )),
        Some(Feedback::Correct(step)) => below.push(Line::styled(
            s.fill(
                key::ordering::CORRECT,
                &[
                    ("label", &game.steps[step].label),
                    ("n", &(step + 1).to_string()),
                ],
            ),
            theme.tone(Tone::Good),
        )),
        None => {}
    }
    below.push(Line::styled(game.intro.clone(), theme.dim()));
    let y = cards.y + cards.height + 1;
    frame.render_widget(
        Paragraph::new(below).wrap(Wrap { trim: true }),
        clip(
            frame,
            Rect::new(
                2,
                y,
                body.width.saturating_sub(4),
                (body.y + body.height).saturating_sub(y + 1),
            ),
        ),
    );
}

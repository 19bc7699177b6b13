//! The quiz views: a question with its options, the explanation after an answer, the result.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use app::doc_layout::Tone;
use app::quiz::{current_question, text};
use app::{App, QuizPhase, QuizState, layout};
use content::Question;
use content::key;
use domain::quiz::Attempt;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the quiz screen.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &QuizState, theme: &Theme) {
    let s = app.session.strings();
    let body = layout::body(app.session.size.0, app.session.size.1);
    frame.render_widget(
        Paragraph::new(Line::styled(
            format!(" {}", s.get(key::quiz::TITLE)),
            theme.tone(Tone::Title),
        )),
        clip(frame, Rect::new(0, body.y, body.width, 1)),
    );
    let area = layout::reader_text(app.session.size.0, app.session.size.1);
    let lines = match (&app.session.quiz.attempt, state.phase) {
        (Some(attempt), QuizPhase::Question) => question_lines(app, attempt, state, theme),
        (Some(_), QuizPhase::Feedback { .. } | QuizPhase::Result) => {
            // Laid out by the app, which also stops the scrolling at the last line.
            text::lines(&app.session, state, usize::from(area.width))
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
                .collect()
        }
        _ => vec![Line::raw(s.get(key::report::SENDING))],
    };
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        clip(frame, rect(area)),
    );
}

fn heading<'a>(
    app: &App,
    attempt: &Attempt,
    question: &'a Question,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let quiz = &app.session.course().quiz;
    let questions = attempt.questions(quiz);
    let n = questions
        .iter()
        .position(|q| q.id == question.id)
        .map_or(0, |i| i + 1);
    vec![
        Line::styled(
            app.session.strings().fill(
                key::quiz::PROGRESS,
                &[
                    ("n", &n.to_string()),
                    ("total", &questions.len().to_string()),
                ],
            ),
            theme.dim(),
        ),
        Line::styled(question.prompt.clone(), theme.tone(Tone::Bold)),
        Line::raw(""),
    ]
}

fn question_lines<'a>(
    app: &'a App,
    attempt: &Attempt,
    state: &QuizState,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let Some(question) = current_question(&app.session, state) else {
        return Vec::new();
    };
    let mut lines = heading(app, attempt, question, theme);
    let (on, off) = if question.multi {
        ("[x]", "[ ]")
    } else {
        ("(o)", "( )")
    };
    for (i, option) in attempt.options(question).iter().enumerate() {
        let mark = if state.selected.contains(&i) { on } else { off };
        let cursor = if i == state.cursor { "›" } else { " " };
        let cursor = if app.session.options.ascii && i == state.cursor {
            ">"
        } else {
            cursor
        };
        let text = format!("{cursor} {mark} {}. {}", i + 1, option.text);
        lines.push(if i == state.cursor {
            Line::styled(text, theme.selected())
        } else {
            Line::raw(text)
        });
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        app.session.strings().get(if question.multi {
            key::quiz::TUI_MULTI_HINT
        } else {
            key::quiz::TUI_SINGLE_HINT
        }),
        theme.dim(),
    ));
    lines
}

//! The quiz views: a question with its options, the explanation after an answer, the result.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use crate::app::doc_layout::Tone;
use crate::app::quiz::current_question;
use crate::app::{App, QuizPhase, QuizState, layout};
use crate::content::Question;
use crate::domain::quiz::Attempt;
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
            format!(" {}", s.get("quiz.title")),
            theme.tone(Tone::Title),
        )),
        clip(frame, Rect::new(0, body.y, body.width, 1)),
    );
    let lines = match (&app.session.quiz.attempt, state.phase) {
        (Some(attempt), QuizPhase::Question) => question_lines(app, attempt, state, theme),
        (Some(attempt), QuizPhase::Feedback { correct }) => {
            feedback_lines(app, attempt, state, correct, theme)
        }
        (Some(attempt), QuizPhase::Result) => result_lines(app, attempt, theme),
        _ => vec![Line::raw(s.get("report.sending"))],
    };
    let scroll = if state.phase == QuizPhase::Question {
        0
    } else {
        state.scroll
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        clip(
            frame,
            rect(layout::reader_text(app.session.size.0, app.session.size.1)),
        ),
    );
}

fn heading<'a>(
    app: &App,
    attempt: &Attempt,
    question: &'a Question,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let quiz = &app.session.course().quiz;
    let n = quiz
        .questions
        .iter()
        .position(|q| q.id == question.id)
        .map_or(0, |i| i + 1);
    let _ = attempt;
    vec![
        Line::styled(
            app.session.strings().fill(
                "quiz.progress",
                &[
                    ("n", &n.to_string()),
                    ("total", &quiz.questions.len().to_string()),
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
            "quiz.multi_hint"
        } else {
            "quiz.single_hint"
        }),
        theme.dim(),
    ));
    lines
}

fn feedback_lines<'a>(
    app: &'a App,
    attempt: &Attempt,
    state: &QuizState,
    correct: bool,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let s = app.session.strings();
    let Some(question) = current_question(&app.session, state) else {
        return Vec::new();
    };
    let mut lines = heading(app, attempt, question, theme);
    // Verdict, the way on and the explanation come first: the option list below may not fit.
    let verdict = if correct {
        Span::styled(s.get("quiz.right"), theme.tone(Tone::Bold))
    } else {
        Span::styled(s.get("quiz.wrong"), theme.error())
    };
    lines.push(Line::from(vec![
        verdict,
        Span::styled(format!("   Enter: {}", s.get("quiz.continue")), theme.key()),
    ]));
    lines.push(Line::raw(
        s.fill("quiz.explanation", &[("text", &question.explanation)]),
    ));
    lines.push(Line::raw(""));
    let shown = attempt.options(question);
    let chosen = attempt.chosen(question);
    for (i, option) in shown.iter().enumerate() {
        let mark = match (option.correct, chosen.iter().any(|c| c.id == option.id)) {
            (true, _) => "+",
            (false, true) => "x",
            (false, false) => " ",
        };
        lines.push(Line::raw(format!("{mark} {}. {}", i + 1, option.text)));
        lines.push(Line::styled(format!("    {}", option.why), theme.dim()));
    }
    lines
}

fn result_lines<'a>(app: &'a App, attempt: &Attempt, theme: &Theme) -> Vec<Line<'a>> {
    let s = app.session.strings();
    let quiz = &app.session.course().quiz;
    let score = attempt.score(quiz);
    let mut lines = vec![
        Line::styled(s.get("quiz.result_title"), theme.tone(Tone::Subheading)),
        Line::styled(
            s.fill(
                "quiz.score",
                &[
                    ("score", &score.correct.to_string()),
                    ("total", &score.total.to_string()),
                ],
            ),
            theme.tone(Tone::Bold),
        ),
    ];
    if let Some(level) = score.level {
        lines.push(Line::raw(s.fill("quiz.level", &[("level", &level.name)])));
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            s.get("quiz.next_steps"),
            theme.tone(Tone::Subheading),
        ));
        for step in &level.next_steps {
            lines.push(Line::raw(format!("- {step}")));
        }
    }
    lines.push(Line::raw(""));
    let review = attempt.review(quiz);
    if review.is_empty() {
        lines.push(Line::raw(s.get("quiz.review_none")));
    } else {
        lines.push(Line::styled(
            s.get("quiz.review"),
            theme.tone(Tone::Subheading),
        ));
        for r in review {
            let join = |opts: &[&crate::content::QuestionOption]| {
                opts.iter()
                    .map(|o| o.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" | ")
            };
            lines.push(Line::styled(
                format!("- {}", r.question.prompt),
                theme.tone(Tone::Bold),
            ));
            lines.push(Line::raw(format!(
                "  {}",
                s.fill("quiz.your_answer", &[("answer", &join(&r.chosen))])
            )));
            lines.push(Line::raw(format!(
                "  {}",
                s.fill("quiz.right_answer", &[("answer", &join(&r.correct))])
            )));
            lines.push(Line::styled(
                format!(
                    "  {}",
                    s.fill("quiz.explanation", &[("text", &r.question.explanation)])
                ),
                theme.dim(),
            ));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!(
            "m: {}   r: {}",
            s.get("quiz.to_report"),
            s.get("quiz.retake")
        ),
        theme.key(),
    ));
    lines
}

//! Home: title, progress at a glance, the menu.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use crate::app::{App, HomeState, MenuItem, layout};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws Home.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &HomeState, theme: &Theme) {
    let s = app.session.strings();
    let body = layout::body(app.session.size.0, app.session.size.1);
    let title = Line::from(vec![
        Span::styled(
            format!(" {}", s.get("app.title")),
            theme.tone(crate::app::doc_layout::Tone::Title),
        ),
        Span::styled(format!("  {}", s.get("app.subtitle")), theme.dim()),
    ]);
    frame.render_widget(
        Paragraph::new(title),
        clip(frame, Rect::new(0, body.y, body.width, 1)),
    );
    let (progress_area, menu_area) = layout::home(app.session.size.0, app.session.size.1);
    frame.render_widget(
        Paragraph::new(progress_lines(app, theme)),
        clip(frame, rect(progress_area)),
    );
    let has_resume = app.session.progress.last_chapter.is_some();
    let lines: Vec<Line<'_>> = MenuItem::ALL
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let selected = i == state.cursor;
            let marker = if selected {
                if app.session.options.ascii {
                    "> "
                } else {
                    "› "
                }
            } else {
                "  "
            };
            let label = format!("{marker}{} {}", i + 1, s.get(item.label_key(has_resume)));
            let spans = vec![Span::styled(
                label,
                if selected {
                    theme.selected()
                } else {
                    ratatui::style::Style::default()
                },
            )];
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), clip(frame, rect(menu_area)));
}

fn progress_lines<'a>(app: &'a App, theme: &Theme) -> Vec<Line<'a>> {
    let s = app.session.strings();
    let course = app.session.course();
    let p = &app.session.progress;
    let read = course
        .chapters
        .iter()
        .filter(|c| p.chapters_read.contains(&c.id))
        .count();
    let decided = course
        .decisions
        .iter()
        .filter(|d| p.decisions.contains_key(&d.id))
        .count();
    let ordering = if p.ordering.solved {
        s.get("home.ordering_solved")
    } else {
        s.get("home.ordering_open")
    };
    let scenarios = format!(
        "{}/{}",
        p.scenarios_run.len(),
        app.session.content.scenarios.len()
    );
    let row = |label: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{label}: "), theme.dim()),
            Span::styled(value, theme.tone(crate::app::doc_layout::Tone::Bold)),
        ])
    };
    vec![
        Line::styled(
            s.get("home.progress"),
            theme.tone(crate::app::doc_layout::Tone::Subheading),
        ),
        row(
            s.get("home.chapters_read"),
            format!("{read}/{}", course.chapters.len()),
        ),
        row(
            s.get("home.decisions"),
            format!("{decided}/{}", course.decisions.len()),
        ),
        row(s.get("home.ordering"), ordering.to_owned()),
        row(s.get("home.scenarios"), scenarios),
        row(s.get("home.quiz"), quiz_summary(app)),
        row(s.get("home.report"), report_summary(app)),
    ]
}

/// "7/10, Practitioner", "in progress (3/10)" or "not taken".
fn quiz_summary(app: &App) -> String {
    let s = app.session.strings();
    let quiz = &app.session.course().quiz;
    let total = quiz.questions.len().to_string();
    match &app.session.quiz.attempt {
        Some(attempt) if app.session.quiz.finished => {
            let score = attempt.score(quiz);
            s.fill(
                "home.quiz_score",
                &[
                    ("score", &score.correct.to_string()),
                    ("total", &total),
                    ("level", score.level.map_or("-", |l| l.name.as_str())),
                ],
            )
        }
        Some(attempt) => s.fill(
            "home.quiz_in_progress",
            &[("n", &attempt.answers.len().to_string()), ("total", &total)],
        ),
        None => s.get("home.quiz_not_taken").to_owned(),
    }
}

fn report_summary(app: &App) -> String {
    let s = app.session.strings();
    s.get(match app.session.report_status {
        Some(crate::domain::outbox::MailStatus::Queued) => "home.report_queued",
        Some(crate::domain::outbox::MailStatus::Sent) => "home.report_sent",
        Some(crate::domain::outbox::MailStatus::Failed(_)) => "home.report_failed",
        None => "home.report_none",
    })
    .to_owned()
}

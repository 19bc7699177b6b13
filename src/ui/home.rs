//! Home: title, progress at a glance, the menu.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use app::{App, HomeState, MenuItem, home_layout};
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws Home.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &HomeState, theme: &Theme) {
    let s = app.session.strings();
    let parts = home_layout(&app.session);
    let title = Line::from(vec![
        Span::styled(s.get("app.title"), theme.tone(app::doc_layout::Tone::Title)),
        Span::styled(format!("  {}", s.get("app.subtitle")), theme.dim()),
    ]);
    frame.render_widget(
        Paragraph::new(title).wrap(Wrap { trim: true }),
        clip(frame, rect(parts.title)),
    );
    // Joined to a workshop: the session and whether the host is reachable, on the free line
    // under the title when there is one, else on the status row (a notice or the instructor's
    // banner drawn later takes that row for its moment). Nothing of the course waits for it.
    let under_title = parts.title.y + parts.title.height;
    let free_row = if parts.progress.y > under_title {
        under_title
    } else {
        app.session.size.1.saturating_sub(2)
    };
    if let Some(w) = app.session.workshop.as_ref() {
        let pending = w.pending.to_string();
        let state = if w.reachable {
            s.get("home.workshop_reachable").to_owned()
        } else {
            s.fill("home.workshop_unreachable", &[("pending", &pending)])
        };
        let line = Line::from(vec![
            Span::styled(
                format!(" {}", s.fill("home.workshop", &[("name", &w.session)])),
                theme.tone(app::doc_layout::Tone::Bold),
            ),
            Span::styled(format!("  {state}"), theme.dim()),
        ]);
        frame.render_widget(
            Paragraph::new(line),
            clip(
                frame,
                ratatui::layout::Rect::new(0, free_row, frame.area().width, 1),
            ),
        );
    }
    // Until the store has opened (a moment after the first frame) there is no progress to show.
    if !app.session.store_pending() {
        frame.render_widget(
            Paragraph::new(progress_lines(app, theme, parts.compact)),
            clip(frame, rect(parts.progress)),
        );
    }
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
    frame.render_widget(Paragraph::new(lines), clip(frame, rect(parts.menu)));
}

/// The progress rows; `compact` leaves out the heading and the counts the header shows.
fn progress_lines<'a>(app: &'a App, theme: &Theme, compact: bool) -> Vec<Line<'a>> {
    let s = app.session.strings();
    let course = app.session.course();
    let p = &app.session.progress;
    let read = domain::progress::chapters_read_count(
        course.chapters.iter().map(|c| c.id.as_str()),
        &p.chapters_read,
    );
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
            Span::styled(value, theme.tone(app::doc_layout::Tone::Bold)),
        ])
    };
    let rest = vec![
        row(s.get("home.ordering"), ordering.to_owned()),
        row(s.get("home.scenarios"), scenarios),
        row(s.get("home.quiz"), quiz_summary(app)),
        row(s.get("home.report"), report_summary(app)),
    ];
    if compact {
        return rest;
    }
    let mut lines = vec![
        Line::styled(
            s.get("home.progress"),
            theme.tone(app::doc_layout::Tone::Subheading),
        ),
        row(
            s.get("home.chapters_read"),
            format!("{read}/{}", course.chapters.len()),
        ),
        row(
            s.get("home.decisions"),
            format!("{decided}/{}", course.decisions.len()),
        ),
    ];
    lines.extend(rest);
    lines
}

/// "7/10, Practitioner", "in progress (3/10)" or "not taken".
fn quiz_summary(app: &App) -> String {
    let s = app.session.strings();
    let quiz = &app.session.course().quiz;
    let total = app
        .session
        .quiz
        .attempt
        .as_ref()
        .map_or(content::QUESTION_COUNT, |a| a.total(quiz))
        .to_string();
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
        Some(domain::outbox::MailStatus::Queued) => "home.report_queued",
        Some(domain::outbox::MailStatus::Sent) => "home.report_sent",
        Some(domain::outbox::MailStatus::Failed(_)) => "home.report_failed",
        None => "home.report_none",
    })
    .to_owned()
}

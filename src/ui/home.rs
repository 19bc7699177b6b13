//! Home: title, progress at a glance, the menu.

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use app::{App, HomeState, MenuItem, home_layout};
use content::key;
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws Home.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &HomeState, theme: &Theme) {
    let s = app.session.strings();
    let parts = home_layout(&app.session);
    let title = Line::from(vec![
        Span::styled(
            s.get(key::app::TITLE),
            theme.tone(app::doc_layout::Tone::Title),
        ),
        Span::styled(format!("  {}", s.get(key::app::SUBTITLE)), theme.dim()),
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
            s.get(key::home::WORKSHOP_REACHABLE).to_owned()
        } else {
            s.fill(key::home::WORKSHOP_UNREACHABLE, &[("pending", &pending)])
        };
        let line = Line::from(vec![
            Span::styled(
                format!(" {}", s.fill(key::home::WORKSHOP, &[("name", &w.session)])),
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
        s.get(key::home::ORDERING_SOLVED)
    } else {
        s.get(key::home::ORDERING_OPEN)
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
        row(s.get(key::home::ORDERING), ordering.to_owned()),
        row(s.get(key::home::SCENARIOS), scenarios),
        row(s.get(key::home::QUIZ), quiz_summary(app)),
        row(s.get(key::home::REPORT), report_summary(app)),
    ];
    if compact {
        return rest;
    }
    let mut lines = vec![
        Line::styled(
            s.get(key::home::PROGRESS),
            theme.tone(app::doc_layout::Tone::Subheading),
        ),
        row(
            s.get(key::home::CHAPTERS_READ),
            format!("{read}/{}", course.chapters.len()),
        ),
        row(
            s.get(key::home::DECISIONS),
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
                key::home::QUIZ_SCORE,
                &[
                    ("score", &score.correct.to_string()),
                    ("total", &total),
                    ("level", score.level.map_or("-", |l| l.name.as_str())),
                ],
            )
        }
        Some(attempt) => s.fill(
            key::home::QUIZ_IN_PROGRESS,
            &[("n", &attempt.answers.len().to_string()), ("total", &total)],
        ),
        None => s.get(key::home::QUIZ_NOT_TAKEN).to_owned(),
    }
}

fn report_summary(app: &App) -> String {
    let s = app.session.strings();
    s.get(match app.session.report_status {
        Some(domain::outbox::MailStatus::Queued) => key::home::REPORT_QUEUED,
        Some(domain::outbox::MailStatus::Sent) => key::home::REPORT_SENT,
        Some(domain::outbox::MailStatus::Failed(_)) => key::home::REPORT_FAILED,
        None => key::home::REPORT_NONE,
    })
    .to_owned()
}

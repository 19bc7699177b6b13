//! What a pacing prompt offers while it is open: the numbered chapters, scenarios (with the
//! mode words the prompt takes) or decisions (each with the chapter it belongs to), by their
//! titles in the session's language, so the instructor types a number they can see.

use super::{dim, ellipsize, plain, title};
use crate::ui::theme::Theme;
use app::dashboard::Dashboard;
use app::dashboard::prompt::PromptKind;
use app::simulator::view::mode_key;
use content::key;
use ratatui::text::Line;
use sim::Mode;

/// The list for an open prompt of `kind`: what it offers by number; None for a yes/no prompt,
/// which leaves the section in view.
pub fn lines(
    dash: &Dashboard,
    kind: PromptKind,
    theme: &Theme,
    width: usize,
) -> Option<Vec<Line<'static>>> {
    let s = dash.strings();
    let course = dash.course();
    let row = |n: usize, text: &str| {
        plain(format!(
            "  {n:>2}. {}",
            ellipsize(text, width.saturating_sub(7))
        ))
    };
    let mut out = Vec::new();
    match kind {
        PromptKind::Chapter => {
            out.push(title(s.get(key::dash::LIST_CHAPTERS), theme));
            for (i, c) in course.chapters.iter().enumerate() {
                out.push(Line::from(row(i + 1, &c.title)));
            }
        }
        PromptKind::Scenario => {
            let modes: Vec<&str> = Mode::ALL.iter().map(|m| s.get(mode_key(*m))).collect();
            let hint = s.fill(key::dash::LIST_MODES, &[("modes", &modes.join(" · "))]);
            out.push(title(s.get(key::dash::LIST_SCENARIOS), theme));
            out.push(Line::from(dim(format!("   {hint}"), theme)));
            let mut scenarios: Vec<_> = dash.content.scenarios.iter().collect();
            scenarios.sort_by_key(|sc| sc.position);
            for (i, sc) in scenarios.iter().enumerate() {
                let name = sc
                    .text(dash.lang)
                    .map_or(sc.id.as_str(), |t| t.title.as_str());
                out.push(Line::from(row(i + 1, name)));
            }
        }
        PromptKind::Reveal | PromptKind::SecondVote => {
            out.push(title(s.get(key::dash::LIST_DECISIONS), theme));
            for (i, d) in course.decisions.iter().enumerate() {
                let chapter = course
                    .chapters
                    .iter()
                    .position(|c| c.id == d.chapter)
                    .map_or_else(
                        || d.chapter.clone(),
                        |n| {
                            s.fill(
                                key::dash::LIST_IN_CHAPTER,
                                &[
                                    ("n", &(n + 1).to_string()),
                                    ("title", &course.chapters[n].title),
                                ],
                            )
                        },
                    );
                out.push(Line::from(row(i + 1, &format!("{} · {chapter}", d.title))));
            }
        }
        PromptKind::RemoveSilent
        | PromptKind::Quit
        | PromptKind::ConfirmKick
        | PromptKind::ConfirmRemoveRow => return None,
        PromptKind::Kick | PromptKind::RemoveRow | PromptKind::Acknowledge => {
            trainees(dash, theme, width, &mut out);
        }
    }
    Some(out)
}

/// The trainees as the prompts that take one number them, the row chosen with the arrows
/// highlighted; the stuck marked, since `a` is for them.
fn trainees(dash: &Dashboard, theme: &Theme, width: usize, out: &mut Vec<Line<'static>>) {
    let s = dash.strings();
    out.push(title(s.get(key::dash::LIST_TRAINEES), theme));
    if dash.summary.trainees.is_empty() {
        out.push(Line::from(dim(
            format!("   {}", s.get(key::dash::NO_TRAINEES)),
            theme,
        )));
    }
    let cursor = dash.prompt.as_ref().and_then(|p| p.cursor);
    for (i, t) in dash.summary.trainees.iter().enumerate() {
        let mut text = format!(
            "{} · {}",
            t.name,
            s.get(t.presence(dash.summary.now_ms).key())
        );
        if t.stuck {
            text = format!("{text} · {}", s.get(key::host::STATUS_STUCK));
        }
        let mark = if cursor == Some(i) { '>' } else { ' ' };
        let line = format!(
            " {mark}{:>2}. {}",
            i + 1,
            ellipsize(&text, width.saturating_sub(7))
        );
        out.push(if cursor == Some(i) {
            Line::styled(line, theme.selected())
        } else {
            Line::from(plain(line))
        });
    }
}

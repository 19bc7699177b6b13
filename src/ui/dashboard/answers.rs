//! The Answers section: each decision's distribution (marked hidden or revealed to the room,
//! the second vote's beside it once the instructor opened one),
//! each quiz question's share correct, the ordering game and the scenarios run.

use super::{bar, cell, dim, plain, title};
use crate::ui::theme::Theme;
use app::dashboard::Dashboard;
use app::doc_layout::Tone;
use content::key;
use ratatui::text::{Line, Span};
use std::fmt::Write as _;

/// Cells of a distribution or share bar.
const BAR_W: usize = 16;

/// The section's lines at `width`.
pub fn lines(dash: &Dashboard, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    decisions(dash, theme, width, &mut out);
    quiz(dash, theme, width, &mut out);
    rest(dash, theme, width, &mut out);
    out
}

fn decisions(dash: &Dashboard, theme: &Theme, width: usize, out: &mut Vec<Line<'static>>) {
    let s = dash.strings();
    let view = &dash.summary;
    out.push(title(s.get(key::dash::DECISIONS_TITLE), theme));
    // Any section may be on the projector: the private view says so where it starts.
    if dash.view == app::dashboard::AnswersView::Private {
        out.push(Line::from(Span::styled(
            format!(" {} ", s.get(key::dash::PRIVATE_VIEW)),
            theme
                .tone(Tone::Bad)
                .add_modifier(ratatui::style::Modifier::REVERSED),
        )));
    }
    for d in &dash.course().decisions {
        let shown = dash.answers_shown(&d.id);
        let counts = view.decisions.get(&d.id);
        let total: u32 = counts.map_or(0, |c| c.values().sum());
        let max = counts.and_then(|c| c.values().max().copied()).unwrap_or(0);
        let (state, tone) = if view.revealed.contains(&d.id) {
            (s.get(key::dash::REVEALED), Tone::Good)
        } else if shown {
            (s.get(key::dash::HIDDEN_PRIVATE), Tone::Bad)
        } else {
            (s.get(key::dash::HIDDEN), Tone::Dim)
        };
        let second = view.second_votes.get(&d.id);
        let mut answers = s.fill(key::dash::ANSWERS_N, &[("n", &total.to_string())]);
        if let Some(second) = second {
            let n: u32 = second.values().sum();
            answers = s.fill(
                key::dash::ANSWERS_BOTH,
                &[("n", &total.to_string()), ("m", &n.to_string())],
            );
        }
        let head = format!(" {} · {answers} · ", d.title);
        let state = Span::styled(state.to_owned(), theme.tone(tone));
        // Hidden or revealed is what the instructor must not miss: where the line is too
        // narrow for both, it stands on a line of its own rather than being cut off.
        if head.chars().count() + state.content.chars().count() > width {
            let head = head.trim_end().trim_end_matches('·').trim_end().to_owned();
            out.push(Line::from(Span::styled(head, theme.tone(Tone::Bold))));
            out.push(Line::from(vec![plain("   ".to_owned()), state]));
        } else {
            out.push(Line::from(vec![
                Span::styled(head, theme.tone(Tone::Bold)),
                state,
            ]));
        }
        // With a second vote the two bars stand side by side, each half as wide, so the
        // instructor sees at a glance how the discussion moved the room.
        if !shown {
            // The options stay on screen so the room can argue about "option 3"; which is
            // right and how many chose it wait for the reveal.
            for (j, option) in d.options.iter().enumerate() {
                let lead = format!("   {}  ", j + 1);
                let text = cell(&option.text, width.saturating_sub(lead.chars().count()));
                out.push(Line::from(vec![plain(lead), dim(text, theme)]));
            }
            continue;
        }
        let bar_w = if second.is_some() { BAR_W / 2 } else { BAR_W };
        if second.is_some() {
            let columns = format!(
                "      {:<w$} {}",
                s.get(key::dash::FIRST_VOTE),
                s.get(key::dash::SECOND_VOTE),
                w = bar_w + 6
            );
            out.push(Line::from(dim(columns, theme)));
        }
        let max_second = second.and_then(|c| c.values().max().copied()).unwrap_or(0);
        for (j, option) in d.options.iter().enumerate() {
            let n = counts.and_then(|c| c.get(&option.id)).copied().unwrap_or(0);
            // Numbered from 1 in file order, as the trainee's decision card and
            // `decide --plain` number them: "2" means the same option on every screen.
            let number = j + 1;
            let mark = if option.correct { '*' } else { ' ' };
            let mut lead = format!(
                "   {number}{mark} {} {n:>3}  ",
                bar(n, max, bar_w, dash.ascii)
            );
            if let Some(second) = second {
                let m = second.get(&option.id).copied().unwrap_or(0);
                let _ = write!(lead, "{} {m:>3}  ", bar(m, max_second, bar_w, dash.ascii));
            }
            let text = cell(&option.text, width.saturating_sub(lead.chars().count()));
            out.push(Line::from(vec![plain(lead), dim(text, theme)]));
        }
    }
    out.push(Line::raw(""));
}

fn quiz(dash: &Dashboard, theme: &Theme, width: usize, out: &mut Vec<Line<'static>>) {
    let s = dash.strings();
    out.push(title(s.get(key::dash::QUIZ_TITLE), theme));
    if dash.summary.quiz.is_empty() {
        out.push(Line::from(dim(
            format!("   {}", s.get(key::dash::QUIZ_NONE)),
            theme,
        )));
    }
    for (i, q) in dash.course().quiz.questions.iter().enumerate() {
        let Some(tally) = dash.summary.quiz.get(&q.id) else {
            continue;
        };
        let percent = (tally.correct * 100)
            .checked_div(tally.answered)
            .unwrap_or(0);
        let lead = format!(
            "   {:>2}. {} {percent:>3} % {:>7}  ",
            i + 1,
            bar(tally.correct, tally.answered, BAR_W, dash.ascii),
            format!("{}/{}", tally.correct, tally.answered)
        );
        let text = cell(&q.prompt, width.saturating_sub(lead.chars().count()));
        // A question most of the room got wrong is what the instructor talks about next.
        let style = if percent < 50 {
            theme.tone(Tone::Bad)
        } else {
            theme.tone(Tone::Text)
        };
        out.push(Line::from(vec![
            Span::styled(lead, style),
            dim(text, theme),
        ]));
    }
    out.push(Line::raw(""));
}

fn rest(dash: &Dashboard, theme: &Theme, width: usize, out: &mut Vec<Line<'static>>) {
    let s = dash.strings();
    let o = dash.summary.ordering;
    let ordering = s.fill(
        key::dash::ORDERING,
        &[
            ("solved", &o.solved.to_string()),
            ("attempts", &o.attempts.to_string()),
            ("mistakes", &o.mistakes.to_string()),
        ],
    );
    out.push(title(&ordering, theme));
    out.push(Line::raw(""));
    out.push(title(s.get(key::dash::SCENARIOS_TITLE), theme));
    let mut scenarios: Vec<_> = dash.content.scenarios.iter().collect();
    scenarios.sort_by_key(|sc| sc.position);
    let mut any = false;
    for (i, sc) in scenarios.iter().enumerate() {
        let Some(n) = dash.summary.scenarios.get(&sc.id) else {
            continue;
        };
        any = true;
        let name = sc
            .text
            .get(&dash.lang)
            .map_or(sc.id.as_str(), |t| t.title.as_str());
        let lead = format!("   {:>2}. {n:>3}  ", i + 1);
        let text = cell(name, width.saturating_sub(lead.chars().count()));
        out.push(Line::from(vec![plain(lead), plain(text)]));
    }
    if !any {
        out.push(Line::from(dim(
            format!("   {}", s.get(key::dash::NONE_YET)),
            theme,
        )));
    }
}

//! The compare view: safe mode beside the other mode, with the difference in one sentence.

use super::super::chrome::clip;
use super::super::rect;
use super::super::theme::Theme;
use app::Screen;
use app::doc_layout::Tone;
use app::simulator::Compare;
use app::simulator::view::{compare_rows, compare_sentence, mode_key};
use app::{App, layout};
use content::key;
use ratatui::Frame;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use sim::Mode;

/// Safe and naive side by side, with the final difference in one sentence.
pub fn compare(
    frame: &mut Frame<'_>,
    app: &App,
    compare: &Compare,
    theme: &Theme,
    area: layout::Area,
) {
    let s = app.session.strings();
    // The unsafe side: what the finished run played, or what `v` / a decision asked for.
    let other_mode = match (compare, &app.screen) {
        (Compare::Done { naive, .. }, _) => naive.mode,
        (Compare::Running, Screen::Simulator(sim)) if sim.settings.mode == Mode::Pitfall => {
            Mode::Pitfall
        }
        (Compare::Running, _) => Mode::Naive,
    };
    let other = s.get(mode_key(other_mode));
    let safe_name = s.get(mode_key(Mode::Safe));
    let mut lines = vec![Line::styled(
        s.fill(key::simulator::COMPARE_TITLE, &[("other", other)]),
        theme.tone(Tone::Title),
    )];
    match compare {
        Compare::Running => lines.push(Line::styled(
            s.get(key::simulator::COMPARE_RUNNING),
            theme.dim(),
        )),
        Compare::Done { safe, naive } => {
            let verdict = |ok: bool| {
                if ok {
                    s.get(key::simulator::INVARIANTS_OK)
                } else {
                    s.get(key::simulator::INVARIANTS_BROKEN)
                }
            };
            lines.push(Line::styled(
                format!("{:<32}{safe_name:>14}{other:>14}", ""),
                theme.tone(Tone::Bold),
            ));
            for (key, a, b) in compare_rows(safe, naive) {
                let mark = if a == b { " " } else { "≠" };
                let tone = if a == b { Tone::Text } else { Tone::Bad };
                let label: String = s.get(key).chars().take(31).collect();
                lines.push(Line::styled(
                    format!("{label:<32}{a:>14}{b:>14} {mark}"),
                    theme.tone(tone),
                ));
            }
            lines.push(Line::raw(format!(
                "{:<32}{:>14}{:>14}",
                s.get(key::simulator::INVARIANTS),
                verdict(safe.invariants.ok()),
                verdict(naive.invariants.ok())
            )));
            lines.push(Line::styled(
                compare_sentence(s, safe, naive),
                theme.tone(Tone::Bold),
            ));
            // The two runs' own folders, each on its own row: they hold each run's end.
            lines.push(Line::styled(
                s.get(key::simulator::COMPARE_PATHS),
                theme.dim(),
            ));
            for (name, dir) in [(safe_name, &safe.paths.dir), (other, &naive.paths.dir)] {
                lines.push(Line::styled(
                    format!(" {name}: {}", dir.display()),
                    theme.dim(),
                ));
            }
        }
    }
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        clip(frame, rect(area)),
    );
}

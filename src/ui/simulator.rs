//! The incident simulator: info line, flow map, narration, tabs, the run's path, menus and the
//! compare view. Everything shown is derived from the borrowed state.

use content::key;

mod caption_room;
mod flow_map;
mod lab_sql;
mod panels;
mod picker;
mod story;
mod tabs;
mod triage_tab;
mod units;

use super::chrome::clip;
use super::rect;
use super::theme::Theme;
use app::doc_layout::Tone;
use app::simulator::{SPEEDS, scenario_text, view};
use app::{App, SimState, layout};
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the simulator screen.
pub fn draw(frame: &mut Frame<'_>, app: &App, state: &SimState, theme: &Theme) {
    let mut areas = layout::simulator(app.session.size.0, app.session.size.1);
    // The compare view names the files of its own two runs: the live run's line would name a
    // third folder, so its row goes to the view.
    let path = if state.compare.is_some() {
        Vec::new()
    } else {
        run_path(app, state, &mut areas)
    };
    let narration = narration_lines(app, state, theme, areas.caption.height);
    let cut = caption_room::grow_caption(state, &narration, &mut areas);
    info(frame, app, state, theme, areas.info);
    if let Some(compare) = &state.compare {
        let area = layout::Area {
            height: (areas.path.y + areas.path.height).saturating_sub(areas.map.y),
            ..areas.map
        };
        panels::compare(frame, app, compare, theme, area);
    } else {
        flow_map::draw(frame, app, state, theme, areas.map);
        let mut caption = offer_compare(frame, app, state, theme, areas.caption);
        if cut {
            caption = caption_room::cut_hint(frame, app, theme, caption);
        }
        story::draw(frame, narration, caption);
        tabs::draw(frame, app, state, theme, areas.tabs, areas.content);
    }
    let lines: Vec<Line<'_>> = path
        .into_iter()
        .map(|l| Line::styled(l, theme.dim()))
        .collect();
    frame.render_widget(Paragraph::new(lines), clip(frame, rect(areas.path)));
    if let Some(picker) = state.picker {
        picker::draw(frame, app, state, picker, theme);
    }
}

/// The run's files, whole: a path too long for one row breaks after a `/` onto a second row,
/// taken from the tabs' content (a learner copies it into `sqlite3`).
fn run_path(app: &App, state: &SimState, areas: &mut layout::SimAreas) -> Vec<String> {
    let s = app.session.strings();
    let Some(dir) = state.timeline.dir.as_deref() else {
        return vec![s.get(key::simulator::NO_RUN).to_owned()];
    };
    // Stepped back, the screen shows an earlier event than the files hold: say which.
    let (key, head) = match state.timeline.cursor {
        Some(_) => (
            key::simulator::PATH_AT_HEAD,
            state.timeline.total.to_string(),
        ),
        None => (key::simulator::PATH, String::new()),
    };
    let full = s.fill(key, &[("dir", dir), ("head", &head)]);
    let width = usize::from(areas.path.width);
    let lines = break_path(&full, width);
    if lines.len() > 1 && areas.content.height > caption_room::MIN_TAB_ROWS {
        areas.content.height -= 1;
        areas.path.y -= 1;
        areas.path.height = 2;
        return lines;
    }
    // No row to spare: the run's own folder name (the end) stays, the parents become "…".
    let over = full.chars().count().saturating_sub(width);
    if over == 0 {
        return vec![full];
    }
    let keep: String = dir.chars().skip(over + 1).collect();
    vec![s.fill(key, &[("dir", &format!("…{keep}")), ("head", &head)])]
}

/// `text` in rows of `width`, broken after the last `/` (or space) that fits; the second row
/// keeps the end when the text needs more than two.
fn break_path(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= width || width < 2 {
        return vec![text.to_owned()];
    }
    let cut = chars[..width]
        .iter()
        .rposition(|c| *c == '/' || *c == ' ')
        .map_or(width, |i| i + 1);
    let first: String = chars[..cut].iter().collect();
    let rest = &chars[cut..];
    let second: String = if rest.len() > width {
        std::iter::once('…')
            .chain(rest[rest.len() - (width - 1)..].iter().copied())
            .collect()
    } else {
        rest.iter().collect()
    };
    vec![first, second]
}

/// At the end of a run, the first row offers the compare view; returns the rest of `area`.
fn offer_compare(
    frame: &mut Frame<'_>,
    app: &App,
    s: &SimState,
    theme: &Theme,
    area: layout::Area,
) -> layout::Area {
    if !(s.timeline.finished && s.timeline.cursor.is_none()) || area.height < 2 {
        return area;
    }
    let strings = app.session.strings();
    // The compare view shows safe mode beside naive (or beside pitfall in pitfall mode).
    let other = match s.settings.mode {
        sim::Mode::Safe => sim::Mode::Naive,
        sim::Mode::Naive | sim::Mode::Pitfall => sim::Mode::Safe,
    };
    let text = strings.fill(
        key::simulator::OFFER_COMPARE,
        &[("mode", strings.get(view::mode_key(other)))],
    );
    let row = layout::Area { height: 1, ..area };
    frame.render_widget(
        Paragraph::new(Line::styled(
            picker::cut_at_word(&text, usize::from(area.width)),
            theme.tone(Tone::Focus),
        )),
        clip(frame, rect(row)),
    );
    layout::Area {
        y: area.y + 1,
        height: area.height - 1,
        ..area
    }
}

/// Draws the info row: the scenario's title, mode, broker and seed, the play state with its
/// speed, the position and the time; the seed and then the title give way when it is narrow.
fn info(frame: &mut Frame<'_>, app: &App, s: &SimState, theme: &Theme, area: layout::Area) {
    let strings = app.session.strings();
    let title = scenario_text(&app.session, s.scenario_id())
        .map_or_else(|| s.scenario_id().to_owned(), |t| t.title.clone());
    // A lab's run plays the learner's file, not a mode.
    let mode = match &s.settings.lab {
        Some(lab) => strings.fill(key::simulator::LAB_MODE, &[("n", &lab.number.to_string())]),
        None => strings
            .get(app::simulator::view::mode_key(s.settings.mode))
            .to_owned(),
    };
    let state = play_state(app, s);
    let tail = position_tail(app, s);
    let seed_part = format!(
        "{} {} · ",
        strings.get(key::simulator::SEED),
        s.settings.seed
    );
    let head = |seed: &str| {
        format!(
            "· {} · {} · {seed}",
            mode,
            s.settings.broker.as_str().to_uppercase()
        )
    };
    // The seed goes first when the line is too long, then the title is shortened: the
    // state, the position and the time always show in full.
    let width = usize::from(area.width);
    let len = |t: &str, h: &str| {
        t.chars().count() + 1 + h.chars().count() + state.chars().count() + tail.chars().count()
    };
    let head = if len(&title, &head(&seed_part)) > width {
        head("")
    } else {
        head(&seed_part)
    };
    let room = width.saturating_sub(len("", &head));
    let title = picker::cut_at_word(&title, room);
    let spans = vec![
        Span::styled(format!("{title} "), theme.tone(Tone::Bold)),
        Span::raw(head),
        Span::styled(state, theme.tone(Tone::Focus)),
        Span::raw(tail),
    ];
    frame.render_widget(Paragraph::new(Line::from(spans)), clip(frame, rect(area)));
}

/// The play state: its mark (playing, finished or paused), its word and the speed.
fn play_state(app: &App, s: &SimState) -> String {
    let strings = app.session.strings();
    let (mark, state_key) = if s.timeline.playing {
        (
            if app.session.options.ascii {
                ">"
            } else {
                "▶"
            },
            key::simulator::PLAYING,
        )
    } else if s.timeline.finished && s.timeline.cursor.is_none() {
        (
            if app.session.options.ascii {
                "#"
            } else {
                "■"
            },
            key::simulator::FINISHED,
        )
    } else {
        (
            if app.session.options.ascii {
                "||"
            } else {
                "⏸"
            },
            key::simulator::PAUSED,
        )
    };
    let speed = SPEEDS[s.settings.speed.min(SPEEDS.len() - 1)];
    let times = if app.session.options.ascii { "x" } else { "×" };
    format!("{mark} {} {times}{speed}", strings.get(state_key))
}

/// Where the run stands: the history position or the event, and the time once there is one.
fn position_tail(app: &App, s: &SimState) -> String {
    let strings = app.session.strings();
    let position = match (s.timeline.cursor, s.shown_index()) {
        (Some(i), _) => strings.fill(
            key::simulator::HISTORY,
            &[
                ("n", &(i + 1).to_string()),
                ("total", &s.timeline.total.to_string()),
            ],
        ),
        (None, Some(i)) => strings.fill(key::simulator::EVENT, &[("n", &(i + 1).to_string())]),
        (None, None) => strings.get(key::simulator::NOT_STARTED).to_owned(),
    };
    let now = s.shown().map_or(0, |snap| snap.scalars.now_ms);
    let now = sim::moments::human_ms(app.session.lang, now);
    // Before the first event there is no time to show.
    if s.shown_index().is_some() {
        format!(" · {position} · {now}")
    } else {
        format!(" · {position}")
    }
}

/// What the story panel shows: the current moment (see [`story::lines`]), else the newest
/// captions (reduced motion: as many as fit `height` rows), else the shown event's caption,
/// else the scenario's summary.
fn narration_lines(app: &App, s: &SimState, theme: &Theme, height: u16) -> Vec<Line<'static>> {
    let text = story::PanelText {
        strings: app.session.strings(),
        texts: &app.session.content.moments,
        lang: app.session.lang,
        pause_at_moments: s.settings.pause_at_moments,
        caption: s
            .shown()
            .and_then(|snap| snap.last_event.as_ref())
            .map(|e| format!("#{} {}", e.index + 1, view::caption(&app.session, e))),
    };
    if let Some(lines) = story::lines(&text, &s.story, s.shown_index(), theme) {
        return lines;
    }
    if app.session.options.reduced_motion {
        // The newest captions that fit, oldest first, each in full (wrapped).
        let width = usize::from(app.session.size.0.saturating_sub(2).max(1));
        let mut rows = usize::from(height);
        let mut kept = Vec::new();
        for line in view::transcript(&app.session, s, usize::from(height))
            .into_iter()
            .rev()
        {
            let needed = line.chars().count().div_ceil(width).max(1);
            if needed > rows && !kept.is_empty() {
                break;
            }
            rows = rows.saturating_sub(needed);
            kept.push(Line::raw(units::glue(&line)));
        }
        kept.reverse();
        return kept;
    }
    let shown = s
        .shown()
        .and_then(|snap| snap.last_event.as_ref().map(|e| (snap, e)));
    if let Some((snap, event)) = shown {
        let tone = if view::failing(snap).is_some() {
            Tone::Bad
        } else {
            Tone::Italic
        };
        vec![Line::styled(
            units::glue(&format!(
                "#{} {}",
                event.index + 1,
                view::caption(&app.session, event)
            )),
            theme.tone(tone),
        )]
    } else {
        let summary = scenario_text(&app.session, s.scenario_id())
            .map(|t| t.summary.clone())
            .unwrap_or_default();
        vec![
            Line::raw(summary),
            Line::styled(
                app.session
                    .strings()
                    .get(key::simulator::PRESS_PLAY)
                    .to_owned(),
                theme.dim(),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::break_path;

    #[test]
    fn a_long_run_path_breaks_after_a_slash_and_keeps_every_character() {
        let text = "Lauf-Dateien (sqlite3): /home/anna/.local/share/queuelab/sim-runs/poison-dlq-safe-asb-seed1-1796145443-2";
        let rows = break_path(text, 78);
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert!(rows[0].ends_with('/'), "{rows:?}");
        assert!(rows.iter().all(|r| r.chars().count() <= 78), "{rows:?}");
        assert_eq!(rows.concat(), text);
        assert_eq!(break_path("short", 78), ["short"]);
    }

    #[test]
    fn a_path_longer_than_two_rows_keeps_its_end() {
        let text = format!("x: /{}/run-1", "a".repeat(200));
        let rows = break_path(&text, 40);
        assert_eq!(rows.len(), 2);
        assert!(
            rows[1].starts_with('…') && rows[1].ends_with("/run-1"),
            "{rows:?}"
        );
        assert!(rows.iter().all(|r| r.chars().count() <= 40), "{rows:?}");
    }
}

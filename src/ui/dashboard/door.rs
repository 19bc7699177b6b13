//! The room's door above the stuck list, while there is something to see: new trainees in the
//! last minute (a burst flagged), those who never sent an event, and the lock, with the keys
//! that act on them, and names that look alike. A quiet room shows nothing here.

use super::dim;
use super::join::words;
use crate::ui::theme::Theme;
use app::dashboard::Dashboard;
use app::doc_layout::Tone;
use content::key;
use ratatui::text::{Line, Span};

/// The door's lines at `width` (none in a quiet, open room).
pub fn lines(dash: &Dashboard, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let s = dash.strings();
    let door = dash.summary.door;
    let mut out = lookalike_lines(dash, theme, width);
    if !door.locked && door.joins_last_minute == 0 && door.silent == 0 {
        return out;
    }
    let mut status = s.fill(
        key::dash::DOOR_LINE,
        &[
            ("joins", &door.joins_last_minute.to_string()),
            ("silent", &door.silent.to_string()),
        ],
    );
    if door.burst {
        status = format!("{} · {status}", s.get(key::dash::DOOR_BURST));
    }
    if door.locked {
        status = format!("{} · {status}", s.get(key::dash::DOOR_LOCKED));
    }
    let tone = if door.burst || door.locked {
        Tone::Bad
    } else {
        Tone::Bold
    };
    let wrap = |text: &str| words(text, width.saturating_sub(1));
    out.extend(
        wrap(&status)
            .into_iter()
            .map(|part| Line::from(Span::styled(format!(" {part}"), theme.tone(tone)))),
    );
    for part in wrap(s.get(key::dash::DOOR_KEYS)) {
        out.push(Line::from(dim(format!(" {part}"), theme)));
    }
    out.push(Line::raw(""));
    out
}

/// Names in the room that look alike (a Cyrillic "А" in "Аlice" beside "Alice"), so the
/// instructor checks who is who before acting on a name.
fn lookalike_lines(dash: &Dashboard, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let groups = &dash.summary.lookalikes;
    if groups.is_empty() {
        return Vec::new();
    }
    let named: Vec<String> = groups.iter().map(|g| g.join(" ≈ ")).collect();
    let text = dash
        .strings()
        .fill(key::dash::LOOKALIKES, &[("names", &named.join(" · "))]);
    let mut out: Vec<Line<'static>> = words(&text, width.saturating_sub(1))
        .into_iter()
        .map(|part| Line::from(Span::styled(format!(" {part}"), theme.tone(Tone::Bad))))
        .collect();
    out.push(Line::raw(""));
    out
}

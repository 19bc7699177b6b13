//! How many rows the story panel gets: a caption or moment longer than its area takes rows from
//! the tabs below, down to what the open tab needs; what still does not fit ends in a hint
//! where the whole text can be read.

use super::super::chrome::clip;
use super::super::rect;
use super::super::theme::Theme;
use app::simulator::Tab;
use app::{App, SimState, layout};
use content::key;
use ratatui::Frame;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// Rows the tabs below always keep when the story panel grows.
pub(super) const MIN_TAB_ROWS: u16 = 2;
/// Rows the DLQ triage tab keeps: its keys, its summary, the first entry and the line that
/// says how many more there are. The entries are what the learner acts on there.
const MIN_TRIAGE_ROWS: u16 = 4;

/// Gives the story panel the rows its lines need, taking them from the tabs below (down to
/// [`MIN_TAB_ROWS`], or [`MIN_TRIAGE_ROWS`] on the DLQ triage tab, which also gets the caption
/// rows left empty). Returns true when the lines still do not fit.
pub(super) fn grow_caption(
    s: &SimState,
    narration: &[Line<'_>],
    areas: &mut layout::SimAreas,
) -> bool {
    let width = usize::from(areas.caption.width);
    let offer = u16::from(s.timeline.finished && s.timeline.cursor.is_none());
    let text_rows: u16 = narration
        .iter()
        .map(|l| {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            wrapped_rows(&text, width).max(1)
        })
        .sum();
    let wanted = offer + text_rows;
    let triage = s.tab == Tab::Dlq;
    if triage && wanted.max(1) < areas.caption.height {
        let spare = areas.caption.height - wanted.max(1);
        areas.caption.height -= spare;
        areas.tabs.y -= spare;
        areas.content.y -= spare;
        areas.content.height += spare;
        return false;
    }
    let keep = if triage {
        MIN_TRIAGE_ROWS
    } else {
        MIN_TAB_ROWS
    };
    let extra = wanted
        .saturating_sub(areas.caption.height)
        .min(areas.content.height.saturating_sub(keep));
    areas.caption.height += extra;
    areas.tabs.y += extra;
    areas.content.y += extra;
    areas.content.height -= extra;
    wanted > areas.caption.height
}

/// On the last row of `area`, the hint that the text goes on (Tab to the events shows it
/// whole); returns the rows above it.
pub(super) fn cut_hint(
    frame: &mut Frame<'_>,
    app: &App,
    theme: &Theme,
    area: layout::Area,
) -> layout::Area {
    if area.height < 2 {
        return area;
    }
    let last = layout::Area {
        y: area.y + area.height - 1,
        height: 1,
        ..area
    };
    let hint = app.session.strings().get(key::simulator::STORY_CUT);
    frame.render_widget(
        Paragraph::new(Line::styled(hint.to_owned(), theme.dim())),
        clip(frame, rect(last)),
    );
    layout::Area {
        height: area.height - 1,
        ..area
    }
}

/// Rows `text` takes wrapped between words at `width` (as the paragraph wraps it).
fn wrapped_rows(text: &str, width: usize) -> u16 {
    let width = width.max(1);
    let mut rows: u16 = 0;
    let mut used = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let n = word.chars().count();
        if used > 0 && used + 1 + n <= width {
            used += 1 + n;
        } else {
            rows += 1;
            used = n;
            // A word wider than the row takes several.
            while used > width {
                rows += 1;
                used -= width;
            }
        }
    }
    rows
}

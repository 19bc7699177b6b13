//! The story panel: the current moment's plain-language explanation, where it stands among
//! the run's moments, and the keys to its cause and to the next moment. Without a moment it
//! shows the shown event's caption as before.

use super::super::chrome::clip;
use super::super::rect;
use super::super::theme::Theme;
use app::doc_layout::Tone;
use app::layout;
use app::simulator::story::StoryState;
use content::key;
use content::{Captions, Lang, Strings};
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use sim::moments::{self, MomentKind};

/// What the panel needs besides the story itself.
pub struct PanelText<'a> {
    /// UI strings of the language.
    pub strings: &'a Strings,
    /// The moment texts (content).
    pub texts: &'a Captions,
    /// The language.
    pub lang: Lang,
    /// "Pause at moments" is on.
    pub pause_at_moments: bool,
    /// The shown event's caption (shown under the header once the cursor left the moment).
    pub caption: Option<String>,
}

/// The tone a moment is drawn in: broken outcomes bad, protections good, the rest plain.
pub fn tone(kind: MomentKind) -> Tone {
    match kind {
        MomentKind::DuplicateEffect
        | MomentKind::LostOrder
        | MomentKind::LockLost
        | MomentKind::OutOfOrder => Tone::Bad,
        MomentKind::PreventedDuplicate | MomentKind::Replayed => Tone::Good,
        MomentKind::DeadLettered | MomentKind::Redelivered | MomentKind::OutboxWaiting => {
            Tone::Bold
        }
    }
}

/// The panel's lines (a header with its keys, then the explanation or the shown event's
/// caption); `None` when there is no moment to explain.
pub fn lines(
    text: &PanelText<'_>,
    story: &StoryState,
    shown: Option<u64>,
    theme: &Theme,
) -> Option<Vec<Line<'static>>> {
    let (Some(m), Some(pos)) = (story.current(shown), story.position(shown)) else {
        return None;
    };
    let s = text.strings;
    let kind = text
        .texts
        .get(text.lang, &format!("kind.{}", m.kind.as_str()))
        .unwrap_or(m.kind.as_str())
        .to_owned();
    let header = s.fill(
        key::simulator::STORY_HEADER,
        &[
            ("n", &(pos + 1).to_string()),
            ("total", &story.moments.len().to_string()),
            ("kind", &kind),
        ],
    );
    let keys = match story.came_from {
        Some(back) => s.fill(
            key::simulator::STORY_BACK,
            &[(
                "event",
                &back.map_or_else(
                    || s.get(key::simulator::STORY_HEAD).to_owned(),
                    |i| format!("#{}", sim::moments::event_number(i)),
                ),
            )],
        ),
        None => s.fill(
            key::simulator::STORY_KEYS,
            &[
                ("cause", &m.cause_number().to_string()),
                (
                    "state",
                    s.get(if text.pause_at_moments {
                        key::simulator::STORY_ON
                    } else {
                        key::simulator::STORY_OFF
                    }),
                ),
            ],
        ),
    };
    let style = theme.tone(tone(m.kind));
    // At the moment (or at its cause after a jump) the explanation; further on, the shown
    // event's caption under the moment's header.
    let at_moment = story.explains(shown);
    let body = match &text.caption {
        Some(c) if !at_moment => Line::styled(super::units::glue(c), theme.tone(Tone::Italic)),
        _ => Line::styled(
            super::units::glue(&moments::render(text.texts, text.lang, m)),
            theme.tone(Tone::Text),
        ),
    };
    Some(vec![
        Line::from(vec![
            Span::styled(header, style),
            Span::styled(format!(" · {keys}"), theme.dim()),
        ]),
        body,
    ])
}

/// Draws `lines` wrapped into `area`.
pub fn draw(frame: &mut Frame<'_>, lines: Vec<Line<'static>>, area: layout::Area) {
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }),
        clip(frame, rect(area)),
    );
}

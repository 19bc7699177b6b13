//! Styles for every tone and piece of chrome. With `NO_COLOR` set, only modifiers are used, and
//! everything that matters is also marked by text (focus markers, ✓/✗), never by colour alone.

use app::doc_layout::Tone;
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;

/// Frame characters for `--ascii`.
pub const ASCII_BORDER: border::Set<'static> = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// The frame characters for the chosen mode.
pub fn border_set(ascii: bool) -> border::Set<'static> {
    if ascii { ASCII_BORDER } else { border::ROUNDED }
}

/// The active theme.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    no_color: bool,
}

impl Theme {
    /// A theme; `no_color` drops every colour.
    pub fn new(no_color: bool) -> Self {
        Theme { no_color }
    }

    fn pick(self, colored: Style, plain: Style) -> Style {
        if self.no_color { plain } else { colored }
    }

    /// The style of a document tone.
    pub fn tone(self, tone: Tone) -> Style {
        let m = Style::default();
        match tone {
            Tone::Text => m,
            Tone::Bold | Tone::Subheading => m.add_modifier(Modifier::BOLD),
            Tone::Italic | Tone::Quote => m.add_modifier(Modifier::ITALIC),
            Tone::Code | Tone::CodeBlock => self.pick(m.fg(Color::Cyan), m),
            Tone::Title => self.pick(
                m.fg(Color::Cyan).add_modifier(Modifier::BOLD),
                m.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            ),
            Tone::Heading => self.pick(
                m.fg(Color::Yellow).add_modifier(Modifier::BOLD),
                m.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            ),
            Tone::Dim | Tone::Border => {
                self.pick(m.fg(Color::DarkGray), m.add_modifier(Modifier::DIM))
            }
            Tone::Good => self.pick(
                m.fg(Color::Green).add_modifier(Modifier::BOLD),
                m.add_modifier(Modifier::BOLD),
            ),
            Tone::Bad => self.pick(
                m.fg(Color::Red).add_modifier(Modifier::BOLD),
                m.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            ),
            Tone::Focus => self.pick(
                m.fg(Color::Magenta).add_modifier(Modifier::BOLD),
                m.add_modifier(Modifier::BOLD),
            ),
            Tone::Strike => m.add_modifier(Modifier::CROSSED_OUT),
        }
    }

    /// The header bar.
    pub fn header(self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }

    /// The selected row of a list.
    pub fn selected(self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    /// Keys in the legend.
    pub fn key(self) -> Style {
        self.pick(
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    /// Secondary text.
    pub fn dim(self) -> Style {
        self.tone(Tone::Dim)
    }

    /// An error message.
    pub fn error(self) -> Style {
        self.tone(Tone::Bad)
    }
}

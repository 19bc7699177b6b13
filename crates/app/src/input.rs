//! Terminal input as plain data, so the pure core never sees crossterm types.

/// A key without modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyCode {
    /// A printable character.
    Char(char),
    /// Enter / Return.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Tab.
    Tab,
    /// Shift+Tab.
    BackTab,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Home.
    Home,
    /// End.
    End,
    /// Anything else (function keys, media keys, ...).
    Other,
}

/// A key press with the modifiers that matter to us.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The key.
    pub code: KeyCode,
    /// Control held.
    pub ctrl: bool,
}

impl Key {
    /// A plain key.
    pub fn plain(code: KeyCode) -> Self {
        Key { code, ctrl: false }
    }

    /// A plain character key.
    pub fn char(c: char) -> Self {
        Key::plain(KeyCode::Char(c))
    }

    /// True for Ctrl+C (which arrives as a key in raw mode).
    pub fn is_ctrl_c(self) -> bool {
        self.ctrl && matches!(self.code, KeyCode::Char('c' | 'C'))
    }
}

/// What the mouse did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MouseKind {
    /// Left button pressed.
    Click,
    /// Wheel up.
    ScrollUp,
    /// Wheel down.
    ScrollDown,
}

/// A mouse event at a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mouse {
    /// What happened.
    pub kind: MouseKind,
    /// Column (0-based).
    pub column: u16,
    /// Row (0-based).
    pub row: u16,
}

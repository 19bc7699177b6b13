//! Shared helpers for screen tests: an app on the embedded content, key presses, and the
//! rendered screen as a buffer or as text.

use queuelab::app::input::{Key, KeyCode};
use queuelab::app::{App, Info, Msg, Options};
use queuelab::content::{Content, ContentSource, Lang, load};
use queuelab::domain::Progress;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use std::sync::{Arc, OnceLock};

/// The embedded content, loaded once per test binary.
pub fn content() -> Arc<Content> {
    static CONTENT: OnceLock<Arc<Content>> = OnceLock::new();
    Arc::clone(
        CONTENT.get_or_init(|| Arc::new(load(&ContentSource::Embedded).expect("valid content"))),
    )
}

/// A fresh app at a terminal size.
pub fn new_app(lang: Lang, options: Options, info: Info, width: u16, height: u16) -> App {
    let mut app = App::new(content(), lang, Progress::default(), options, info);
    app.update(Msg::Resized { width, height });
    app
}

/// An app with default options and the fixed folders the snapshots show (`/data`, `/config`).
pub fn snapshot_app(lang: Lang, width: u16, height: u16) -> App {
    let info = Info {
        data_dir: "/data".into(),
        config: "/config/queuelab.toml".into(),
        log: "/data/queuelab.log".into(),
        workshop: None,
    };
    new_app(lang, Options::default(), info, width, height)
}

/// Types keys: `\n` is Enter, `\t` Tab, `\x1b` Esc, `\x7f` Backspace, anything else a character.
pub fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        let key = match c {
            '\n' => Key::plain(KeyCode::Enter),
            '\t' => Key::plain(KeyCode::Tab),
            '\x1b' => Key::plain(KeyCode::Esc),
            '\x7f' => Key::plain(KeyCode::Backspace),
            c => Key::char(c),
        };
        app.update(Msg::Key(key));
    }
}

/// Draws the app into a test buffer of its size.
pub fn render(app: &App) -> Buffer {
    let (width, height) = app.session.size;
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|frame| queuelab::ui::draw(frame, app))
        .expect("draws");
    terminal.backend().buffer().clone()
}

/// A buffer's characters, one line per row, trailing spaces trimmed.
pub fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        let line: String = (0..area.width)
            .map(|x| buffer[(x, y)].symbol().to_owned())
            .collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The app's screen as text.
pub fn screen(app: &App) -> String {
    text(&render(app))
}

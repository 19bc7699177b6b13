//! The one builder for an `App` in unit tests: embedded content parsed once per test binary,
//! default options, a resize already applied (as the runtime sends one first).

use super::input::{Key, KeyCode};
use super::{App, Effect, Info, Msg, Options};
use content::{Content, ContentSource, Lang, load};
use domain::Progress;
use std::sync::{Arc, OnceLock};

/// The embedded content, loaded once and shared by every test.
pub fn content() -> Arc<Content> {
    static CONTENT: OnceLock<Arc<Content>> = OnceLock::new();
    CONTENT
        .get_or_init(|| {
            Arc::new(load(&ContentSource::Embedded).expect("embedded content is valid"))
        })
        .clone()
}

/// A fresh app on Home in `lang` at `width` x `height`.
pub fn test_app(lang: Lang, width: u16, height: u16) -> App {
    let mut app = App::new(
        content(),
        lang,
        Progress::default(),
        Options::default(),
        Info::default(),
    );
    app.update(Msg::Resized { width, height });
    app
}

/// Presses a non-character key.
pub fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.update(Msg::Key(Key::plain(code)))
}

/// Types `text` one character at a time.
pub fn chars(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| app.update(Msg::Key(Key::char(c))))
        .collect()
}

/// Opens chapter `index` on top, as Home does, and applies the screen change.
pub fn open_chapter(app: &mut App, index: usize) -> Vec<Effect> {
    let mut effects = super::reader::open_chapter(&mut app.session, index);
    effects.extend(app.apply_nav());
    effects
}

//! What the course ships, counted from the embedded content, for the screens that show it.

use queuelab::content::{ContentSource, Lang, load};

/// How many chapters the course has (every language has the same chapters).
pub fn chapter_count() -> usize {
    load(&ContentSource::Embedded)
        .expect("content loads")
        .course(Lang::En)
        .chapters
        .len()
}

/// Home's line of chapters read, `read` of them, in English.
pub fn chapters_read(read: usize) -> String {
    format!("Chapters read: {read}/{}", chapter_count())
}

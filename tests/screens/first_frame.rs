//! The first frame draws Home from the UI strings alone: no course parsed, no progress store
//! open. The counts fill in once the store's contents arrive.

use crate::support::screen as support;

use queuelab::app::{App, Info, Msg, Options, StoredSession};
use queuelab::content::{ContentSource, Lang, load_shown};
use queuelab::domain::{Fact, Progress};
use std::sync::Arc;
use support::{render, text};

#[test]
fn home_draws_before_the_course_is_parsed_and_the_store_has_opened() {
    for (lang, start, read) in [
        (Lang::En, "Start with chapter 1", "Chapters read: 1/"),
        (Lang::De, "Mit Kapitel 1 beginnen", "Kapitel gelesen: 1/"),
    ] {
        let read = format!("{read}{}", support::content().course(lang).chapters.len());
        let content = Arc::new(load_shown(&ContentSource::Embedded, lang).expect("valid"));
        let mut app = App::new(
            content.clone(),
            lang,
            Progress::default(),
            Options::default(),
            Info::default(),
        );
        app.session.await_store();
        app.update(Msg::Resized {
            width: 80,
            height: 24,
        });
        let first = text(&render(&app));
        assert!(first.contains(start), "{first}");
        assert!(!first.contains(&read), "no counts yet:\n{first}");
        assert!(
            !content.course_parsed(lang),
            "the first frame needed no course"
        );
        assert!(!content.scenarios.is_ready(), "nor the simulator's files");

        let mut progress = Progress::default();
        progress.apply(&Fact::ChapterRead("friday-incident".into()));
        app.update(Msg::StoreOpened(Box::new(StoredSession {
            progress,
            ..StoredSession::default()
        })));
        let filled = text(&render(&app));
        assert!(filled.contains(&read), "{filled}");
        assert!(content.course_parsed(lang));
    }
}

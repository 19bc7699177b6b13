//! Settings lists the damaged copies the runtime reports and deletes them only after y.

use super::super::test_app::{chars, test_app};
use super::super::{DamagedCopy, Effect, Msg, Screen, StoreFault, StoreRequest};
use content::Lang;

fn copy(name: &str) -> DamagedCopy {
    DamagedCopy {
        name: name.into(),
        bytes: 8192,
        modified_secs: 1_796_040_000,
    }
}

#[test]
fn damaged_copies_are_listed_and_deleted_after_yes() {
    let mut app = test_app(Lang::En, 100, 30);
    let effects = chars(&mut app, "8");
    assert!(matches!(app.screen, Screen::Settings(_)));
    assert_eq!(effects, vec![Effect::Store(StoreRequest::ListDamaged)]);
    app.update(Msg::DamagedCopies(vec![
        copy("progress.damaged-1796040000.db"),
        copy("progress.damaged-1796043600.db"),
    ]));
    assert_eq!(app.session.damaged.len(), 2);

    // n keeps them.
    assert!(chars(&mut app, "d").is_empty());
    assert!(chars(&mut app, "n").is_empty());
    // y deletes them, through the store thread.
    assert!(chars(&mut app, "d").is_empty());
    let Screen::Settings(state) = &app.screen else {
        panic!("still on Settings");
    };
    assert!(state.confirm_delete);
    assert_eq!(
        chars(&mut app, "y"),
        vec![Effect::Store(StoreRequest::DeleteDamaged)]
    );

    // The result is shown and the list fetched again.
    let effects = app.update(Msg::DamagedDeleted(Ok(2)));
    assert_eq!(effects, vec![Effect::Store(StoreRequest::ListDamaged)]);
    let status = app.session.status.clone().expect("a status line");
    assert_eq!(status.text, "2 copies of damaged progress files deleted.");
    assert!(!status.error);
    app.update(Msg::DamagedCopies(Vec::new()));
    assert!(app.session.damaged.is_empty());

    // With none, d asks nothing and says so.
    assert!(chars(&mut app, "d").is_empty());
    let Screen::Settings(state) = &app.screen else {
        panic!("still on Settings");
    };
    assert!(!state.confirm_delete);
    assert_eq!(
        app.session.status.clone().map(|s| s.text).as_deref(),
        Some("No copies of damaged progress files.")
    );
}

#[test]
fn a_failed_delete_is_shown_as_an_error() {
    let mut app = test_app(Lang::De, 80, 24);
    chars(&mut app, "8");
    app.update(Msg::DamagedDeleted(Err(StoreFault::File {
        path: "/data/progress.db.damaged-1".into(),
        reason: "permission denied".into(),
    })));
    let status = app.session.status.clone().expect("a status line");
    assert!(status.error);
    assert!(status.text.contains("permission denied"), "{}", status.text);
}

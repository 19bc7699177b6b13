//! Lines logged before the log file is opened (the TUI opens it beside its first frame) reach
//! the file once it is, ahead of the later ones.

use queuelab::services::log;

#[test]
fn lines_logged_before_the_file_is_opened_are_written_when_it_is() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("queuelab.log");
    log::warn("before the file");
    assert!(!file.exists());
    log::init(&file).expect("open the log");
    log::info("after the file");
    let text = std::fs::read_to_string(&file).expect("read the log");
    let before = text.find("WARN before the file").expect("the early line");
    let after = text.find("INFO after the file").expect("the later line");
    assert!(before < after, "{text}");
}

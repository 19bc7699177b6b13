//! `queuelab lab census N` as the real binary: one line per file the lab's folder ships (the
//! starting file, the solution, every `right/` and `wrong/` file), each marked `ok` when it
//! failed or passed as it should, and exit 0; a content folder in which a wrong answer passes
//! gets that file marked `UNEXPECTED` and the command fails.

use crate::support::cli::queuelab;

use std::path::{Path, PathBuf};

/// The lab whose census the tests take: one scenario on two brokers, so its census is quick.
const LAB: (u32, &str) = (6, "06-poison-messages");

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files of the lab's `kind` folder (`right` or `wrong`) in `labs`, as the census names them.
fn shipped(labs: &Path, kind: &str) -> Vec<String> {
    let folder = labs.join(LAB.1).join(kind);
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| Path::new(name).extension().is_some_and(|e| e == "sql"))
        .map(|name| format!("{kind}/{name}"))
        .collect();
    names.sort();
    names
}

/// Every file the census must list for the lab in `labs`.
fn census_files(labs: &Path) -> Vec<String> {
    let mut names = vec!["start.sql".to_owned(), "solution.sql".to_owned()];
    names.extend(shipped(labs, "right"));
    names.extend(shipped(labs, "wrong"));
    names
}

/// The census's line for `file`, found by its first column.
fn line_of<'a>(stdout: &'a str, file: &str) -> &'a str {
    stdout
        .lines()
        .find(|line| line.split_whitespace().next() == Some(file))
        .unwrap_or_else(|| panic!("no line for {file}:\n{stdout}"))
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("make the folder");
    for entry in std::fs::read_dir(from).expect("read the folder") {
        let entry = entry.expect("entry");
        let target: PathBuf = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy the file");
        }
    }
}

#[test]
fn census_lists_every_file_the_lab_ships_each_as_it_should_be() {
    let data = tempfile::tempdir().expect("tempdir");
    let lab = LAB.0.to_string();
    let out = queuelab(data.path(), &["--lang", "en", "lab", "census", &lab]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = census_files(&repository().join("labs"));
    assert!(stdout.starts_with("file "), "a header first:\n{stdout}");
    assert_eq!(stdout.lines().count(), 1 + files.len(), "{stdout}");
    for file in &files {
        assert!(line_of(&stdout, file).ends_with(" ok"), "{file}:\n{stdout}");
    }
    assert!(
        line_of(&stdout, "start.sql").contains(" broken "),
        "{stdout}"
    );
    assert!(
        line_of(&stdout, "solution.sql").contains(" passed "),
        "{stdout}"
    );
}

#[test]
fn a_wrong_answer_that_passes_is_named_unexpected_and_fails_the_census() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = dir.path().join("content");
    for folder in ["lessons", "quiz", "assets", "labs"] {
        copy_folder(&repository().join(folder), &content.join(folder));
    }
    // A "wrong answer" that is the reference solution under its `-- expect:` line.
    let labs = content.join("labs");
    let wrong = shipped(&labs, "wrong").remove(0);
    let path = labs.join(LAB.1).join(&wrong);
    let text = std::fs::read_to_string(&path).expect("the wrong answer");
    let expect = text.lines().next().expect("its expect line");
    let solution =
        std::fs::read_to_string(labs.join(LAB.1).join("solution.sql")).expect("the solution");
    std::fs::write(&path, format!("{expect}\n{solution}")).expect("write the wrong answer");

    let shown = content.display().to_string();
    let lab = LAB.0.to_string();
    let out = queuelab(
        &dir.path().join("data"),
        &["--lang", "en", "--content", &shown, "lab", "census", &lab],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let line = line_of(&stdout, &wrong);
    assert!(
        line.contains(" passed ") && line.ends_with(" UNEXPECTED"),
        "{line}"
    );
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.ends_with(" UNEXPECTED"))
            .count(),
        1,
        "{stdout}"
    );
    assert!(
        stderr.contains("1 file(s) did not fail or pass as they should"),
        "{stderr}"
    );
}

//! Broken content must fail `queuelab check` with a located, specific message. Each fixture in
//! `tests/fixtures/broken/*.toml` names a file of the real content, a text to replace in it, and
//! the line `check` must print.

use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Fixture {
    file: String,
    find: String,
    replace: String,
    expect: String,
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("readable").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

fn content_copy() -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("tempdir");
    for part in ["lessons", "quiz", "assets"] {
        copy_dir(&root.join(part), &dir.path().join(part));
    }
    dir
}

fn check(dir: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .args(["check", "--content"])
        .arg(dir)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn an_unchanged_copy_passes() {
    let dir = content_copy();
    let (code, out) = check(dir.path());
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn every_broken_fixture_fails_with_its_message() {
    let fixtures: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .collect();
    names.sort();
    assert!(
        names.len() >= 10,
        "the fixture folder holds the broken cases"
    );
    for path in names {
        let fixture: Fixture =
            toml::from_str(&std::fs::read_to_string(&path).expect("read")).expect("fixture parses");
        let dir = content_copy();
        let file = dir.path().join(&fixture.file);
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(
            fixture.find.is_empty() || text.contains(&fixture.find),
            "{}: find text not in {}",
            path.display(),
            fixture.file
        );
        if fixture.find.is_empty() && fixture.replace == "<delete>" {
            std::fs::remove_file(&file).expect("delete");
        } else {
            std::fs::write(&file, text.replacen(&fixture.find, &fixture.replace, 1))
                .expect("write");
        }
        let (code, out) = check(dir.path());
        assert_eq!(code, Some(1), "{}: must fail\n{out}", path.display());
        let expect = fixture
            .expect
            .replace("{root}", &dir.path().display().to_string());
        assert!(
            out.lines().any(|l| l == expect),
            "{}: expected line\n  {expect}\ngot:\n{out}",
            path.display()
        );
    }
}

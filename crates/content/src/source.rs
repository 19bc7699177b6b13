//! Where content comes from: the copy embedded at build time, or a folder on disk.

use include_dir::{Dir, include_dir};
use std::path::{Path, PathBuf};

static LESSONS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../lessons");
static QUIZ: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../quiz");
static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../assets");
static LABS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../labs");

/// The root holding `lessons/`, `quiz/`, `assets/` and `labs/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentSource {
    /// The copy compiled into the binary.
    Embedded,
    /// A folder given with `--content DIR`.
    Disk(PathBuf),
}

impl ContentSource {
    /// Reads a file by its path relative to the root (`lessons/de/decisions.toml`).
    /// `None` when it does not exist; an unreadable or non-UTF-8 file is an error message.
    pub fn read(&self, rel: &str) -> Result<Option<String>, String> {
        match self {
            ContentSource::Embedded => match embedded_file(rel) {
                None => Ok(None),
                Some(file) => file
                    .contents_utf8()
                    .map(|text| Some(text.to_owned()))
                    .ok_or_else(|| "file is not valid UTF-8".to_owned()),
            },
            ContentSource::Disk(root) => {
                let path = root.join(rel);
                match std::fs::read(&path) {
                    Ok(bytes) => String::from_utf8(bytes)
                        .map(Some)
                        .map_err(|_| "file is not valid UTF-8".to_owned()),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(format!("cannot read file: {e}")),
                }
            }
        }
    }

    /// Names of the files directly inside a folder (relative to the root), sorted.
    pub fn list(&self, rel_dir: &str) -> Vec<String> {
        self.names(rel_dir, Entry::File)
    }

    /// Names of the folders directly inside a folder (relative to the root), sorted.
    pub fn list_dirs(&self, rel_dir: &str) -> Vec<String> {
        self.names(rel_dir, Entry::Folder)
    }

    fn names(&self, rel_dir: &str, kind: Entry) -> Vec<String> {
        let name = |path: &std::path::Path| path.file_name()?.to_str().map(str::to_owned);
        let mut names: Vec<String> = match self {
            ContentSource::Embedded => embedded_dir(rel_dir)
                .map(|dir| match kind {
                    Entry::File => dir.files().filter_map(|f| name(f.path())).collect(),
                    Entry::Folder => dir.dirs().filter_map(|d| name(d.path())).collect(),
                })
                .unwrap_or_default(),
            ContentSource::Disk(root) => std::fs::read_dir(root.join(rel_dir))
                .map(|entries| {
                    entries
                        .filter_map(Result::ok)
                        .filter(|e| {
                            e.file_type().is_ok_and(|t| match kind {
                                Entry::File => t.is_file(),
                                Entry::Folder => t.is_dir(),
                            })
                        })
                        .filter_map(|e| name(&e.path()))
                        .collect()
                })
                .unwrap_or_default(),
        };
        names.sort();
        names
    }

    /// A short description for messages ("embedded content" or the folder).
    pub fn describe(&self) -> String {
        match self {
            ContentSource::Embedded => "embedded content".to_owned(),
            ContentSource::Disk(root) => root.display().to_string(),
        }
    }
}

/// Splits `lessons/de/x.md` into the embedded top folder and the rest.
fn split_top(rel: &str) -> Option<(&'static Dir<'static>, &str)> {
    let (top, rest) = rel.split_once('/')?;
    let dir = match top {
        "lessons" => &LESSONS,
        "quiz" => &QUIZ,
        "assets" => &ASSETS,
        "labs" => &LABS,
        _ => return None,
    };
    Some((dir, rest))
}

fn embedded_file(rel: &str) -> Option<&'static include_dir::File<'static>> {
    let (dir, rest) = split_top(rel)?;
    dir.get_file(Path::new(rest))
}

fn embedded_dir(rel: &str) -> Option<&'static Dir<'static>> {
    let rel = rel.trim_end_matches('/');
    match split_top(&format!("{rel}/")) {
        Some((dir, "")) => Some(dir),
        Some((dir, rest)) => dir.get_dir(Path::new(rest.trim_end_matches('/'))),
        None => None,
    }
}

/// What a listing asks for: the files or the folders directly inside a folder.
#[derive(Clone, Copy)]
enum Entry {
    File,
    Folder,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_lists_and_reads_the_format_readme() {
        let src = ContentSource::Embedded;
        assert!(src.list("lessons").contains(&"README.md".to_owned()));
        let text = src
            .read("lessons/README.md")
            .expect("readable")
            .expect("present");
        assert!(text.contains("format_version"));
        assert_eq!(src.read("lessons/nope.md"), Ok(None));
    }

    #[test]
    fn disk_reads_relative_paths() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("quiz/de")).expect("mkdir");
        std::fs::write(dir.path().join("quiz/de/quiz.toml"), "x = 1").expect("write");
        let src = ContentSource::Disk(dir.path().to_path_buf());
        assert_eq!(src.read("quiz/de/quiz.toml"), Ok(Some("x = 1".to_owned())));
        assert_eq!(src.list("quiz/de"), vec!["quiz.toml".to_owned()]);
        assert!(src.list("quiz/fr").is_empty());
    }
}

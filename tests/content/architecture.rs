//! Guards the boundaries that the book's architecture chapter (`docs/src/architecture.md`)
//! states and the compiler does not see. The layer order is the crates' (`crates/`): a crate can
//! only import the crates its manifest lists. What stays here: the pure layers' manifests list
//! no terminal, async runtime or mailer; the screens' crate and the model under it build
//! without SQLite; every UI string key used in the pure layers and the
//! views exists in both languages; what only Unix has is named in one platform module per crate;
//! and every file the chapter's "where to change what" table names exists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The crates that must stay free of the terminal, the async runtime and the mailer.
const PURE: [&str; 5] = ["content", "domain", "model", "sim", "app"];
const FORBIDDEN: [&str; 4] = ["ratatui", "crossterm", "tokio", "lettre"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The sources of a layer: a crate's `src` folder, or a module of this crate (`src/ui` and
/// `src/ui.rs`).
fn layer_files(dir: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let top = root().join(format!("{dir}.rs"));
    if top.exists() {
        files.push(top);
    }
    rust_files(&root().join(dir), &mut files);
    files
}

/// The dependencies a manifest names (normal, dev and build), by the name the code uses.
fn dependencies_of(manifest: &str) -> Vec<String> {
    let table: toml::Table = toml::from_str(manifest).expect("manifest is TOML");
    ["dependencies", "dev-dependencies", "build-dependencies"]
        .iter()
        .filter_map(|section| table.get(*section).and_then(toml::Value::as_table))
        .flat_map(|deps| deps.keys().cloned())
        .collect()
}

#[test]
fn pure_crates_list_no_terminal_runtime_or_mailer() {
    let mut offences = Vec::new();
    for name in PURE {
        let path = root().join("crates").join(name).join("Cargo.toml");
        let manifest = std::fs::read_to_string(&path).expect("readable manifest");
        for dependency in dependencies_of(&manifest) {
            if FORBIDDEN.contains(&dependency.as_str()) {
                offences.push(format!("{}: depends on {dependency}", path.display()));
            }
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
}

#[test]
fn the_boundary_check_can_fail() {
    // A manifest that would be an offence, read with the same rule, so the test above is not
    // vacuous.
    let manifest = "[package]\nname = \"x\"\n[dependencies]\ntokio = \"1\"\n";
    assert!(
        dependencies_of(manifest)
            .iter()
            .any(|d| FORBIDDEN.contains(&d.as_str()))
    );
}

/// The packages that are SQLite: a crate that builds one of them waits for SQLite's C.
const SQLITE: [&str; 2] = ["rusqlite", "libsqlite3-sys"];

/// The workspace's resolved dependency graph, as Cargo reports it from `Cargo.lock` (offline:
/// every package is on disk once the tests are built).
fn metadata() -> serde_json::Value {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--manifest-path",
        ])
        .arg(root().join("Cargo.toml"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// The names of the packages `cargo test -p package` compiles: the package's dependencies of
/// every kind (its tests included), then their normal and build dependencies (a dependency's
/// own dev-dependencies are never built).
fn built_for(metadata: &serde_json::Value, package: &str) -> BTreeSet<String> {
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
    let packages = metadata["packages"].as_array().expect("packages");
    let name_of = |id: &str| {
        packages
            .iter()
            .find(|p| p["id"] == id)
            .map(|p| text(&p["name"]))
            .unwrap_or_default()
    };
    let root = packages.iter().find(|p| p["name"] == package).map_or_else(
        || panic!("{package} is a workspace package"),
        |p| text(&p["id"]),
    );
    let nodes = metadata["resolve"]["nodes"].as_array().expect("resolve");
    let mut seen = BTreeSet::from([root.clone()]);
    let mut todo = vec![root.clone()];
    while let Some(id) = todo.pop() {
        let Some(node) = nodes.iter().find(|n| n["id"] == id.as_str()) else {
            continue;
        };
        for dep in node["deps"].as_array().into_iter().flatten() {
            let built = id == root
                || dep["dep_kinds"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|k| k["kind"] != "dev");
            let pkg = text(&dep["pkg"]);
            if built && seen.insert(pkg.clone()) {
                todo.push(pkg);
            }
        }
    }
    seen.iter().map(|id| name_of(id)).collect()
}

#[test]
fn the_screens_and_the_model_build_without_sqlite() {
    let metadata = metadata();
    for package in ["queuelab-app", "queuelab-model"] {
        let built = built_for(&metadata, package);
        assert!(
            built.contains("queuelab-content"),
            "{package}: the graph was read ({built:?})"
        );
        let sqlite: Vec<&str> = SQLITE.into_iter().filter(|p| built.contains(*p)).collect();
        assert!(
            sqlite.is_empty(),
            "{package} builds {sqlite:?}: it must take the simulator's data from queuelab-model, \
             never depend on queuelab-sim"
        );
    }
}

#[test]
fn the_sqlite_check_can_fail() {
    // The simulator and the root package do build SQLite, read with the same rule, so the test
    // above is not vacuous.
    let metadata = metadata();
    for package in ["queuelab-sim", "queuelab"] {
        let built = built_for(&metadata, package);
        assert!(
            SQLITE.iter().all(|p| built.contains(*p)),
            "{package}: {built:?}"
        );
    }
}

/// Names of what only Unix has. Outside the platform modules they may appear in tests only.
const UNIX_ONLY: [&str; 8] = [
    "std::os::unix",
    "std::os::fd",
    "tokio::signal::unix",
    "rustix::",
    "signal_hook",
    "nix::",
    "cfg(unix)",
    "cfg(not(unix))",
];

/// The platform modules: the one place per crate for what only Unix has.
fn is_platform_module(path: &Path) -> bool {
    let relative = path.strip_prefix(root()).unwrap_or(path);
    relative.starts_with("src/platform")
        || relative.starts_with("src/platform.rs")
        || relative
            .file_name()
            .is_some_and(|name| name == "platform.rs")
}

/// What a source file names of [`UNIX_ONLY`] before its tests (`#[cfg(test)]` on, or a test
/// module that is Unix-only itself).
fn unix_names_outside_tests(source: &str) -> Vec<&'static str> {
    let code = ["#[cfg(test)]", "#[cfg(all(test"]
        .iter()
        .filter_map(|marker| source.find(marker))
        .min()
        .map_or(source, |at| &source[..at]);
    UNIX_ONLY
        .into_iter()
        .filter(|name| names(code, name))
        .collect()
}

/// Whether `code` names `name` as a word of its own (`nix::` is not in `unix::`).
fn names(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn only_the_platform_modules_name_what_only_unix_has() {
    let mut files = layer_files("src");
    for name in std::fs::read_dir(root().join("crates"))
        .expect("crates")
        .flatten()
    {
        rust_files(&name.path().join("src"), &mut files);
    }
    let mut offences = Vec::new();
    for file in files.iter().filter(|f| !is_platform_module(f)) {
        let source = std::fs::read_to_string(file).expect("readable source");
        // The lowest crate's one message for a native Windows build is the one `cfg(not(unix))`
        // that belongs outside a platform module: it must come before everything else.
        let source = source.replace("#[cfg(not(unix))]\ncompile_error!(", "compile_error!(");
        for name in unix_names_outside_tests(&source) {
            offences.push(format!("{}: {name}", file.display()));
        }
    }
    assert!(
        offences.is_empty(),
        "move these into a platform module: {offences:#?}"
    );
}

#[test]
fn the_platform_check_can_fail() {
    // The shapes the check must see, and a test module it must leave alone.
    let offending = "use tokio::signal::unix::signal;\nfn f() {}\n";
    assert_eq!(unix_names_outside_tests(offending), ["tokio::signal::unix"]);
    let gated = "#[cfg(unix)]\nfn f() {}\n";
    assert_eq!(unix_names_outside_tests(gated), ["cfg(unix)"]);
    let in_tests =
        "fn f() {}\n#[cfg(test)]\nmod tests { use std::os::unix::fs::PermissionsExt; }\n";
    assert!(unix_names_outside_tests(in_tests).is_empty());
    assert!(!is_platform_module(
        &root().join("src/runtime/terminal_input.rs")
    ));
    assert!(is_platform_module(
        &root().join("src/platform/terminal_wait.rs")
    ));
}

/// The architecture chapter of the book; its "where to change what" table sits between these
/// markers.
const CHAPTER: &str = "docs/src/architecture.md";
const TABLE_BEGIN: &str = "<!-- where-to-change: begin -->";
const TABLE_END: &str = "<!-- where-to-change: end -->";

/// The repository paths a Markdown table names: every code span without spaces that contains a
/// `/` or ends in a file extension the repository uses.
fn named_paths(table: &str) -> Vec<String> {
    table
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| !span.contains(' '))
        .filter(|span| {
            span.contains('/')
                || [".rs", ".toml", ".md", ".sql"]
                    .iter()
                    .any(|ext| span.ends_with(ext))
        })
        .map(str::to_owned)
        .collect()
}

/// The paths of `table` that do not exist under `root`.
fn missing_paths(root: &Path, table: &str) -> Vec<String> {
    named_paths(table)
        .into_iter()
        .filter(|path| !root.join(path).exists())
        .collect()
}

#[test]
fn every_file_the_where_to_change_table_names_exists() {
    let chapter = std::fs::read_to_string(root().join(CHAPTER)).expect("the chapter is readable");
    let begin = chapter.find(TABLE_BEGIN).expect("the table's begin marker");
    let end = chapter.find(TABLE_END).expect("the table's end marker");
    let table = &chapter[begin..end];
    assert!(
        named_paths(table).len() >= 20,
        "the table names files: {:?}",
        named_paths(table)
    );
    let missing = missing_paths(root(), table);
    assert!(
        missing.is_empty(),
        "{CHAPTER} names files that do not exist (rename them there too): {missing:#?}"
    );
}

#[test]
fn the_where_to_change_check_can_fail() {
    // A renamed file, read with the same rule, so the test above is not vacuous; a command in a
    // code span is no path.
    let table = "| a screen | `crates/app/src/screen.rs`, `src/ui/gone.rs`, `cargo run -- check` |";
    assert_eq!(missing_paths(root(), table), ["src/ui/gone.rs"]);
}

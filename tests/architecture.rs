//! Guards the module boundaries of ARCHITECTURE.md by reading the sources: the pure layers
//! never import the terminal, the async runtime or the mailer, and every UI string key used in
//! the pure layers and the views exists in both languages.

use std::path::{Path, PathBuf};

const PURE: [&str; 4] = ["content", "domain", "sim", "app"];
const FORBIDDEN: [&str; 4] = ["ratatui", "crossterm", "tokio", "lettre"];

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

fn module_files(module: &str) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let top = src.join(format!("{module}.rs"));
    if top.exists() {
        files.push(top);
    }
    rust_files(&src.join(module), &mut files);
    files
}

#[test]
fn pure_layers_import_no_terminal_runtime_or_mailer() {
    let mut offences = Vec::new();
    for module in PURE {
        for file in module_files(module) {
            let text = std::fs::read_to_string(&file).expect("readable source");
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for crate_name in FORBIDDEN {
                    if code.contains(&format!("{crate_name}::")) {
                        offences.push(format!("{}:{}: uses {crate_name}", file.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
}

#[test]
fn the_boundary_check_can_fail() {
    // A line that would be an offence, checked with the same rule, so the test above is not
    // vacuous.
    let code = "use ratatui::Frame;";
    assert!(FORBIDDEN.iter().any(|c| code.contains(&format!("{c}::"))));
}

#[test]
fn every_string_key_used_by_the_ui_is_defined() {
    let keys = queuelab::content::STRING_KEYS;
    let namespaces: std::collections::BTreeSet<&str> =
        keys.iter().filter_map(|k| k.split('.').next()).collect();
    let mut missing = Vec::new();
    for module in ["app", "ui", "domain", "cli"] {
        for file in module_files(module) {
            let text = std::fs::read_to_string(&file).expect("readable source");
            for literal in text.split('"').skip(1).step_by(2) {
                let Some((ns, rest)) = literal.split_once('.') else {
                    continue;
                };
                let looks_like_key = namespaces.contains(ns)
                    && !rest.is_empty()
                    && rest
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit());
                if looks_like_key && !keys.contains(&literal) {
                    missing.push(format!("{}: {literal}", file.display()));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys used but not in content::strings::KEYS: {missing:#?}"
    );
}

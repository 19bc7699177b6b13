//! Guards the module boundaries of ARCHITECTURE.md by reading the sources: the pure layers
//! never import the terminal, the async runtime or the mailer, and every UI string key used in
//! the pure layers and the views exists in both languages.

use std::path::{Path, PathBuf};

const PURE: [&str; 4] = ["content", "domain", "sim", "app"];
const FORBIDDEN: [&str; 4] = ["ratatui", "crossterm", "tokio", "lettre"];
/// The layers from left to right: a module may import only from modules to its left.
const LAYERS: [&str; 8] = [
    "content", "domain", "sim", "app", "ui", "services", "runtime", "cli",
];

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

/// The layers right of `module` that a line of its code imports (`crate::ui` inside `app`).
fn imports_to_the_right(module: &str, code: &str) -> Vec<&'static str> {
    let Some(own) = LAYERS.iter().position(|l| *l == module) else {
        return Vec::new();
    };
    LAYERS[own + 1..]
        .iter()
        .copied()
        .filter(|right| {
            let path = format!("crate::{right}");
            let direct = code.match_indices(&path).any(|(at, _)| {
                let next = code[at + path.len()..].chars().next();
                // `crate::ui::x`, `crate::ui;`, `crate::ui}` — not `crate::uix`.
                !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            // `use crate::{app, ui::Theme};` names the layer inside the braces.
            let grouped = code.split("crate::{").skip(1).any(|group| {
                group
                    .split('}')
                    .next()
                    .unwrap_or("")
                    .split(',')
                    .any(|item| item.trim().split("::").next() == Some(*right))
            });
            direct || grouped
        })
        .collect()
}

#[test]
fn no_module_imports_a_layer_to_its_right() {
    let mut offences = Vec::new();
    for module in LAYERS {
        for file in module_files(module) {
            let text = std::fs::read_to_string(&file).expect("readable source");
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for right in imports_to_the_right(module, code) {
                    offences.push(format!(
                        "{}:{}: {module} uses {right}",
                        file.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
}

#[test]
fn the_layer_check_can_fail() {
    // Synthetic sources checked with the same rule, so the test above is not vacuous.
    assert_eq!(
        imports_to_the_right("app", "use crate::ui::theme::Theme;"),
        ["ui"]
    );
    assert_eq!(
        imports_to_the_right("sim", "let x = crate::runtime::sim_worker::spawn();"),
        ["runtime"]
    );
    assert_eq!(
        imports_to_the_right("domain", "use crate::{content::Course, app, cli::Cli};"),
        ["app", "cli"]
    );
    assert!(imports_to_the_right("ui", "use crate::app::App;").is_empty());
    assert!(imports_to_the_right("cli", "use crate::runtime::run;").is_empty());
}

#[test]
fn every_string_key_used_by_the_ui_is_defined() {
    let keys: Vec<&str> = queuelab::content::STRING_KEYS
        .iter()
        .chain(queuelab::content::SIM_STRING_KEYS)
        .chain(queuelab::content::WORKSHOP_STRING_KEYS)
        .chain(queuelab::content::LAB_STRING_KEYS)
        .copied()
        .collect();
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

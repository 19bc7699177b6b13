//! Seeded fuzzing of every parser of outside input and random key storms through the whole UI:
//! no panic, whatever comes in. `QUEUELAB_FUZZ_CASES` raises the number of cases per parser
//! (the default keeps `cargo test` quick; the book's Performance chapter records a 100,000 run).

mod storms;

use queuelab::content::parse_one;
use queuelab::services::Config;
use queuelab::services::store::parse_portable;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::Path;

fn cases() -> usize {
    std::env::var("QUEUELAB_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000)
}

const SNIPPETS: &[&str] = &[
    "\"",
    "'",
    "[[",
    "]]",
    "[",
    "]",
    "=",
    "==",
    "+++",
    "+++\n",
    "\n",
    "\r\n",
    ":::",
    "::: decision x\n",
    "::: widget flow\n",
    "\u{0}",
    "é",
    "🙂",
    "```",
    "```sql\n",
    "|",
    "| a | b |\n|---|\n",
    "<b>",
    "\t",
    "99999999999999999999999",
    "-1",
    "1e309",
    "format_version = 2",
    "id = \"\"",
    "correct = true",
    "{",
    "}",
    "null",
    "true",
    "# ",
    "## ",
    "- ",
    "1. ",
    "> ",
    "\\",
    "\u{202e}",
    "\u{feff}",
    "![x](y)",
    "~~",
    "**",
    "*",
];

/// Applies one to three random edits: delete, insert a tricky snippet, duplicate or swap lines,
/// truncate.
fn mutate(rng: &mut StdRng, text: &str) -> String {
    let mut out = text.to_owned();
    for _ in 0..rng.random_range(1..=3) {
        let boundaries: Vec<usize> = (0..=out.len())
            .filter(|i| out.is_char_boundary(*i))
            .collect();
        let pick = |rng: &mut StdRng| boundaries[rng.random_range(0..boundaries.len())];
        match rng.random_range(0..5) {
            0 => {
                let (a, b) = (pick(rng), pick(rng));
                let (lo, hi) = (a.min(b), a.max(b));
                let end = boundaries
                    .iter()
                    .copied()
                    .filter(|i| *i <= hi.min(lo + 40))
                    .max()
                    .unwrap_or(lo);
                out.replace_range(lo..end, "");
            }
            1 => {
                let at = pick(rng);
                out.insert_str(at, SNIPPETS[rng.random_range(0..SNIPPETS.len())]);
            }
            2 => {
                let lines: Vec<&str> = out.lines().collect();
                if !lines.is_empty() {
                    let i = rng.random_range(0..lines.len());
                    let mut copy: Vec<&str> = lines.clone();
                    copy.insert(i, lines[i]);
                    out = copy.join("\n");
                }
            }
            3 => {
                let mut lines: Vec<String> = out.lines().map(str::to_owned).collect();
                if lines.len() > 1 {
                    let (a, b) = (
                        rng.random_range(0..lines.len()),
                        rng.random_range(0..lines.len()),
                    );
                    lines.swap(a, b);
                    out = lines.join("\n");
                }
            }
            _ => {
                let at = pick(rng);
                out.truncate(at);
            }
        }
    }
    out
}

fn content_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "lessons/de/chapters",
        "lessons/en/chapters",
        "lessons/de",
        "lessons/en",
        "quiz/de",
        "quiz/en",
        "assets/strings",
        "assets/scenarios",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten().filter(|e| e.path().is_file()) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let extension = entry
                .path()
                .extension()
                .map(|e| e.to_string_lossy().to_lowercase());
            if matches!(extension.as_deref(), Some("md" | "toml")) {
                let text = std::fs::read_to_string(entry.path()).expect("readable content");
                files.push((format!("{dir}/{name}"), text));
            }
        }
    }
    files
}

/// Tells whether a content path belongs to one parser.
type Belongs = fn(&str) -> bool;

#[test]
fn content_parsers_never_panic_on_mutated_files() {
    let files = content_files();
    // Group by parser so each parser sees `cases()` inputs.
    let kinds: [(&str, Belongs); 7] = [
        ("chapter", |p| p.contains("/chapters/")),
        ("decisions", |p| p.ends_with("decisions.toml")),
        ("ordering", |p| p.ends_with("ordering.toml")),
        ("reference", |p| p.ends_with("reference.toml")),
        ("quiz", |p| p.starts_with("quiz/")),
        ("strings", |p| p.starts_with("assets/strings/")),
        ("scenario", |p| p.starts_with("assets/scenarios/")),
    ];
    let mut rng = StdRng::seed_from_u64(7);
    for (kind, belongs) in kinds {
        let group: Vec<&(String, String)> = files.iter().filter(|(p, _)| belongs(p)).collect();
        assert!(!group.is_empty(), "no {kind} files");
        let mut rejected = 0;
        for case in 0..cases() {
            let (path, text) = group[case % group.len()];
            let problems = parse_one(path, &mutate(&mut rng, text));
            rejected += usize::from(!problems.is_empty());
            for p in &problems {
                assert!(
                    p.line >= 1 && p.column >= 1 && !p.message.is_empty(),
                    "{kind}: {p}"
                );
            }
        }
        assert!(
            rejected > 0,
            "{kind}: mutations must be caught sometimes, or the parser checks nothing"
        );
    }
}

/// The lab file parser and the preparation under the guard: any mutation of the shipped lab
/// files is either accepted or refused at a real line and column, never a panic.
#[test]
fn lab_file_parser_never_panics_on_mutated_files() {
    use queuelab::sim::lab::{LabSql, Section};
    const OPEN: &[Section] = &[Section::Schema, Section::Check, Section::Handle];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("labs/01-idempotent-consumer");
    let bases: Vec<String> = ["start.sql", "solution.sql", "wrong/insert-or-ignore.sql"]
        .iter()
        .map(|f| std::fs::read_to_string(root.join(f)).expect("lab file"))
        .collect();
    let mut rng = StdRng::seed_from_u64(17);
    let mut rejected = 0;
    // Preparing runs SQLite on a scratch database: a tenth of the cases keeps the test quick.
    for case in 0..cases().div_ceil(10) {
        let text = mutate(&mut rng, &bases[case % bases.len()]);
        if let Err(e) = LabSql::prepare(&text, OPEN) {
            rejected += 1;
            let lines = text.lines().count().max(1);
            assert!(
                e.line >= 1 && e.line <= lines + 1 && e.column >= 1,
                "{e}\n{text}"
            );
        }
    }
    assert!(rejected > 0, "mutations must be caught sometimes");
}

#[test]
fn config_parser_never_panics() {
    let base = "[workshop]\nname = \"Lab\"\nlanguage = \"de\"\nmap_url = \"https://example.org/lab\"\ninstructor_cc = \"t@example.org\"\n\n[mail]\ntransport = \"smtp\"\nhost = \"127.0.0.1\"\nport = 2525\nsecurity = \"none\"\nfrom = \"lab@example.org\"\npassword_env = \"P\"\n\n[share]\nport = 8737\n";
    assert!(Config::parse("c.toml", base).is_ok());
    let mut rng = StdRng::seed_from_u64(11);
    for _ in 0..cases() {
        if let Err(e) = Config::parse("c.toml", &mutate(&mut rng, base)) {
            assert!(e.to_string().starts_with("c.toml"), "{e}");
        }
    }
}

#[test]
fn progress_import_parser_never_panics() {
    let base = r#"{"format": "queuelab-progress", "version": 1, "progress": {"chapters_read": ["outbox"], "decisions": {"lost-ack": "receipt"}, "checklist": {"stable-ids": true}, "positions": {"inbox": 4}, "last_chapter": "inbox", "language": "de"}}"#;
    assert!(parse_portable(base).is_ok());
    let mut rng = StdRng::seed_from_u64(13);
    for _ in 0..cases() {
        let _ = parse_portable(&mutate(&mut rng, base));
    }
}

/// Random text from a mix of ordinary, structural and hostile characters.
fn random_text(rng: &mut StdRng, max: usize) -> String {
    const POOL: &[&str] = &[
        "a", "Z", "0", "9", "@", ".", "-", "_", "+", " ", "\t", "\n", "\r", "\u{0}", "\u{7f}", "é",
        "ß", "🙂", "\u{202e}", "\"", "<", ">", "(", ")", ",", ";", ":", "\\", "[", "]", "example",
        "org", "xn--",
    ];
    let len = rng.random_range(0..=max);
    (0..len)
        .map(|_| POOL[rng.random_range(0..POOL.len())])
        .collect()
}

#[test]
fn address_validation_never_panics_and_accepts_only_sane_addresses() {
    use queuelab::domain::address::validate;
    let mut rng = StdRng::seed_from_u64(19);
    let mut accepted = 0;
    for _ in 0..cases() {
        let input = if rng.random_range(0..4) == 0 {
            mutate(&mut rng, "trainee.name+lab@mail.example.org")
        } else {
            random_text(&mut rng, 60)
        };
        if let Ok(address) = validate(&input) {
            accepted += 1;
            assert!(
                address.len() <= 254 && address.matches('@').count() == 1,
                "{address:?}"
            );
            assert!(
                !address.chars().any(|c| c.is_whitespace() || c.is_control()),
                "{address:?}"
            );
        }
    }
    assert!(accepted > 0, "some mutations keep a valid address");
}

#[test]
fn one_time_code_input_never_panics_and_never_accepts_a_wrong_code() {
    use queuelab::domain::otp::{CodeRecord, OtpHistory, Verdict, tag};
    let key = [7u8; 32];
    let address = "t@example.org";
    let nonce = vec![1, 2, 3, 4];
    let history = OtpHistory {
        codes: vec![CodeRecord {
            id: 1,
            nonce: nonce.clone(),
            tag: tag(&key, &nonce, address, "482913"),
            issued_at: 1_000,
            used_at: None,
        }],
        failures: Vec::new(),
    };
    assert_eq!(
        history.check(&key, address, "482913", 1_010),
        Verdict::Accepted { code_id: 1 }
    );
    let mut rng = StdRng::seed_from_u64(23);
    for _ in 0..cases() {
        let typed = if rng.random_range(0..2) == 0 {
            mutate(&mut rng, "482913")
        } else {
            random_text(&mut rng, 12)
        };
        let verdict = history.check(&key, address, &typed, 1_010);
        let digits: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
        if matches!(verdict, Verdict::Accepted { .. }) {
            assert_eq!(digits, "482913", "only the right code is accepted");
        }
    }
}

#[test]
fn quiz_answer_lines_never_panic() {
    use queuelab::domain::quiz::parse_choice;
    let mut rng = StdRng::seed_from_u64(29);
    for _ in 0..cases() {
        let line = if rng.random_range(0..2) == 0 {
            mutate(&mut rng, "1,3")
        } else {
            random_text(&mut rng, 10)
        };
        let count = rng.random_range(1..6);
        if let Ok(chosen) = parse_choice(&line, count, rng.random_range(0..2) == 0) {
            assert!(chosen.iter().all(|n| *n < count), "{line:?} -> {chosen:?}");
        }
    }
}

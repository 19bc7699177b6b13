//! The README and the book print how many scenarios ship and how many runs the scenario matrix
//! makes. Both numbers are counted from the content here, so adding a scenario cannot leave the
//! documentation behind.

use queuelab::sim::scenario::IDS;
use queuelab::sim::{BrokerKind, Mode};

/// Seeds the scenario matrix (`crates/sim/tests/sim/sim_scenarios.rs`) runs each cell on.
const MATRIX_SEEDS: usize = 20;

const NUMBER_WORDS: [&str; 21] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

/// The README and every page of the book, whitespace collapsed, one text per file.
fn documents() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("README.md")];
    collect_markdown(&root.join("docs/src"), &mut paths);
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            (path.display().to_string(), flat)
        })
        .collect()
}

fn collect_markdown(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect_markdown(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "md") {
            out.push(path);
        }
    }
}

/// Every number word (or numeral) the README puts right before "scenario"/"scenarios".
fn scenario_counts(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split(' ').collect();
    words
        .windows(2)
        .filter(|w| w[1].to_lowercase().starts_with("scenario"))
        .map(|w| w[0].to_lowercase())
        .filter(|w| NUMBER_WORDS.contains(&w.as_str()) || w.parse::<usize>().is_ok())
        .collect()
}

/// Every "N runs" with N written with thousands separators or plain digits.
fn run_counts(text: &str) -> Vec<usize> {
    let words: Vec<&str> = text.split(' ').collect();
    words
        .windows(2)
        .filter(|w| w[1].starts_with("runs"))
        .filter_map(|w| w[0].trim_start_matches('(').replace(',', "").parse().ok())
        .collect()
}

fn spelled(n: usize) -> String {
    NUMBER_WORDS
        .get(n)
        .map_or_else(|| n.to_string(), ToString::to_string)
}

#[test]
fn the_docs_count_the_shipped_scenarios() {
    let want = spelled(IDS.len());
    let mut named = 0;
    for (path, text) in documents() {
        for count in scenario_counts(&text) {
            named += 1;
            assert!(
                count == want || count == IDS.len().to_string(),
                "{path} says {count} scenarios; {} ship",
                IDS.len()
            );
        }
    }
    assert!(
        named > 0,
        "neither the README nor the book names a scenario count"
    );
}

#[test]
fn the_docs_count_the_matrix_runs() {
    let want = IDS.len() * Mode::ALL.len() * BrokerKind::ALL.len() * MATRIX_SEEDS;
    let mut named = 0;
    for (path, text) in documents() {
        for after in text.split("seeds 1–20").skip(1) {
            let window: String = after.chars().take(40).collect();
            if let Some(first) = run_counts(&window).first() {
                named += 1;
                assert_eq!(*first, want, "{path}: the scenario matrix's run count");
            }
        }
    }
    assert!(
        named > 0,
        "neither the README nor the book gives the matrix's run count"
    );
}

#[test]
fn the_counters_read_stale_numbers() {
    assert_eq!(
        scenario_counts("Fourteen scenarios (plus any)"),
        ["fourteen"]
    );
    assert_eq!(scenario_counts("the 14 scenario ids"), ["14"]);
    assert_eq!(run_counts("seeds 1–20 (1,680 runs on all cores)"), [1680]);
}

//! The README prints how many scenarios ship and how many runs the scenario matrix makes.
//! Both numbers are counted from the content here, so adding a scenario cannot leave the
//! README behind.

use queuelab::sim::scenario::IDS;
use queuelab::sim::{BrokerKind, Mode};

/// Seeds the scenario matrix (`tests/sim_scenarios.rs`) runs each cell on.
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

fn readme() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
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
fn the_readme_counts_the_shipped_scenarios() {
    let text = readme();
    let counts = scenario_counts(&text);
    assert!(!counts.is_empty(), "the README names no scenario count");
    let want = spelled(IDS.len());
    for count in counts {
        assert!(
            count == want || count == IDS.len().to_string(),
            "the README says {count} scenarios; {} ship",
            IDS.len()
        );
    }
}

#[test]
fn the_readme_counts_the_matrix_runs() {
    let want = IDS.len() * Mode::ALL.len() * BrokerKind::ALL.len() * MATRIX_SEEDS;
    let text = readme();
    let matrix = text
        .split("tests/sim_scenarios.rs")
        .nth(1)
        .expect("the README describes tests/sim_scenarios.rs");
    let counts = run_counts(matrix);
    let first = counts
        .first()
        .expect("the README gives the matrix's run count");
    assert_eq!(
        *first, want,
        "the README's run count for the scenario matrix"
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

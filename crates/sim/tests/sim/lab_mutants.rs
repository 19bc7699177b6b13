//! Each lab's reference solution, mutated: drop a `BEGIN`/`COMMIT` pair, swap two neighbouring
//! statements, drop a `UNIQUE` index, drop one conjunct of a `WHERE`. Every mutant must fail
//! the lab's default check (broken, or a file that cannot run), or be listed as equivalent with
//! its reason in the lab's `mutants.md` (a line starting with a dash and the mutant's id in backticks). A listed mutant that fails
//! is an error too: the list says only what is true. Run with `--nocapture` for the table.

use crate::support::lab as support;

use queuelab_sim::lab::CheckOutcome;
use queuelab_sim::lab::LabFile;
use queuelab_sim::lab::mutants::mutants;
use support::{check, failed_as};

/// The mutants the lab's folder lists as equivalent: (id, reason).
fn equivalents(lab_id: &str) -> Vec<(String, String)> {
    let path = format!(
        "{}/../../labs/{lab_id}/mutants.md",
        env!("CARGO_MANIFEST_DIR")
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("- `")?;
            let (id, reason) = rest.split_once("`:")?;
            Some((id.to_owned(), reason.trim().to_owned()))
        })
        .collect()
}

#[test]
fn every_mutant_of_each_reference_solution_fails_or_is_listed_as_equivalent() {
    let content = content::load(&content::ContentSource::Embedded).expect("content loads");
    let mut wrong = Vec::new();
    for lab in &content.labs {
        let file = LabFile::parse(&lab.solution).expect("the solution parses");
        let listed = equivalents(&lab.id);
        for m in mutants(&file) {
            let equivalent = listed.iter().find(|(id, _)| *id == m.id);
            let result = match check(lab, &m.text) {
                CheckOutcome::Broken(f) => format!(
                    "killed: {} (seed {} {} {})",
                    failed_as(&f),
                    f.seed,
                    f.scenario,
                    f.broker.as_str()
                ),
                CheckOutcome::CannotRun(e) => format!("killed: cannot run (line {})", e.line),
                CheckOutcome::Passed { .. } => "SURVIVED".to_owned(),
            };
            let survived = result == "SURVIVED";
            println!(
                "lab {} {:<32} {result}{}",
                lab.number,
                m.id,
                equivalent.map_or(String::new(), |(_, r)| format!(" [equivalent: {r}]"))
            );
            if survived != equivalent.is_some() {
                wrong.push(format!("lab {} {}: {result}", lab.number, m.id));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

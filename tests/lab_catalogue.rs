//! Every lab's catalogue, from the content: each wrong answer in `wrong/` fails with the moment
//! or lab invariant its first line names (`-- expect: NAME`), each correct variant in `right/`
//! and the reference solution pass the lab's whole default check (statement-level faults
//! included). One test per kind for all labs, so a new lab or file is covered without code.

#[path = "support/lab.rs"]
#[allow(dead_code)] // shared by the per-lab tests; this one uses a part
mod support;

use queuelab::sim::lab::CheckOutcome;
use support::{check, failed_as};

fn labs() -> Vec<queuelab::content::Lab> {
    queuelab::content::load(&queuelab::content::ContentSource::Embedded)
        .expect("content loads")
        .labs
        .to_vec()
}

#[test]
fn each_wrong_answer_fails_with_what_its_first_line_expects() {
    for lab in labs() {
        assert!(lab.wrong.len() >= 2, "{}: wrong answers", lab.id);
        for (name, text) in &lab.wrong {
            let expect = queuelab::content::expected_failure(text)
                .unwrap_or_else(|| panic!("{}/wrong/{name}: no `-- expect:` line", lab.id));
            match check(&lab, text) {
                CheckOutcome::Broken(f) => {
                    assert_eq!(failed_as(&f), expect, "{}/wrong/{name}", lab.id);
                    assert!(
                        f.checker_agrees,
                        "{}/wrong/{name}: {:?}",
                        lab.id, f.violations
                    );
                    assert!(
                        f.statement.is_some() || f.struck.is_some(),
                        "{}/wrong/{name}: the statement is named",
                        lab.id
                    );
                }
                CheckOutcome::Passed { runs, .. } => {
                    panic!("{}/wrong/{name} must fail, passed {runs} runs", lab.id)
                }
                CheckOutcome::CannotRun(e) => panic!("{}/wrong/{name} cannot run: {e}", lab.id),
            }
        }
    }
}

#[test]
fn each_correct_variant_passes_with_every_point_and_gap_struck() {
    for lab in labs() {
        let files = std::iter::once(("solution.sql".to_owned(), lab.solution.clone())).chain(
            lab.right
                .iter()
                .map(|(n, t)| (format!("right/{n}"), t.clone())),
        );
        for (name, text) in files {
            match check(&lab, &text) {
                CheckOutcome::Passed { coverage, .. } => {
                    assert!(coverage.points > 0, "{}/{name}: some crash point", lab.id);
                    assert_eq!(coverage.points_hit, coverage.points, "{}/{name}", lab.id);
                    assert_eq!(coverage.gaps_hit, coverage.gaps, "{}/{name}", lab.id);
                }
                CheckOutcome::Broken(f) => panic!(
                    "{}/{name} broke: {} {} seed {}: {:?} {:?} {:?}",
                    lab.id,
                    f.scenario,
                    f.broker.as_str(),
                    f.seed,
                    f.moment.map(|m| m.kind),
                    f.breach.map(|b| b.invariant),
                    f.struck
                ),
                CheckOutcome::CannotRun(e) => panic!("{}/{name} cannot run: {e}", lab.id),
            }
        }
    }
}

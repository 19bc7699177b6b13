//! Every lab, from the content: it ships complete in both languages, its starting file fails
//! where its `lab.toml` says (`start_fails`), each wrong answer in `wrong/` fails with the moment
//! or lab invariant its first line names (`-- expect: NAME`), each correct variant in `right/`
//! and the reference solution pass the lab's whole default check (statement-level faults
//! included) in as many runs as its seeds, scenarios and brokers make. One test per kind for all
//! labs, so a new lab or file is covered without code; a lab's own test file keeps only what is
//! particular to that lab.

use crate::support::lab as support;

use queuelab_sim::lab::CheckOutcome;
use queuelab_sim::{BrokerKind, scenario};
use support::{check, failed_as, start_failure};

fn labs() -> Vec<content::Lab> {
    content::load(&content::ContentSource::Embedded)
        .expect("content loads")
        .labs
        .to_vec()
}

#[test]
fn each_lab_ships_complete_in_both_languages() {
    let labs = labs();
    assert!(!labs.is_empty(), "the content ships labs");
    for lab in &labs {
        for id in &lab.scenarios {
            if let Err(e) = scenario::find(id) {
                panic!("{}: scenario {id}: {e}", lab.id);
            }
        }
        for broker in &lab.brokers {
            assert!(BrokerKind::parse(broker).is_some(), "{}: {broker}", lab.id);
        }
        assert!(lab.seeds > 0, "{}: seeds", lab.id);
        support::assert_brief_documents_the_sections(lab, &labs);
    }
}

#[test]
fn each_starting_file_fails_where_its_lab_toml_says() {
    for lab in labs() {
        let f = start_failure(&lab);
        let expect = &lab.start_fails;
        assert_eq!(failed_as(&f), expect.moment, "{}/start.sql", lab.id);
        assert_eq!(
            (f.scenario.as_str(), f.broker.as_str(), f.seed),
            (
                expect.scenario.as_str(),
                expect.broker.as_str(),
                expect.seed
            ),
            "{}/start.sql",
            lab.id
        );
        assert!(f.checker_agrees, "{}/start.sql: {:?}", lab.id, f.violations);
        assert!(
            f.statement.is_some() || f.struck.is_some(),
            "{}/start.sql: the statement is named",
            lab.id
        );
    }
}

#[test]
fn each_wrong_answer_fails_with_what_its_first_line_expects() {
    for lab in labs() {
        assert!(lab.wrong.len() >= 2, "{}: wrong answers", lab.id);
        for (name, text) in &lab.wrong {
            let expect = content::expected_failure(text)
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
                CheckOutcome::Passed { runs, coverage } => {
                    let cells = lab.scenarios.len() * lab.brokers.len();
                    assert_eq!(runs, lab.seeds * cells as u64, "{}/{name}: runs", lab.id);
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

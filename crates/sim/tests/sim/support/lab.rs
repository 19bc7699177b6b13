//! Checking a shipped lab the way `queuelab lab check` does, for the lab tests:
//! load the lab from the embedded content, prepare a file for its sections, and run it over a
//! range of seeds on the lab's scenarios and brokers.

use std::sync::Arc;

use content::Lab;
use queuelab_sim::lab::{CheckFailure, CheckOutcome, CheckRequest, LabSql, run_check};
use queuelab_sim::{BrokerKind, scenario};

/// Lab `n` as shipped.
pub fn lab(n: u32) -> Lab {
    let content = content::load(&content::ContentSource::Embedded).expect("content loads");
    content
        .labs
        .iter()
        .find(|l| l.number == n)
        .cloned()
        .unwrap_or_else(|| panic!("lab {n} ships"))
}

/// Checks `text` for `lab` on `scenarios` × `brokers` over `seeds`.
pub fn check_on(
    lab: &Lab,
    text: &str,
    scenarios: &[&str],
    brokers: &[BrokerKind],
    seeds: (u64, u64),
) -> CheckOutcome {
    let sql = match LabSql::prepare(text, &lab.sections) {
        Ok(sql) => Arc::new(sql),
        Err(e) => return CheckOutcome::CannotRun(e),
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let request = CheckRequest {
        sql,
        scenarios: scenarios
            .iter()
            .map(|id| scenario::find(id).expect("scenario"))
            .collect(),
        brokers: brokers.to_vec(),
        seeds,
        charged: lab.charged,
        poison: lab.poison,
        work_dir: dir.path(),
    };
    run_check(&request).expect("check runs")
}

/// Checks `text` the way the lab's own check does (its scenarios, brokers, seeds 1..=K).
pub fn check(lab: &Lab, text: &str) -> CheckOutcome {
    let scenarios: Vec<&str> = lab.scenarios.iter().map(String::as_str).collect();
    let brokers: Vec<BrokerKind> = lab
        .brokers
        .iter()
        .map(|b| BrokerKind::parse(b).expect("broker"))
        .collect();
    check_on(lab, text, &scenarios, &brokers, (1, lab.seeds))
}

/// What failed: the moment's kind or the lab invariant's name.
pub fn failed_as(f: &CheckFailure) -> String {
    match (&f.moment, &f.breach) {
        (Some(m), _) => m.kind.as_str().to_owned(),
        (None, Some(b)) => b.invariant.as_str().to_owned(),
        (None, None) => "?".to_owned(),
    }
}

/// The failure of a file that must break.
pub fn broken(name: &str, outcome: CheckOutcome) -> Box<CheckFailure> {
    match outcome {
        CheckOutcome::Broken(f) => f,
        CheckOutcome::Passed { runs, .. } => panic!("{name} must fail, passed {runs} runs"),
        CheckOutcome::CannotRun(e) => panic!("{name} cannot run: {e}"),
    }
}

/// The starting file on its named seed, scenario and broker.
pub fn start_failure(lab: &Lab) -> Box<CheckFailure> {
    let expect = &lab.start_fails;
    let broker = BrokerKind::parse(&expect.broker).expect("broker");
    let outcome = check_on(
        lab,
        &lab.start,
        &[expect.scenario.as_str()],
        &[broker],
        (expect.seed, expect.seed),
    );
    broken("start.sql", outcome)
}

/// The brief of every language documents each parameter and returned column of the open
/// sections, and each of their functions the learner has met by this lab: one that a file of
/// this lab or an earlier one calls (the lists in `Section` are the one source). It has every
/// hint level, and the lab at least two plausible wrong answers.
pub fn assert_brief_documents_the_sections(lab: &Lab, labs: &[Lab]) {
    let files_so_far: Vec<&str> = labs
        .iter()
        .filter(|l| l.number <= lab.number)
        .flat_map(files)
        .collect();
    for lang in content::Lang::ALL {
        let brief = &lab.brief[&lang];
        let documents = |name: &str| brief.contains(&format!("`{name}`"));
        for section in &lab.sections {
            for name in section.parameters() {
                assert!(documents(name), "{}: {lang}: {name}", lab.id);
            }
            for column in section.returned_columns() {
                assert!(documents(column), "{}: {lang}: {column}", lab.id);
            }
            for call in section.functions() {
                let name = call.split('(').next().unwrap_or(call);
                let met = files_so_far.iter().any(|f| f.contains(&format!("{name}(")));
                assert!(!met || documents(call), "{}: {lang}: {call}", lab.id);
            }
        }
        assert_eq!(
            lab.hints[&lang].len(),
            content::LAB_HINT_LEVELS,
            "{}: {lang}",
            lab.id
        );
    }
    assert!(
        lab.wrong.len() >= 2,
        "{}: at least two plausible wrong answers",
        lab.id
    );
}

/// The SQL files `lab` ships: the starting file, the solution, every `right/` and `wrong/` one.
fn files(lab: &Lab) -> impl Iterator<Item = &str> {
    [lab.start.as_str(), lab.solution.as_str()]
        .into_iter()
        .chain(lab.right.iter().map(|(_, text)| text.as_str()))
        .chain(lab.wrong.iter().map(|(_, text)| text.as_str()))
}

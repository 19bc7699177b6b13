//! A shipped lab and the failing run of its starting file, for the tests that open that run in
//! the simulator's screen.

use std::sync::Arc;

use queuelab::content::Lab;
use queuelab::sim::lab::{CheckFailure, CheckOutcome, CheckRequest, LabSql, run_check};
use queuelab::sim::{BrokerKind, scenario};

/// Lab `n` as shipped.
pub fn lab(n: u32) -> Lab {
    let content = queuelab::content::load(&queuelab::content::ContentSource::Embedded)
        .expect("content loads");
    content
        .labs
        .iter()
        .find(|l| l.number == n)
        .cloned()
        .unwrap_or_else(|| panic!("lab {n} ships"))
}

/// The starting file's failure on the seed, scenario and broker its `lab.toml` names.
pub fn start_failure(lab: &Lab) -> Box<CheckFailure> {
    let expect = &lab.start_fails;
    let sql = Arc::new(LabSql::prepare(&lab.start, &lab.sections).expect("start.sql prepares"));
    let dir = tempfile::tempdir().expect("tempdir");
    let request = CheckRequest {
        sql,
        scenarios: vec![scenario::find(&expect.scenario).expect("scenario")],
        brokers: vec![BrokerKind::parse(&expect.broker).expect("broker")],
        seeds: (expect.seed, expect.seed),
        charged: lab.charged,
        poison: lab.poison,
        work_dir: dir.path(),
    };
    match run_check(&request).expect("check runs") {
        CheckOutcome::Broken(f) => f,
        CheckOutcome::Passed { runs, .. } => panic!("start.sql must fail, passed {runs} runs"),
        CheckOutcome::CannotRun(e) => panic!("start.sql cannot run: {e}"),
    }
}

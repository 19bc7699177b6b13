//! Lab 1's particulars, checked for real: its starting file fails at the effects insert with
//! the cause before the harm and leaves its failing run's files, and files that cannot run are
//! located at their line and column. What every lab must do (ship complete, fail where
//! `lab.toml` says, pass with the solution and each `right/` file, fail with each `wrong/` file)
//! is `lab_catalogue.rs`.

use std::sync::Arc;

use queuelab_sim::lab::{CheckOutcome, CheckRequest, LabFileErrorKind, LabSql, Section, run_check};
use queuelab_sim::{BrokerKind, MomentKind, scenario};

const OPEN: &[Section] = &[Section::Schema, Section::Check, Section::Handle];
const SCENARIOS: &[&str] = &["lost-ack", "twin-consumers", "duplicate-publish", "chaos"];

fn check(text: &str, seeds: u64) -> CheckOutcome {
    let sql = match LabSql::prepare(text, OPEN) {
        Ok(sql) => Arc::new(sql),
        Err(e) => return CheckOutcome::CannotRun(e),
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let request = CheckRequest {
        sql,
        scenarios: SCENARIOS
            .iter()
            .map(|id| scenario::find(id).expect("scenario"))
            .collect(),
        brokers: vec![BrokerKind::Asb, BrokerKind::Sqs],
        seeds: (1, seeds),
        charged: false,
        poison: false,
        work_dir: dir.path(),
    };
    run_check(&request).expect("check runs")
}

fn lab() -> content::Lab {
    let content = content::load(&content::ContentSource::Embedded).expect("content loads");
    content
        .labs
        .iter()
        .find(|l| l.number == 1)
        .cloned()
        .expect("lab 1 ships")
}

#[test]
fn the_starting_file_fails_on_its_named_seed_with_the_expected_moment() {
    let lab = lab();
    let expect = &lab.start_fails;
    let sql = Arc::new(LabSql::prepare(&lab.start, OPEN).expect("prepares"));
    let dir = tempfile::tempdir().expect("tempdir");
    let request = CheckRequest {
        sql,
        scenarios: vec![scenario::find(&expect.scenario).expect("scenario")],
        brokers: vec![BrokerKind::parse(&expect.broker).expect("broker")],
        seeds: (expect.seed, expect.seed),
        charged: false,
        poison: false,
        work_dir: dir.path(),
    };
    let CheckOutcome::Broken(f) = run_check(&request).expect("runs") else {
        panic!("the starting file must fail");
    };
    let moment = f.moment.expect("a moment names the failure");
    assert_eq!(moment.kind.as_str(), expect.moment);
    assert_eq!(moment.kind, MomentKind::DuplicateEffect);
    assert!(moment.cause_event < moment.event);
    assert!(f.checker_agrees, "{:?}", f.violations);
    // The statement that wrote the second credit: the effects insert, line 8 of start.sql.
    let statement = f.statement.expect("the learner's statement is named");
    assert_eq!((statement.line, statement.column), (8, 1));
    assert_eq!(statement.section, Section::Handle);
    assert!(
        f.dir.join("service.db").exists(),
        "the failing run's files stay"
    );
}

fn cannot_run(text: &str) -> queuelab_sim::lab::LabFileError {
    match check(text, 1) {
        CheckOutcome::CannotRun(e) => e,
        CheckOutcome::Broken(f) => panic!("expected cannot run, broke on {}", f.scenario),
        CheckOutcome::Passed { .. } => panic!("expected cannot run, passed"),
    }
}

#[test]
fn files_that_cannot_run_are_located_at_line_and_column() {
    let lab = lab();
    let syntax = lab.solution.replace("COMMIT;", "COMIT;");
    let e = cannot_run(&syntax);
    assert!(matches!(e.kind, LabFileErrorKind::Sql(_)), "{e}");
    assert_eq!((e.line, e.column), (18, 1), "{e}");
    let param = lab.solution.replace(":now_ms, :now_ms", ":now, :now_ms");
    let e = cannot_run(&param);
    assert!(
        matches!(e.kind, LabFileErrorKind::UnknownParameter { .. }),
        "{e}"
    );
    assert_eq!((e.line, e.column), (12, 44), "{e}");
    let attach = lab
        .solution
        .replace("-- @check\n", "-- @check\nATTACH 'other.db' AS other;\n");
    let e = cannot_run(&attach);
    assert_eq!(e.kind, LabFileErrorKind::Forbidden("ATTACH".into()));
    assert_eq!((e.line, e.column), (5, 1));
    // A runaway is only found when it runs: at the first delivery, not while preparing.
    let runaway = lab.solution.replace(
        "-- @check\n",
        "-- @check\nWITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n;\n",
    );
    let e = cannot_run(&runaway);
    assert_eq!(
        (e.line, e.column, e.kind),
        (5, 1, LabFileErrorKind::TooLong)
    );
    let open = lab.solution.replace("COMMIT;", "");
    let e = cannot_run(&open);
    assert_eq!(e.kind, LabFileErrorKind::OpenTransaction);
    assert_eq!(e.line, 8);
}

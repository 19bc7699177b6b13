//! The simulator thread's driver against real runs on disk.

use super::*;
use sim::{BrokerKind, Mode};

fn spec() -> RunSpec {
    RunSpec {
        scenario: "happy-path".into(),
        mode: Mode::Safe,
        broker: BrokerKind::Asb,
        seed: 1,
        lab: None,
    }
}

#[test]
fn a_new_run_replaces_the_old_one_and_its_files() {
    let base = tempfile::tempdir().expect("tempdir");
    let content = Arc::new(content::load(&content::ContentSource::Embedded).expect("content"));
    let mut driver = SimDriver::without_stamp(base.path(), content);
    let [SimReply::Started { dir: first, .. }] = &driver.handle(SimCommand::Start {
        run: 1,
        spec: spec(),
    })[..] else {
        panic!("started")
    };
    let first = first.clone();
    assert!(Path::new(&first).join("service.db").exists());
    let replies = driver.handle(SimCommand::Step { run: 1, count: 3 });
    assert!(matches!(
        &replies[..],
        [SimReply::Advanced { total: 3, .. }]
    ));
    driver.handle(SimCommand::Start {
        run: 2,
        spec: spec(),
    });
    assert!(
        !Path::new(&first).exists(),
        "the replaced run's files are gone"
    );
    let stale = driver.handle(SimCommand::Step { run: 1, count: 1 });
    assert!(matches!(&stale[..], [SimReply::Failed { run: 1, .. }]));
    let back = driver.handle(SimCommand::View { run: 2, index: 5 });
    assert!(
        matches!(&back[..], [SimReply::Failed { run: 2, .. }]),
        "not yet happened"
    );
    assert!(driver.handle(SimCommand::Stop).is_empty());
}

/// A lab's broken run as the lab screen opens it: the starting file of lab 1 at the seed,
/// scenario and broker its lab.toml says it fails on.
fn broken_lab_run(content: &content::Content) -> RunSpec {
    broken_run_of(content, 1)
}

/// The starting file of lab `number` at the seed, scenario and broker it fails on.
fn broken_run_of(content: &content::Content, number: u32) -> RunSpec {
    let lab = content
        .labs
        .iter()
        .find(|l| l.number == number)
        .expect("the lab");
    let fails = &lab.start_fails;
    RunSpec {
        scenario: fails.scenario.clone(),
        mode: Mode::Naive,
        broker: BrokerKind::parse(&fails.broker).expect("a broker"),
        seed: fails.seed,
        lab: Some(app::simulator::LabRun::new(
            lab.id.clone(),
            lab.number,
            lab.start.clone(),
        )),
    }
}

#[test]
fn a_labs_broken_run_plays_the_learners_file_to_the_moment_the_check_named() {
    let base = tempfile::tempdir().expect("tempdir");
    let content = Arc::new(content::load(&content::ContentSource::Embedded).expect("content"));
    let spec = broken_lab_run(&content);
    let moment = content.labs[0].start_fails.moment.clone();
    let mut driver = SimDriver::without_stamp(base.path(), Arc::clone(&content));
    let replies = driver.handle(SimCommand::Start { run: 1, spec });
    let [SimReply::Started { dir, .. }] = &replies[..] else {
        panic!("started: {replies:?}")
    };
    assert!(dir.contains("-lab-"), "named by its lab, not a mode: {dir}");
    let replies = driver.handle(SimCommand::ToEnd { run: 1 });
    let [
        SimReply::Advanced {
            moments,
            events,
            report: Some(report),
            ..
        },
    ] = &replies[..]
    else {
        panic!("advanced to the end: {replies:?}")
    };
    assert!(
        !report.invariants.ok(),
        "the file breaks it, as the check said"
    );
    // The captions say what the learner's file did, not what the engine's own SQL would.
    let captions: Vec<&str> = events.iter().map(|e| e.caption).collect();
    assert!(captions.contains(&"sim.lab.applied"), "{captions:?}");
    assert!(captions.contains(&"sim.lab.check-none"), "{captions:?}");
    for engines_own in ["sim.applied", "sim.check-none-safe"] {
        assert!(!captions.contains(&engines_own), "{captions:?}");
    }
    assert!(
        moments.iter().any(|m| m.kind.as_str() == moment),
        "{moment} among {moments:?}"
    );
    // The same scenario, broker and seed in the engine's own safe mode keeps the invariants:
    // what broke is the learner's file (the mode is not what plays).
    let mut plain = broken_lab_run(&content);
    plain.lab = None;
    plain.mode = Mode::Safe;
    driver.handle(SimCommand::Start {
        run: 2,
        spec: plain,
    });
    let replies = driver.handle(SimCommand::ToEnd { run: 2 });
    let [
        SimReply::Advanced {
            report: Some(report),
            ..
        },
    ] = &replies[..]
    else {
        panic!("advanced to the end: {replies:?}")
    };
    assert!(report.invariants.ok());
}

#[test]
fn a_lab_file_that_does_not_prepare_is_a_failed_start_not_a_panic() {
    let base = tempfile::tempdir().expect("tempdir");
    let content = Arc::new(content::load(&content::ContentSource::Embedded).expect("content"));
    let mut spec = broken_lab_run(&content);
    if let Some(lab) = spec.lab.as_mut() {
        *lab = app::simulator::LabRun::new(
            lab.lab_id.clone(),
            lab.number,
            "-- @handle\nINSERT INTO nowhere VALUES (;\n".into(),
        );
    }
    let mut driver = SimDriver::without_stamp(base.path(), content);
    let replies = driver.handle(SimCommand::Start { run: 1, spec });
    let [SimReply::Failed { reason, .. }] = &replies[..] else {
        panic!("refused: {replies:?}")
    };
    assert!(reason.contains("lab file"), "{reason}");
}

#[test]
fn a_lab_claim_is_captioned_as_the_learners_not_as_the_engines_lease() {
    let base = tempfile::tempdir().expect("tempdir");
    let content = Arc::new(content::load(&content::ContentSource::Embedded).expect("content"));
    let spec = broken_run_of(&content, 3);
    let mut driver = SimDriver::without_stamp(base.path(), content);
    driver.handle(SimCommand::Start { run: 1, spec });
    let replies = driver.handle(SimCommand::Step { run: 1, count: 40 });
    let [SimReply::Advanced { events, .. }] = &replies[..] else {
        panic!("advanced: {replies:?}")
    };
    let captions: Vec<&str> = events.iter().map(|e| e.caption).collect();
    assert!(
        captions.contains(&"sim.lab.dispatcher-claimed"),
        "{captions:?}"
    );
    assert!(
        !captions.contains(&"sim.dispatcher-claimed"),
        "{captions:?}"
    );
}

/// A failing run of a targeted check plays its fault again: lab 4's claim that never expires
/// breaks only when its consumer crashes right after committing the claim, and the replay then
/// shows the redeliveries waiting on that claim.
#[test]
fn a_labs_targeted_failing_run_plays_its_fault_again() {
    let base = tempfile::tempdir().expect("tempdir");
    let content = Arc::new(content::load(&content::ContentSource::Embedded).expect("content"));
    let lab = content.labs.iter().find(|l| l.number == 4).expect("lab 4");
    let (_, text) = (lab.wrong.iter())
        .find(|(n, _)| n == "claim-never-expires.sql")
        .expect("the wrong answer ships");
    let file = sim::lab::LabFile::parse(text).expect("parses");
    let handle = file
        .sections
        .iter()
        .find(|s| s.section == sim::lab::Section::Handle)
        .expect("@handle");
    let commit = (handle.statements.iter())
        .position(|s| s.sql.trim().eq_ignore_ascii_case("COMMIT"))
        .expect("the claim's commit");
    let crash = sim::lab::probe::Probe::Crash {
        site: sim::lab::probe::Site {
            section: sim::lab::Section::Handle,
            index: commit,
        },
        client_retry: false,
    };
    let mut captions = Vec::new();
    for (run, probe) in [(1, None), (2, Some(crash))] {
        let spec = RunSpec {
            scenario: "lost-ack".into(),
            mode: Mode::Safe,
            broker: BrokerKind::Asb,
            seed: 1,
            lab: Some(
                app::simulator::LabRun::new(lab.id.clone(), lab.number, text.clone())
                    .with_probe(probe),
            ),
        };
        let mut driver = SimDriver::without_stamp(base.path(), Arc::clone(&content));
        driver.handle(SimCommand::Start { run, spec });
        let replies = driver.handle(SimCommand::ToEnd { run });
        let [SimReply::Advanced { events, .. }] = &replies[..] else {
            panic!("advanced: {replies:?}")
        };
        let waited = events
            .iter()
            .any(|e| e.caption == "sim.lab.claim-in-progress");
        captions.push(waited);
    }
    assert_eq!(
        captions,
        [false, true],
        "only the crash leaves a claim to wait on"
    );
}

#[test]
fn a_labs_broken_run_opens_at_the_learners_statement_the_report_names() {
    let base = tempfile::tempdir().expect("tempdir");
    let content = Arc::new(content::load(&content::ContentSource::Embedded).expect("content"));
    let lab = content
        .labs
        .iter()
        .find(|l| l.number == 3)
        .expect("lab 3")
        .clone();
    let runs = tempfile::tempdir().expect("tempdir");
    let verdict = sim::lab::check_lab(&content, &lab, &lab.start, 1, runs.path(), &mut |_| {})
        .expect("the check runs");
    let sim::lab::LabVerdict::Broken(failure) = verdict else {
        panic!("the starting file breaks: {verdict:?}")
    };
    let statement = failure
        .statement
        .clone()
        .expect("the report names a statement");
    let spec = RunSpec {
        scenario: failure.scenario.clone(),
        mode: Mode::Safe,
        broker: failure.broker,
        seed: failure.seed,
        lab: Some(app::simulator::LabRun::new(
            lab.id.clone(),
            lab.number,
            lab.start.clone(),
        )),
    };
    let mut driver = SimDriver::without_stamp(base.path(), Arc::clone(&content));
    driver.handle(SimCommand::Start { run: 1, spec });
    let replies = driver.handle(SimCommand::StepToStatement {
        run: 1,
        at_ms: statement.at_ms,
        section: statement.section,
    });
    let [SimReply::Advanced { events, .. }] = &replies[..] else {
        panic!("advanced: {replies:?}")
    };
    let last = events.last().expect("events ran");
    assert_eq!(last.at_ms, statement.at_ms, "{last:?}");
    let header = format!("-- @{}", statement.section.as_str());
    assert!(
        last.sql.first().is_some_and(|l| l.starts_with(&header)),
        "the learner's {header} is the event shown: {last:?}"
    );
    assert!(events.iter().all(|e| e.at_ms <= statement.at_ms));
}

//! `queuelab lab census N`: every file a lab ships checked as a learner's file would be (its
//! default seeds, scenarios and brokers, the statement-level faults included), one line each:
//! file, result, the first broken seed with its scenario and broker, the moment or invariant it
//! stopped at, and what the file should do. The catalogue of wrong answers and correct
//! variants is held to this in the tests; the command shows the same table to an author.

use super::Failure;
use super::lines::Session;
use content::key;
use content::{Lab, expected_failure};
use sim::lab::{LabVerdict, check_lab};

/// What a shipped file must do.
enum Should {
    /// Pass every run (the reference solution, a correct variant).
    Pass,
    /// Fail with this moment or invariant (a wrong answer, the starting file).
    FailWith(String),
}

/// The files of `lab` with what each must do.
fn files(lab: &Lab) -> Vec<(String, String, Should)> {
    let mut out = vec![
        (
            "start.sql".to_owned(),
            lab.start.clone(),
            Should::FailWith(lab.start_fails.moment.clone()),
        ),
        (
            "solution.sql".to_owned(),
            lab.solution.clone(),
            Should::Pass,
        ),
    ];
    for (name, text) in &lab.right {
        out.push((format!("right/{name}"), text.clone(), Should::Pass));
    }
    for (name, text) in &lab.wrong {
        let expect = expected_failure(text).unwrap_or("?").to_owned();
        out.push((
            format!("wrong/{name}"),
            text.clone(),
            Should::FailWith(expect),
        ));
    }
    out
}

/// Prints the census of `lab`; fails when a file does not do what it should.
pub fn census(session: &Session, lab: &Lab) -> Result<(), Failure> {
    let strings = &session.content.course(session.lang).strings;
    // Beside the learner's own runs: a census never replaces the learner's failing run.
    let work = session.paths.data_dir.join("lab-census").join(&lab.id);
    super::out::line(strings.get(key::lab::CENSUS_HEADER))?;
    let mut surprises = 0;
    for (name, text, should) in files(lab) {
        let verdict = check_lab(&session.content, lab, &text, lab.seeds, &work, &mut |_| {})
            .map_err(Failure::new)?;
        let (result, seed, reason) = match &verdict {
            LabVerdict::Passed { .. } => ("passed", "-".to_owned(), "-".to_owned()),
            LabVerdict::CannotRun(e) => ("cannot-run", "-".to_owned(), format!("line {}", e.line)),
            LabVerdict::Broken(f) => (
                "broken",
                format!("{} {} {}", f.seed, f.scenario, f.broker.as_str()),
                verdict.reason(),
            ),
        };
        let (wanted, as_it_should) = match &should {
            Should::Pass => ("pass".to_owned(), verdict.passed()),
            Should::FailWith(x) => (
                x.clone(),
                matches!(verdict, LabVerdict::Broken(_)) && reason == *x,
            ),
        };
        if !as_it_should {
            surprises += 1;
        }
        let mark = if as_it_should { "ok" } else { "UNEXPECTED" };
        super::out::line(format!(
            "{name:<48} {result:<10} {seed:<28} {reason:<26} {wanted:<26} {mark}"
        ))?;
    }
    if surprises > 0 {
        return Err(Failure::new(strings.fill(
            key::lab::CENSUS_SURPRISES,
            &[("n", &surprises.to_string())],
        )));
    }
    Ok(())
}

//! `queuelab lab list | check N | census N | reset N | path N`: the learner's lab files in the data folder
//! (made from the starting file on first use), checked over seeds × scenarios × brokers.
//! Exit 0 pass, 1 a seed broke an invariant, 2 the file cannot run.

use content::key;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::args::LabAction;
use super::lines::Session;
use super::{Cli, Failure};
use content::{Lab, Strings};
use sim::lab::file::{self as lab_file, ReadError};
use sim::lab::{
    CheckFailure, LabFileError, LabVerdict, check_lab, lab_check, learner_copy, runs_lock,
};

/// Runs `queuelab lab ...`.
pub fn run(cli: &Cli, action: &LabAction) -> Result<(), Failure> {
    let mut session = Session::open(cli)?;
    match action {
        LabAction::List => list(&session),
        LabAction::Path { n } => {
            let lab = find(&session, *n)?.clone();
            let file = ensure_copy(&session.paths.data_dir, &lab)?;
            super::out::line(file.display())
        }
        LabAction::Census { n } => {
            let lab = find(&session, *n)?.clone();
            super::lab_census::census(&session, &lab)
        }
        LabAction::Reset { n } => {
            let lab = find(&session, *n)?.clone();
            let file =
                learner_copy::reset_copy(&session.paths.data_dir, &lab).map_err(Failure::new)?;
            let strings = &session.content.course(session.lang).strings;
            let shown = file.display().to_string();
            super::out::line(strings.fill(key::lab::RESET_DONE, &[("file", &shown)]))
        }
        LabAction::Check {
            n,
            file,
            seeds,
            json,
        } => {
            let lab = find(&session, *n)?.clone();
            let result = check(&mut session, &lab, file.as_deref(), *seeds, *json);
            // Joined to a workshop: the check goes to the host before exiting (at most 2 s).
            super::join_cmd::flush(&mut session.store);
            result
        }
    }
}

fn find(session: &Session, n: u32) -> Result<&Lab, Failure> {
    session
        .content
        .labs
        .iter()
        .find(|l| l.number == n)
        .ok_or_else(|| {
            let strings = &session.content.course(session.lang).strings;
            Failure::usage(strings.fill(key::lab::UNKNOWN, &[("n", &n.to_string())]))
        })
}

/// The learner's copy, made from the starting file when it does not exist yet.
fn ensure_copy(data_dir: &Path, lab: &Lab) -> Result<PathBuf, Failure> {
    learner_copy::ensure_copy(data_dir, lab).map_err(Failure::new)
}

fn list(session: &Session) -> Result<(), Failure> {
    let strings = &session.content.course(session.lang).strings;
    let results = session
        .store
        .lab_results()
        .map_err(|e| Failure::new(e.to_string()))?;
    for lab in &session.content.labs {
        let status = match results.get(&lab.id) {
            Some(r) if r.solved_at.is_some() => strings.get(key::lab::STATUS_DONE),
            Some(r) if r.attempts > 0 => strings.get(key::lab::STATUS_ATTEMPTED),
            _ => strings.get(key::lab::STATUS_NEW),
        };
        super::out::line(format!(
            "{:>2}  {status:<10} {}",
            lab.number,
            lab.title(session.lang)
        ))?;
    }
    Ok(())
}

fn record(session: &mut Session, lab: &Lab, verdict: &LabVerdict) -> Result<(), Failure> {
    session
        .store
        .record_lab_check(&lab.id, verdict.passed(), &verdict.reason())
        .map_err(|e| Failure::new(e.to_string()))
}

fn check(
    session: &mut Session,
    lab: &Lab,
    file: Option<&Path>,
    seeds: Option<u64>,
    json: bool,
) -> Result<(), Failure> {
    let seeds = seeds.unwrap_or(lab.seeds);
    if seeds == 0 || seeds > content::LAB_MAX_SEEDS {
        return Err(Failure::usage(format!(
            "--seeds must be 1..={}",
            content::LAB_MAX_SEEDS
        )));
    }
    let path = match file {
        Some(f) => f.to_path_buf(),
        None => ensure_copy(&session.paths.data_dir, lab)?,
    };
    let shown = path.display().to_string();
    let text = match lab_file::read(&path) {
        Ok(text) => text,
        Err(ReadError::Io(e)) => {
            return Err(Failure::usage(format!(
                "cannot read {}: {e}",
                path.display()
            )));
        }
        Err(ReadError::File(e)) => {
            record(session, lab, &LabVerdict::CannotRun(e.clone()))?;
            return Err(cannot_run(session, &shown, &e, json));
        }
    };
    let work_dir = learner_copy::runs_dir(&session.paths.data_dir, lab);
    let strings = session.content.course(session.lang).strings.clone();
    let _runs = runs_lock::lock_runs(&work_dir, || {
        let n = lab.number.to_string();
        // Not eprintln!: it panics when stderr is closed.
        let _ = writeln!(
            std::io::stderr(),
            "{}",
            strings.fill(key::lab::CHECK_WAITING, &[("n", &n)])
        );
    })
    .map_err(Failure::new)?;
    let verdict = check_lab(&session.content, lab, &text, seeds, &work_dir, &mut |_| {})
        .map_err(Failure::new)?;
    record(session, lab, &verdict)?;
    match verdict {
        LabVerdict::Passed {
            runs,
            seeds,
            coverage,
        } => {
            if json {
                let value = serde_json::json!({
                    "lab": lab.number, "id": lab.id, "file": shown,
                    "status": "passed", "runs": runs, "seeds": seeds,
                    "coverage": {
                        "crash_points": coverage.points, "crash_points_struck": coverage.points_hit,
                        "gaps": coverage.gaps, "gaps_struck": coverage.gaps_hit,
                    },
                });
                return super::out::line(value);
            }
            super::out::line(lab_check::passed_line(&strings, lab, runs, seeds))?;
            super::out::line(lab_check::coverage_line(&strings, &coverage))
        }
        LabVerdict::CannotRun(e) => Err(cannot_run(session, &shown, &e, json)),
        LabVerdict::Broken(f) => broken(session, &strings, lab, &shown, &f, json),
    }
}

fn cannot_run(session: &Session, file: &str, e: &LabFileError, json: bool) -> Failure {
    let strings = &session.content.course(session.lang).strings;
    let message = e.render(file, strings);
    if json {
        let value = serde_json::json!({
            "status": "cannot-run",
            "error": { "file": file, "line": e.line, "column": e.column, "message": e.message(strings) },
        });
        if let Err(f) = super::out::line(value) {
            return f;
        }
    }
    Failure::usage(message)
}

fn broken(
    session: &Session,
    strings: &Strings,
    lab: &Lab,
    file: &str,
    f: &CheckFailure,
    json: bool,
) -> Result<(), Failure> {
    let headline = lab_check::broken_headline(strings, lab, f);
    if json {
        let value = serde_json::json!({
            "lab": lab.number, "id": lab.id, "file": file, "status": "broken",
            "seed": f.seed, "scenario": f.scenario, "broker": f.broker.as_str(),
            "moment": f.moment.as_ref().map(|m| m.to_json(&session.content.moments)),
            "statement": f.statement.as_ref().map(|s| serde_json::json!({
                "file": file, "line": s.line, "column": s.column,
                "section": s.section.as_str(), "instance": s.instance, "at_ms": s.at_ms,
            })),
            "violations": f.violations,
            "checker_agrees": f.checker_agrees,
            "run_dir": f.dir.display().to_string(),
        });
        super::out::line(value)?;
        return Err(Failure::new(headline));
    }
    super::out::line(&headline)?;
    for line in lab_check::broken_details(&session.content, session.lang, file, f) {
        super::out::line(line)?;
    }
    Err(Failure::new(headline))
}

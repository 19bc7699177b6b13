//! `queuelab lab list | check N | reset N | path N`: the learner's lab files in the data folder
//! (made from the starting file on first use), checked over seeds × scenarios × brokers.
//! Exit 0 pass, 1 a seed broke an invariant, 2 the file cannot run.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::args::LabAction;
use super::lines::Session;
use super::{Cli, EXIT_USAGE, Failure};
use crate::content::{Lab, Strings};
use crate::sim::lab::{CheckFailure, CheckOutcome, CheckRequest, LabFileError, LabSql, run_check};
use crate::sim::{BrokerKind, moments, scenario};

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
        LabAction::Reset { n } => {
            let lab = find(&session, *n)?.clone();
            let file = copy_path(&session.paths.data_dir, &lab);
            write_atomically(&file, &lab.start)?;
            let strings = &session.content.course(session.lang).strings;
            let shown = file.display().to_string();
            super::out::line(strings.fill("lab.reset_done", &[("file", &shown)]))
        }
        LabAction::Check {
            n,
            file,
            seeds,
            json,
        } => {
            let lab = find(&session, *n)?.clone();
            check(&mut session, &lab, file.as_deref(), *seeds, *json)
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
            Failure::usage(strings.fill("lab.unknown", &[("n", &n.to_string())]))
        })
}

/// The learner's copy: `labs/NN-slug.sql` in the data folder.
fn copy_path(data_dir: &Path, lab: &Lab) -> PathBuf {
    data_dir.join("labs").join(format!("{}.sql", lab.id))
}

/// Writes `text` to a temporary file beside `path` and renames it over: a crash leaves the old
/// file or the new one, never half of one.
fn write_atomically(path: &Path, text: &str) -> Result<(), Failure> {
    let fail = |e: std::io::Error| Failure::new(format!("cannot write {}: {e}", path.display()));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let tmp = path.with_extension("sql.tmp");
    std::fs::write(&tmp, text).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

/// The learner's copy, made from the starting file when it does not exist yet.
fn ensure_copy(data_dir: &Path, lab: &Lab) -> Result<PathBuf, Failure> {
    let file = copy_path(data_dir, lab);
    if !file.exists() {
        write_atomically(&file, &lab.start)?;
    }
    Ok(file)
}

fn list(session: &Session) -> Result<(), Failure> {
    let strings = &session.content.course(session.lang).strings;
    let results = session
        .store
        .lab_results()
        .map_err(|e| Failure::new(e.to_string()))?;
    for lab in &session.content.labs {
        let status = match results.get(&lab.id) {
            Some(r) if r.solved_at.is_some() => strings.get("lab.status_done"),
            Some(r) if r.attempts > 0 => strings.get("lab.status_attempted"),
            _ => strings.get("lab.status_new"),
        };
        super::out::line(format!(
            "{:>2}  {status:<10} {}",
            lab.number,
            lab.title(session.lang)
        ))?;
    }
    Ok(())
}

fn record(session: &mut Session, lab: &Lab, passed: bool) -> Result<(), Failure> {
    session
        .store
        .record_lab_check(&lab.id, passed)
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
    if seeds == 0 || seeds > crate::content::LAB_MAX_SEEDS {
        return Err(Failure::usage(format!(
            "--seeds must be 1..={}",
            crate::content::LAB_MAX_SEEDS
        )));
    }
    let path = match file {
        Some(f) => f.to_path_buf(),
        None => ensure_copy(&session.paths.data_dir, lab)?,
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    let shown = path.display().to_string();
    let sql = match LabSql::prepare(&text, &lab.sections) {
        Ok(sql) => Arc::new(sql),
        Err(e) => {
            record(session, lab, false)?;
            return Err(cannot_run(session, &shown, &e, json));
        }
    };
    let scenarios = lab
        .scenarios
        .iter()
        .map(|id| scenario::from_loaded(&session.content, id))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Failure::new(e.to_string()))?;
    let brokers: Vec<BrokerKind> = lab
        .brokers
        .iter()
        .filter_map(|b| BrokerKind::parse(b))
        .collect();
    let work_dir = session.paths.data_dir.join("lab-runs").join(&lab.id);
    // The previous check's failing run is replaced by this check's.
    let _ = std::fs::remove_dir_all(&work_dir);
    std::fs::create_dir_all(&work_dir)
        .map_err(|e| Failure::new(format!("cannot use {}: {e}", work_dir.display())))?;
    let request = CheckRequest {
        sql,
        scenarios,
        brokers,
        seeds: (1, seeds),
        work_dir: &work_dir,
    };
    let outcome = run_check(&request).map_err(|e| Failure::new(e.to_string()))?;
    let strings = session.content.course(session.lang).strings.clone();
    match outcome {
        CheckOutcome::Passed { runs } => {
            record(session, lab, true)?;
            if json {
                let value = serde_json::json!({
                    "lab": lab.number, "id": lab.id, "file": shown,
                    "status": "passed", "runs": runs, "seeds": seeds,
                });
                return super::out::line(value);
            }
            super::out::line(strings.fill(
                "lab.check_passed",
                &[
                    ("n", &lab.number.to_string()),
                    ("runs", &runs.to_string()),
                    ("seeds", &seeds.to_string()),
                    ("scenarios", &lab.scenarios.join(", ")),
                    ("brokers", &lab.brokers.join(", ")),
                ],
            ))
        }
        CheckOutcome::CannotRun(e) => {
            record(session, lab, false)?;
            Err(cannot_run(session, &shown, &e, json))
        }
        CheckOutcome::Broken(f) => {
            record(session, lab, false)?;
            broken(session, &strings, lab, &shown, &f, json)
        }
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
    Failure {
        code: EXIT_USAGE,
        message,
    }
}

fn broken(
    session: &Session,
    strings: &Strings,
    lab: &Lab,
    file: &str,
    f: &CheckFailure,
    json: bool,
) -> Result<(), Failure> {
    let headline = strings.fill(
        "lab.check_broken",
        &[
            ("n", &lab.number.to_string()),
            ("seed", &f.seed.to_string()),
            ("scenario", &f.scenario),
            ("broker", f.broker.as_str()),
        ],
    );
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
    if let Some(m) = &f.moment {
        super::out::line(strings.fill(
            "lab.check_moment",
            &[
                ("kind", m.kind.as_str()),
                ("at", &moments::human_ms(session.lang, m.at_ms)),
                ("order", &m.order.to_string()),
                ("message", &m.message_id),
                ("cause", &m.cause_event.to_string()),
            ],
        ))?;
        super::out::line(moments::render(&session.content.moments, session.lang, m))?;
    }
    match &f.statement {
        Some(s) => super::out::line(strings.fill(
            "lab.check_statement",
            &[
                ("file", file),
                ("line", &s.line.to_string()),
                ("column", &s.column.to_string()),
                ("section", s.section.as_str()),
                ("instance", &s.instance),
            ],
        ))?,
        None => super::out::line(strings.get("lab.check_no_statement"))?,
    }
    for v in &f.violations {
        super::out::line(strings.fill("lab.check_violation", &[("text", v)]))?;
    }
    if !f.checker_agrees {
        super::out::line(strings.get("lab.check_disagree"))?;
    }
    let dir = f.dir.display().to_string();
    super::out::line(strings.fill("lab.check_files", &[("dir", &dir)]))?;
    Err(Failure::new(headline))
}

//! One lab check from its content: prepare the learner's text, run the lab's scenarios ×
//! brokers over seeds 1..K, and word the verdict. The CLI (`queuelab lab check`) and the TUI's
//! lab screen both run this, so they print the same lines.

use content::key;
use std::path::Path;
use std::sync::Arc;

use super::probe::{Coverage, Probe};
use super::runner::{CheckProgress, Struck, run_check_observed};
use super::{CheckFailure, CheckOutcome, CheckRequest, LabFileError, LabSql, Section};
use crate::{BrokerKind, moments, scenario};
use content::{Content, Lab, Lang, Strings};

/// The verdict of one check.
#[derive(Debug, Clone)]
pub enum LabVerdict {
    /// Every run kept the invariants.
    Passed {
        /// Runs made.
        runs: u64,
        /// Seeds 1..=seeds.
        seeds: u64,
        /// The targeted runs of the statement-level faults.
        coverage: Coverage,
    },
    /// A seed broke an invariant.
    Broken(Box<CheckFailure>),
    /// The file cannot run (syntax, forbidden statement, unknown parameter, too long).
    CannotRun(LabFileError),
}

impl LabVerdict {
    /// Whether the lab counts as solved by this check.
    pub fn passed(&self) -> bool {
        matches!(self, LabVerdict::Passed { .. })
    }

    /// Why the check failed, as the room's dashboard counts it: the lab invariant or the moment
    /// it stopped at, `broken` for an engine invariant alone, `cannot-run` for a file that does
    /// not run; empty when it passed.
    pub fn reason(&self) -> String {
        match self {
            LabVerdict::Passed { .. } => String::new(),
            LabVerdict::CannotRun(_) => CANNOT_RUN.to_owned(),
            // The failure the learner reads first: a moment, unless a breach led (the runner
            // then keeps no moment).
            LabVerdict::Broken(f) => f
                .moment
                .as_ref()
                .map(|m| m.kind.as_str())
                .or_else(|| f.breach.as_ref().map(|b| b.invariant.as_str()))
                .unwrap_or("broken")
                .to_owned(),
        }
    }
}

/// The reason of a check whose file does not run.
pub const CANNOT_RUN: &str = "cannot-run";
/// The reason of a check queuelab itself could not make (a folder, a missing scenario).
pub const CHECK_ERROR: &str = "check-error";

/// Checks `text` (the learner's file) for `lab` over seeds 1..=`seeds`, keeping the failing run
/// in `work_dir` (emptied first). `progress` hears before each run. An error is queuelab's
/// own trouble (a folder that cannot be made, a scenario that is missing), worded in English.
pub fn check_lab(
    content: &Content,
    lab: &Lab,
    text: &str,
    seeds: u64,
    work_dir: &Path,
    progress: &mut dyn FnMut(CheckProgress),
) -> Result<LabVerdict, String> {
    let sql = match LabSql::prepare(text, &lab.sections) {
        Ok(sql) => Arc::new(sql),
        Err(e) => return Ok(LabVerdict::CannotRun(e)),
    };
    let scenarios = lab
        .scenarios
        .iter()
        .map(|id| scenario::from_loaded(content, id))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let brokers: Vec<BrokerKind> = lab
        .brokers
        .iter()
        .filter_map(|b| BrokerKind::parse(b))
        .collect();
    // The previous check's failing run is replaced by this check's.
    let _ = std::fs::remove_dir_all(work_dir);
    std::fs::create_dir_all(work_dir)
        .map_err(|e| format!("cannot use {}: {e}", work_dir.display()))?;
    let request = CheckRequest {
        sql,
        scenarios,
        brokers,
        seeds: (1, seeds),
        charged: lab.charged,
        poison: lab.poison,
        work_dir,
    };
    let outcome = run_check_observed(&request, progress).map_err(|e| e.to_string())?;
    Ok(match outcome {
        CheckOutcome::Passed { runs, coverage } => LabVerdict::Passed {
            runs,
            seeds,
            coverage,
        },
        CheckOutcome::Broken(f) => LabVerdict::Broken(f),
        CheckOutcome::CannotRun(e) => LabVerdict::CannotRun(e),
    })
}

/// The pass line: runs, seeds, scenarios, brokers.
pub fn passed_line(strings: &Strings, lab: &Lab, runs: u64, seeds: u64) -> String {
    strings.fill(
        key::lab::CHECK_PASSED,
        &[
            ("n", &lab.number.to_string()),
            ("runs", &runs.to_string()),
            ("seeds", &seeds.to_string()),
            ("scenarios", &lab.scenarios.join(", ")),
            ("brokers", &lab.brokers.join(", ")),
        ],
    )
}

/// What the statement-level faults covered: crash points and gaps, each struck out of made.
pub fn coverage_line(strings: &Strings, c: &Coverage) -> String {
    strings.fill(
        key::lab::CHECK_COVERAGE,
        &[
            ("points_hit", &c.points_hit.to_string()),
            ("points", &c.points.to_string()),
            ("gaps_hit", &c.gaps_hit.to_string()),
            ("gaps", &c.gaps.to_string()),
        ],
    )
}

/// The statement-level fault a broken run was aimed at, at the learner's `file:line:col`.
fn struck_line(strings: &Strings, file: &str, s: &Struck) -> String {
    let (key, site) = match s.probe {
        Probe::Discover => return String::new(),
        Probe::Crash {
            site,
            client_retry: true,
        } => (key::lab::CHECK_STRUCK_CRASH_RETRY, site),
        Probe::Crash { site, .. } => (key::lab::CHECK_STRUCK_CRASH, site),
        Probe::Compete { site } => (key::lab::CHECK_STRUCK_GAP, site),
    };
    let (actor, competitor) = match site.section {
        Section::Accept => (key::lab::ACTOR_API, key::lab::COMPETITOR_API),
        Section::Claim | Section::Published => {
            (key::lab::ACTOR_DISPATCHER, key::lab::COMPETITOR_DISPATCHER)
        }
        _ => (key::lab::ACTOR_CONSUMER, key::lab::COMPETITOR_CONSUMER),
    };
    strings.fill(
        key,
        &[
            ("file", file),
            ("line", &s.line.to_string()),
            ("column", &s.column.to_string()),
            ("section", site.section.as_str()),
            ("actor", strings.get(actor)),
            ("competitor", strings.get(competitor)),
        ],
    )
}

/// The headline of a broken check: lab, seed, scenario, broker.
pub fn broken_headline(strings: &Strings, lab: &Lab, f: &CheckFailure) -> String {
    strings.fill(
        key::lab::CHECK_BROKEN,
        &[
            ("n", &lab.number.to_string()),
            ("seed", &f.seed.to_string()),
            ("scenario", &f.scenario),
            ("broker", f.broker.as_str()),
        ],
    )
}

/// What a broken check says after its headline: the moment with its order, message id and
/// cause event, the moment's story, the learner's statement (`file:line:col`), the broken
/// invariants, a disagreement of the checkers, and where the failing run's files are.
pub fn broken_details(content: &Content, lang: Lang, file: &str, f: &CheckFailure) -> Vec<String> {
    let strings = &content.course(lang).strings;
    let mut lines = Vec::new();
    if let Some(m) = &f.moment {
        lines.push(strings.fill(
            key::lab::CHECK_MOMENT,
            &[
                ("kind", m.kind.as_str()),
                ("at", &moments::human_ms(lang, m.at_ms)),
                ("order", &m.order.to_string()),
                ("message", &m.message_id),
                ("cause", &m.cause_number().to_string()),
            ],
        ));
        lines.push(moments::render(&content.moments, lang, m));
    }
    if let Some(b) = &f.breach {
        lines.push(strings.fill(
            b.invariant.text_key(),
            &[("order", &b.order.to_string()), ("message", &b.message_id)],
        ));
    }
    lines.push(match &f.statement {
        Some(s) => strings.fill(
            key::lab::CHECK_STATEMENT,
            &[
                ("file", file),
                ("line", &s.line.to_string()),
                ("column", &s.column.to_string()),
                ("section", s.section.as_str()),
                ("instance", &s.instance),
            ],
        ),
        None => strings.get(key::lab::CHECK_NO_STATEMENT).to_owned(),
    });
    if let Some(s) = &f.struck {
        lines.push(struck_line(strings, file, s));
    }
    for v in &f.violations {
        let said = super::violation_words::say(strings, v);
        lines.push(strings.fill(key::lab::CHECK_VIOLATION, &[("text", &said)]));
    }
    if !f.checker_agrees {
        lines.push(strings.get(key::lab::CHECK_DISAGREE).to_owned());
    }
    let dir = f.dir.display().to_string();
    lines.push(strings.fill(key::lab::CHECK_FILES, &[("dir", &dir)]));
    lines
}

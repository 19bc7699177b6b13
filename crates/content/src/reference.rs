//! Structured reference content (`lessons/LANG/reference.toml`): flow map stages, checklist,
//! runbook signals, levels, the cost calculator defaults and the sources. The chapters, the map
//! and the report all read these, so each text exists once.

use super::Problem;
use super::toml_file::{self, at, check_ids, check_text, check_version};
use serde::Deserialize;
use toml::Spanned;

/// Required number of checklist questions (chapter 15's checklist).
pub const CHECKLIST_COUNT: usize = 10;
/// Required number of runbook signals (chapter 13's runbook).
pub const RUNBOOK_COUNT: usize = 6;
/// The level ids, in order.
pub const LEVEL_IDS: [&str; 3] = ["beginner", "practitioner", "senior"];
/// The simulator metrics a runbook signal may point at.
pub const RUNBOOK_METRICS: [&str; 6] = [
    "age",
    "retries",
    "dlq",
    "lock-lost",
    "prevented-duplicates",
    "outbox-lag",
];

/// The reference content of one language.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reference {
    /// Stages of the flow map, in order.
    pub flow: Vec<FlowStage>,
    /// The production checklist.
    pub checklist: Vec<ChecklistItem>,
    /// The runbook signals.
    pub runbook: Vec<RunbookSignal>,
    /// Beginner, practitioner, senior.
    pub levels: Vec<Level>,
    /// Defaults of the outage-cost calculator.
    pub calculator: Calculator,
    /// Documentation titles the facts come from.
    pub sources: Vec<Source>,
}

/// A stage of the flow map.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowStage {
    /// Stable id.
    pub id: String,
    /// Short label (API, DLQ, ...).
    pub label: String,
    /// One short detail line.
    pub detail: String,
}

/// A yes/no question of the production checklist.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChecklistItem {
    /// Stable id (progress stores ticks by id).
    pub id: String,
    /// The question.
    pub question: String,
}

/// A runbook signal.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunbookSignal {
    /// Stable id.
    pub id: String,
    /// Name of the signal.
    pub name: String,
    /// What to measure.
    pub watch: String,
    /// Why it matters.
    pub why: String,
    /// The simulator metric that shows it.
    pub metric: String,
}

/// A level with what to practise.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// `beginner`, `practitioner` or `senior`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// What to practise.
    pub items: Vec<String>,
}

/// Defaults of the outage-cost calculator (the seed's example).
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Calculator {
    /// Incidents per month.
    pub incidents: f64,
    /// People involved per incident.
    pub people: f64,
    /// Hours per person and incident.
    pub hours: f64,
    /// Full hourly cost (salary plus overhead).
    pub hourly_cost: f64,
    /// Default currency code.
    pub currency: String,
    /// Currencies the learner can pick.
    pub currencies: Vec<String>,
}

/// A documentation source.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Title of the page or guide.
    pub title: String,
    /// Who publishes it.
    pub publisher: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    flow: Vec<Spanned<FlowStage>>,
    checklist: Vec<Spanned<ChecklistItem>>,
    runbook: Vec<Spanned<RunbookSignal>>,
    level: Vec<Spanned<Level>>,
    calculator: Spanned<Calculator>,
    source: Vec<Spanned<Source>>,
}

/// Parses and checks one reference file.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Reference {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return Reference::default();
        }
    };
    check_version(path, text, &file.format_version, problems);
    check_lists(path, text, &file, problems);
    check_runbook_and_levels(path, text, &file, problems);
    check_calculator(path, text, &file.calculator, problems);
    if file.source.is_empty() {
        problems.push(Problem::file(
            path,
            "list the documentation sources ([[source]])",
        ));
    }
    for (what, values) in [
        ("flow label", field(&file.flow, |s| &s.label)),
        (
            "checklist question",
            field(&file.checklist, |c| &c.question),
        ),
        ("source title", field(&file.source, |s| &s.title)),
    ] {
        for value in &values {
            check_text(path, text, what, value, problems);
        }
    }
    Reference {
        flow: file.flow.into_iter().map(Spanned::into_inner).collect(),
        checklist: file
            .checklist
            .into_iter()
            .map(Spanned::into_inner)
            .collect(),
        runbook: file.runbook.into_iter().map(Spanned::into_inner).collect(),
        levels: file.level.into_iter().map(Spanned::into_inner).collect(),
        calculator: file.calculator.into_inner(),
        sources: file.source.into_iter().map(Spanned::into_inner).collect(),
    }
}

/// The stages, checklist and runbook: unique ids, and as many as the map shows.
fn check_lists(path: &str, text: &str, file: &File, problems: &mut Vec<Problem>) {
    check_ids(
        path,
        text,
        "flow stage",
        &field(&file.flow, |s| &s.id),
        problems,
    );
    check_ids(
        path,
        text,
        "checklist",
        &field(&file.checklist, |c| &c.id),
        problems,
    );
    check_ids(
        path,
        text,
        "runbook",
        &field(&file.runbook, |r| &r.id),
        problems,
    );
    if file.flow.is_empty() {
        problems.push(Problem::file(
            path,
            "the flow map needs its stages ([[flow]])",
        ));
    }
    count(
        path,
        "checklist questions",
        file.checklist.len(),
        CHECKLIST_COUNT,
        problems,
    );
    count(
        path,
        "runbook signals",
        file.runbook.len(),
        RUNBOOK_COUNT,
        problems,
    );
}

/// Every runbook signal names a metric the simulator has; the levels are the known ones, in
/// order, each with an item.
fn check_runbook_and_levels(path: &str, text: &str, file: &File, problems: &mut Vec<Problem>) {
    for signal in &file.runbook {
        if !RUNBOOK_METRICS.contains(&signal.get_ref().metric.as_str()) {
            problems.push(at(
                path,
                text,
                signal,
                format!(
                    "runbook metric {:?} is not one of {}",
                    signal.get_ref().metric,
                    RUNBOOK_METRICS.join(", ")
                ),
            ));
        }
    }
    let level_ids: Vec<&str> = file.level.iter().map(|l| l.get_ref().id.as_str()).collect();
    if level_ids != LEVEL_IDS {
        problems.push(Problem::file(
            path,
            format!("levels must be {} in this order", LEVEL_IDS.join(", ")),
        ));
    }
    for level in &file.level {
        if level.get_ref().items.is_empty() {
            problems.push(at(path, text, level, "a level needs at least one item"));
        }
    }
}

/// One string field of each table, located at its table (for messages).
fn field<T>(items: &[Spanned<T>], get: impl Fn(&T) -> &String) -> Vec<Spanned<String>> {
    items
        .iter()
        .map(|item| Spanned::new(item.span(), get(item.get_ref()).clone()))
        .collect()
}

fn count(path: &str, what: &str, found: usize, wanted: usize, problems: &mut Vec<Problem>) {
    if found != wanted {
        problems.push(Problem::file(
            path,
            format!("found {found} {what}; exactly {wanted} are required"),
        ));
    }
}

fn check_calculator(
    path: &str,
    text: &str,
    calc: &Spanned<Calculator>,
    problems: &mut Vec<Problem>,
) {
    let c = calc.get_ref();
    for (name, value) in [
        ("incidents", c.incidents),
        ("people", c.people),
        ("hours", c.hours),
        ("hourly_cost", c.hourly_cost),
    ] {
        if !value.is_finite() || value < 0.0 {
            problems.push(at(
                path,
                text,
                calc,
                format!("calculator.{name} must be a non-negative number"),
            ));
        }
    }
    if !c.currencies.contains(&c.currency) {
        problems.push(at(
            path,
            text,
            calc,
            format!(
                "calculator.currency {:?} must be one of currencies",
                c.currency
            ),
        ));
    }
}

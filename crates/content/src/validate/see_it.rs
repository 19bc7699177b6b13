//! "See it happen" plays what the learner chose: each wrong option of a card plays its own run
//! (its scenario and mode), not another design's. Two wrong options may share a run only when
//! one says it shows the other's design (`same_design_as`); an option no run can show says so
//! (`mode = "none"`) instead. Each option also explains itself in its own feedback text.

use super::at_line;
use crate::decision::{Decision, DecisionOption};
use crate::{Course, Lang, Problem};
use std::collections::BTreeSet;

/// Checks every card of `course`; `scenarios` are the ids an option may name.
pub fn check(lang: Lang, course: &Course, scenarios: &BTreeSet<&str>, problems: &mut Vec<Problem>) {
    let path = format!("lessons/{lang}/decisions.toml");
    for decision in &course.decisions {
        check_card(&path, decision, scenarios, problems);
    }
}

fn check_card(
    path: &str,
    decision: &Decision,
    scenarios: &BTreeSet<&str>,
    problems: &mut Vec<Problem>,
) {
    let card = decision.id.as_str();
    for option in &decision.options {
        if option.run().is_some() && !scenarios.contains(option.scenario.as_str()) {
            problems.push(at_line(
                path,
                option.line,
                format!(
                    "option {card}/{}: unknown scenario {:?}",
                    option.id, option.scenario
                ),
            ));
        }
        if let Some(other) = &option.same_design_as {
            let named = decision
                .options
                .iter()
                .find(|o| o.id == *other && o.id != option.id && !o.correct);
            if option.correct || named.is_none() {
                problems.push(at_line(
                    path,
                    option.line,
                    format!(
                        "option {card}/{}: same_design_as = {other:?} must name another wrong option of the card",
                        option.id
                    ),
                ));
            }
        }
    }
    let wrong: Vec<&DecisionOption> = decision.options.iter().filter(|o| !o.correct).collect();
    for (i, a) in wrong.iter().enumerate() {
        for b in &wrong[i + 1..] {
            if a.run().is_some() && a.run() == b.run() && !says_same_design(a, b) {
                let (scenario, mode) = a.run().unwrap_or_default();
                problems.push(at_line(
                    path,
                    b.line,
                    format!(
                        "options {card}/{} and {card}/{} both play scenario {scenario:?} in mode {mode:?}; give each wrong option the run of its own design (its own scenario or mode), mode = \"none\" when no run shows it, or same_design_as when both really are one design",
                        a.id, b.id
                    ),
                ));
            }
        }
    }
    for (i, a) in decision.options.iter().enumerate() {
        for b in &decision.options[i + 1..] {
            if a.feedback.trim() == b.feedback.trim() {
                problems.push(at_line(
                    path,
                    b.line,
                    format!(
                        "options {card}/{} and {card}/{} share their feedback word for word; each option explains itself",
                        a.id, b.id
                    ),
                ));
            }
        }
    }
}

/// Whether the two options say they show one design: one names the other, or both name the
/// same third option.
fn says_same_design(a: &DecisionOption, b: &DecisionOption) -> bool {
    let design = |o: &DecisionOption| o.same_design_as.clone().unwrap_or_else(|| o.id.clone());
    design(a) == design(b)
}

#[cfg(test)]
mod tests;

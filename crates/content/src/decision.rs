//! The decision cards (`lessons/LANG/decisions.toml`).

use super::Problem;
use super::toml_file::{self, at, check_duplicate_options, check_ids, check_text, check_version};
use serde::Deserialize;
use toml::Spanned;

/// A decision card embedded in a chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Stable id (`broker-down`).
    pub id: String,
    /// The chapter that embeds it.
    pub chapter: String,
    /// The simulator scenario that shows it happen.
    pub scenario: String,
    /// Card title ("Decision 1").
    pub title: String,
    /// The situation the learner faces.
    pub situation: String,
    /// The instruction line under the options.
    pub instruction: String,
    /// The principle, shown after any answer.
    pub explanation: String,
    /// The options, in file order.
    pub options: Vec<DecisionOption>,
    /// Words that give the right option away (`outbox`): no chapter title or summary, no text
    /// before the card and not its situation or instruction may contain one, so the learner
    /// predicts before the course explains (checked in `validate::giveaway`).
    pub reveals: Vec<String>,
    /// Line of the id in the file.
    pub id_line: usize,
}

/// Fewest options a card offers: three or more, so guessing is not a coin toss.
pub const OPTIONS_MIN: usize = 3;
/// Most options a card offers (answered with keys 1-4).
pub const OPTIONS_MAX: usize = 4;
/// The longest option may be at most this many percent of the shortest one's length.
pub const LENGTH_RATIO_MAX_PERCENT: usize = 150;
/// The `mode` of a wrong option whose design no simulator run shows: its feedback says so, and
/// "see it happen" says so instead of playing another design.
pub const NO_RUN: &str = "none";

/// One answer of a decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionOption {
    /// Stable id within the decision.
    pub id: String,
    /// The option text.
    pub text: String,
    /// Whether it is the right choice.
    pub correct: bool,
    /// Why it is right, or what it would cause.
    pub feedback: String,
    /// The simulator mode that plays this choice: `safe` for the right one, `naive` or
    /// `pitfall` for a wrong one (the compare view shows it beside `safe`), or [`NO_RUN`] for a
    /// wrong one no run can show.
    pub mode: String,
    /// The scenario that plays this choice: the option's own, else the card's.
    pub scenario: String,
    /// Another wrong option of the card whose design this one shares, so both may play one run
    /// (`same_design_as = "id"`); without it, two wrong options never share a run.
    pub same_design_as: Option<String>,
    /// Line of the option's id in the file.
    pub line: usize,
}

impl DecisionOption {
    /// The scenario and mode that play this choice; `None` when no run shows its design.
    pub fn run(&self) -> Option<(&str, &str)> {
        (self.mode != NO_RUN).then_some((self.scenario.as_str(), self.mode.as_str()))
    }
}

impl Decision {
    /// The title's part before ": " ("Decision 3" of "Decision 3: The same message again"),
    /// for narrow places that name the card next to other facts.
    pub fn short_title(&self) -> &str {
        self.title
            .split_once(": ")
            .map_or(self.title.as_str(), |(short, _)| short)
    }

    /// The option with this id.
    pub fn option(&self, id: &str) -> Option<&DecisionOption> {
        self.options.iter().find(|o| o.id == id)
    }

    /// The simulator mode that plays the option `id` (`None` for an unknown id).
    pub fn mode_for(&self, id: &str) -> Option<&str> {
        self.option(id).map(|o| o.mode.as_str())
    }

    /// The scenario and mode that play the option `id`: `None` for an unknown id and for an
    /// option no run shows.
    pub fn run_for(&self, id: &str) -> Option<(&str, &str)> {
        self.option(id).and_then(DecisionOption::run)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    #[serde(default)]
    decision: Vec<RawDecision>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDecision {
    id: Spanned<String>,
    chapter: Spanned<String>,
    scenario: Spanned<String>,
    title: Spanned<String>,
    situation: Spanned<String>,
    instruction: Spanned<String>,
    explanation: Spanned<String>,
    reveals: Spanned<Vec<Spanned<String>>>,
    option: Vec<RawOption>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOption {
    id: Spanned<String>,
    text: Spanned<String>,
    correct: bool,
    feedback: Spanned<String>,
    mode: Spanned<String>,
    scenario: Option<Spanned<String>>,
    same_design_as: Option<Spanned<String>>,
}

/// Parses and checks one decisions file.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Vec<Decision> {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return Vec::new();
        }
    };
    check_version(path, text, &file.format_version, problems);
    check_ids(
        path,
        text,
        "decision",
        file.decision.iter().map(|d| &d.id),
        problems,
    );
    check_answer_positions(path, text, &file.decision, problems);
    file.decision
        .into_iter()
        .map(|raw| {
            check_card(path, text, &raw, problems);
            into_decision(text, raw)
        })
        .collect()
}

/// One card's own checks: its texts, option ids and texts, options, reveals, one right answer.
fn check_card(path: &str, text: &str, raw: &RawDecision, problems: &mut Vec<Problem>) {
    for (field, value) in [
        ("title", &raw.title),
        ("situation", &raw.situation),
        ("instruction", &raw.instruction),
        ("explanation", &raw.explanation),
    ] {
        check_text(path, text, field, value, problems);
    }
    check_ids(
        path,
        text,
        "option",
        raw.option.iter().map(|o| &o.id),
        problems,
    );
    for option in &raw.option {
        check_text(path, text, "option text", &option.text, problems);
        check_text(path, text, "option feedback", &option.feedback, problems);
    }
    check_options(path, text, raw, problems);
    check_reveals(path, text, raw, problems);
    let correct = raw.option.iter().filter(|o| o.correct).count();
    if correct != 1 {
        problems.push(at(
            path,
            text,
            &raw.id,
            format!(
                "decision {:?} has {correct} correct options; exactly one must be correct",
                raw.id.get_ref()
            ),
        ));
    }
}

/// The card as the course holds it (an option without its own scenario plays the card's).
fn into_decision(text: &str, raw: RawDecision) -> Decision {
    let id_line = super::problem::line_column(text, raw.id.span().start).0;
    let card_scenario = raw.scenario.get_ref().clone();
    Decision {
        id: raw.id.into_inner(),
        chapter: raw.chapter.into_inner(),
        scenario: raw.scenario.into_inner(),
        title: raw.title.into_inner(),
        situation: raw.situation.into_inner(),
        instruction: raw.instruction.into_inner(),
        explanation: raw.explanation.into_inner(),
        reveals: raw
            .reveals
            .into_inner()
            .into_iter()
            .map(Spanned::into_inner)
            .collect(),
        options: raw
            .option
            .into_iter()
            .map(|o| DecisionOption {
                line: super::problem::line_column(text, o.id.span().start).0,
                id: o.id.into_inner(),
                text: o.text.into_inner(),
                correct: o.correct,
                feedback: o.feedback.into_inner(),
                mode: o.mode.into_inner(),
                scenario: o
                    .scenario
                    .map_or_else(|| card_scenario.clone(), Spanned::into_inner),
                same_design_as: o.same_design_as.map(Spanned::into_inner),
            })
            .collect(),
        id_line,
    }
}

/// The right option sits at a different position on every card, so "it is always the second"
/// gives nothing away. Only while there are no more cards than options on the largest card;
/// beyond that a repeat cannot be avoided.
fn check_answer_positions(
    path: &str,
    text: &str,
    decisions: &[RawDecision],
    problems: &mut Vec<Problem>,
) {
    let most_options = decisions.iter().map(|d| d.option.len()).max().unwrap_or(0);
    if decisions.len() > most_options {
        return;
    }
    let mut seen: Vec<(usize, &str)> = Vec::new();
    for d in decisions {
        let Some(position) = d.option.iter().position(|o| o.correct).map(|i| i + 1) else {
            continue;
        };
        let id = d.id.get_ref().as_str();
        if let Some((_, first)) = seen.iter().find(|(p, _)| *p == position) {
            problems.push(at(
                path,
                text,
                &d.id,
                format!("decisions {first:?} and {id:?} both have their correct option at position {position}; each card needs its own position"),
            ));
        }
        seen.push((position, id));
    }
}

/// A card names at least one give-away word, and none of them is blank: an empty word would
/// occur in every text, and a card without words would escape the give-away check.
fn check_reveals(path: &str, text: &str, raw: &RawDecision, problems: &mut Vec<Problem>) {
    if raw.reveals.get_ref().is_empty() {
        problems.push(at(
            path,
            text,
            &raw.reveals,
            format!(
                "decision {:?} lists no words in reveals; name the terms that give its right option away",
                raw.id.get_ref()
            ),
        ));
    }
    for word in raw.reveals.get_ref() {
        check_text(path, text, "a reveals word", word, problems);
    }
}

/// Option count, similar lengths, no repeated text, and a simulator mode that fits the answer.
fn check_options(path: &str, text: &str, raw: &RawDecision, problems: &mut Vec<Problem>) {
    let id = raw.id.get_ref();
    let n = raw.option.len();
    if !(OPTIONS_MIN..=OPTIONS_MAX).contains(&n) {
        problems.push(at(
            path,
            text,
            &raw.id,
            format!("decision {id:?} has {n} options; it needs {OPTIONS_MIN} to {OPTIONS_MAX}"),
        ));
    }
    let lengths = raw.option.iter().map(|o| o.text.get_ref().chars().count());
    let (shortest, longest) = (lengths.clone().min(), lengths.max());
    if let (Some(shortest), Some(longest)) = (shortest, longest)
        && longest * 100 > shortest.max(1) * LENGTH_RATIO_MAX_PERCENT
    {
        problems.push(at(
            path,
            text,
            &raw.id,
            format!("decision {id:?}: options run from {shortest} to {longest} characters; the longest may be at most {LENGTH_RATIO_MAX_PERCENT}% of the shortest"),
        ));
    }
    check_duplicate_options(
        path,
        text,
        &format!("decision {id:?}"),
        raw.option.iter().map(|o| (&o.id, &o.text)),
        problems,
    );
    for o in &raw.option {
        let mode = o.mode.get_ref().as_str();
        let fits = if o.correct {
            mode == "safe"
        } else {
            mode == "naive" || mode == "pitfall" || mode == NO_RUN
        };
        if !fits {
            problems.push(at(
                path,
                text,
                &o.mode,
                format!(
                    "option {:?} has mode {mode:?}; the correct option plays \"safe\", a wrong one \"naive\", \"pitfall\" or \"{NO_RUN}\" (no run shows it)",
                    o.id.get_ref()
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests;

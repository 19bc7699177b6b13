//! Cues that give a quiz answer away without the knowledge it asks for: the right option being
//! the longest one too often across the bank. A test-wise learner who spots it scores without
//! understanding. The cues of a single question (shared openings, course terms, absolute words)
//! are checked with the decisions in `validate/cues.rs`. The authored position of
//! the right option is held to a spread too: the quiz shuffles options, but the file is read
//! (and printed, and reviewed) in its own order.

use super::RawQuestion;
use crate::Problem;

/// Highest share (percent) of questions whose correct option may be the strictly longest.
pub const LONGEST_CORRECT_MAX_PERCENT: usize = 40;

/// Highest share (percent) of single-choice questions whose right option may sit at one position.
pub const POSITION_SHARE_MAX_PERCENT: usize = 35;

/// Fewer single-choice questions than this cannot spread over four positions; the rule waits.
pub const POSITION_RULE_MIN_QUESTIONS: usize = 8;

/// Reports a bank in which the right option is the strictly longest too often.
pub fn check_longest(path: &str, questions: &[RawQuestion], problems: &mut Vec<Problem>) {
    let longest: Vec<&str> = questions
        .iter()
        .filter(|q| correct_is_longest(q))
        .map(|q| q.id.get_ref().as_str())
        .collect();
    if !questions.is_empty() && longest.len() * 100 > questions.len() * LONGEST_CORRECT_MAX_PERCENT
    {
        problems.push(Problem::file(
            path,
            format!(
                "the correct option is the strictly longest in {} of {} questions; at most {LONGEST_CORRECT_MAX_PERCENT}% may be ({})",
                longest.len(),
                questions.len(),
                longest.join(", ")
            ),
        ));
    }
}

/// Reports a bank whose single-choice questions put their right option at one position too often.
pub fn check_positions(path: &str, questions: &[RawQuestion], problems: &mut Vec<Problem>) {
    let mut by_position: std::collections::BTreeMap<usize, Vec<&str>> =
        std::collections::BTreeMap::new();
    let mut counted = 0;
    for q in questions.iter().filter(|q| !q.multi) {
        if let Some(position) = q.option.iter().position(|o| o.correct) {
            counted += 1;
            by_position
                .entry(position)
                .or_default()
                .push(q.id.get_ref().as_str());
        }
    }
    if counted < POSITION_RULE_MIN_QUESTIONS {
        return;
    }
    for (position, ids) in by_position {
        if ids.len() * 100 > counted * POSITION_SHARE_MAX_PERCENT {
            problems.push(Problem::file(
                path,
                format!(
                    "the correct option is option {} in {} of {counted} single-choice questions; at most {POSITION_SHARE_MAX_PERCENT}% may share one position (move some of: {})",
                    position + 1,
                    ids.len(),
                    ids.join(", ")
                ),
            ));
        }
    }
}

/// Whether the longest option is correct and strictly longer than every wrong one.
fn correct_is_longest(q: &RawQuestion) -> bool {
    let longest = |correct: bool| {
        q.option
            .iter()
            .filter(|o| o.correct == correct)
            .map(|o| o.text.get_ref().chars().count())
            .max()
            .unwrap_or(0)
    };
    longest(true) > longest(false)
}

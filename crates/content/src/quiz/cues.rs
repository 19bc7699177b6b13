//! Cues that give a quiz answer away without the knowledge it asks for: the right option being
//! the longest one, and absolute words ("always", "never", "nur", "kein") marking the wrong ones.
//! A test-wise learner who spots either scores without understanding. The authored position of
//! the right option is held to a spread too: the quiz shuffles options, but the file is read
//! (and printed, and reviewed) in its own order.

use super::RawQuestion;
use crate::{Lang, Problem};

/// Highest share (percent) of questions whose correct option may be the strictly longest.
pub const LONGEST_CORRECT_MAX_PERCENT: usize = 40;

/// The most percentage points by which the share of wrong options carrying an absolute word may
/// differ from the share of right options carrying one (in either direction).
pub const ABSOLUTE_SHARE_GAP_MAX_POINTS: usize = 10;

/// Highest share (percent) of single-choice questions whose right option may sit at one position.
pub const POSITION_SHARE_MAX_PERCENT: usize = 35;

/// Fewer single-choice questions than this cannot spread over four positions; the rule waits.
pub const POSITION_RULE_MIN_QUESTIONS: usize = 8;

/// Words that claim no exception exists, per language, lowercase and with their inflections.
/// "every" / "jede" are left out: they mostly distribute ("for each message"), not generalise.
pub fn absolute_words(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::En => &[
            "always", "never", "only", "all", "none", "nothing", "nobody", "no",
        ],
        Lang::De => &[
            "immer", "nie", "niemals", "nur", "alle", "alles", "allen", "aller", "kein", "keine",
            "keinen", "keinem", "keiner", "keines", "nichts", "niemand",
        ],
    }
}

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

/// Options carrying an absolute word, counted among the wrong and among the right ones.
#[derive(Debug, Default)]
struct Tally {
    /// `question/option` of each option that carries one.
    carrying: Vec<String>,
    total: usize,
}

impl Tally {
    fn percent(&self) -> usize {
        (self.carrying.len() * 100 + self.total / 2)
            .checked_div(self.total)
            .unwrap_or(0)
    }
}

/// Reports a bank whose wrong options carry absolute words much more (or less) often than its
/// right ones: then "the option that says never is wrong" answers without knowledge.
pub fn check_absolute_words(
    path: &str,
    lang: Lang,
    questions: &[RawQuestion],
    problems: &mut Vec<Problem>,
) {
    let words = absolute_words(lang);
    let (mut wrong, mut right) = (Tally::default(), Tally::default());
    for q in questions {
        for o in &q.option {
            let tally = if o.correct { &mut right } else { &mut wrong };
            tally.total += 1;
            if has_absolute_word(o.text.get_ref(), words) {
                tally
                    .carrying
                    .push(format!("{}/{}", q.id.get_ref(), o.id.get_ref()));
            }
        }
    }
    if wrong.total == 0 || right.total == 0 {
        return;
    }
    // Cross-multiplied so that rounding cannot hide a gap: |w/W - r/R| > max/100.
    let (w, r) = (
        wrong.carrying.len() * right.total,
        right.carrying.len() * wrong.total,
    );
    if w.abs_diff(r) * 100 <= ABSOLUTE_SHARE_GAP_MAX_POINTS * wrong.total * right.total {
        return;
    }
    let heavier = if w > r { &wrong } else { &right };
    problems.push(Problem::file(
        path,
        format!(
            "absolute words ({}) are in {} of {} wrong options ({}%) and {} of {} right ones ({}%); the shares may differ by at most {ABSOLUTE_SHARE_GAP_MAX_POINTS} points, or the words give the answer away (reword some of: {})",
            words.join(", "),
            wrong.carrying.len(),
            wrong.total,
            wrong.percent(),
            right.carrying.len(),
            right.total,
            right.percent(),
            heavier.carrying.join(", ")
        ),
    ));
}

/// Whether `text` holds one of `words` as a whole word, ignoring case.
pub fn has_absolute_word(text: &str, words: &[&str]) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .any(|w| words.contains(&w.to_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_only_and_case_blind() {
        let en = absolute_words(Lang::En);
        assert!(has_absolute_word("Never complete first.", en));
        assert!(has_absolute_word("It is needed ONLY on SQS", en));
        assert!(!has_absolute_word(
            "Allow a note; knowledge; nobody's",
            &["no"]
        ));
        assert!(!has_absolute_word("small overall total", en));
        let de = absolute_words(Lang::De);
        assert!(has_absolute_word("Keine Inbox nötig", de));
        assert!(!has_absolute_word("Nurse, Kleinigkeit, Allee", de));
    }
}

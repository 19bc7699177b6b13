//! Cues that give a quiz or decision answer away without the knowledge it asks for. Each item
//! (a quiz question or a decision card) is read the way a test-wise learner reads it:
//! - the wrong options share an opening or a closing of at least [`AFFIX_WORDS_MIN`] words that
//!   the right option lacks, so the odd one out is the answer;
//! - the wrong options share a phrase of at least [`AFFIX_WORDS_MIN`] words anywhere in their
//!   text ("after the commit") that the right option lacks: the same odd one out, mid-sentence;
//! - a glossary term (the course's own word for a concept) appears in the right option and
//!   nowhere else in the item, so the option "in the course's words" is the answer;
//! - absolute words ("never", "nur") stand only on the wrong options, or only on the right one;
//! - the right option is more than [`RIGHT_LENGTH_MAX_PERCENT`] percent as long as the longest
//!   wrong one: the answer that needs a sentence more stands out before it is read;
//! - a quiz option repeats [`ECHO_WORDS_MIN`] words in a row of a decision card's option: the
//!   trainee recognises the card's verdict instead of recalling the idea;
//! - on a decision card the right option is the strictly longest (the quiz holds the same cue
//!   to a share of its bank).
//!
//! The thresholds are what a careful author writes: no item carries any of these cues.

use crate::glossary::find_word;
use crate::{Course, Lang, Problem};

/// Words an opening or closing shared by every wrong option must have to count as a cue. Two
/// words ("the order", "die 37") recur by chance; three ("commit the order, ...") are a pattern.
pub const AFFIX_WORDS_MIN: usize = 3;

/// How long (percent of the longest wrong option, in characters) a right option may be. A
/// careful author keeps the answer within a quarter of the longest distractor; an answer half
/// again as long, with its reason and named APIs, is spotted without being understood.
pub const RIGHT_LENGTH_MAX_PERCENT: usize = 125;

/// Consecutive words a quiz option may share with a decision option before it reads as the same
/// sentence. Five ("the message as a row") are a shared idea; six are a copied line.
pub const ECHO_WORDS_MIN: usize = 6;

/// One multiple-choice item, whichever file it comes from.
pub struct Item<'a> {
    /// Where to report (file path).
    pub path: String,
    /// "question \"x\"" or "decision \"y\"".
    pub name: String,
    /// The text the learner reads before the options (prompt, situation, instruction).
    pub stem: Vec<&'a str>,
    /// The right options' texts.
    pub right: Vec<&'a str>,
    /// The wrong options' texts.
    pub wrong: Vec<&'a str>,
}

/// Checks every quiz question and decision card of `course`.
pub fn check(lang: Lang, course: &Course, problems: &mut Vec<Problem>) {
    let mut items = Vec::new();
    for q in &course.quiz.questions {
        let (right, wrong) = split(q.options.iter().map(|o| (o.correct, o.text.as_str())));
        items.push(Item {
            path: format!("quiz/{lang}/quiz.toml"),
            name: format!("question {:?}", q.id),
            stem: vec![q.prompt.as_str()],
            right,
            wrong,
        });
    }
    for d in &course.decisions {
        let (right, wrong) = split(d.options.iter().map(|o| (o.correct, o.text.as_str())));
        let item = Item {
            path: format!("lessons/{lang}/decisions.toml"),
            name: format!("decision {:?}", d.id),
            stem: vec![
                d.title.as_str(),
                d.situation.as_str(),
                d.instruction.as_str(),
            ],
            right,
            wrong,
        };
        check_longest(&item, problems);
        items.push(item);
    }
    check_echoes(lang, course, problems);
    let terms: Vec<&str> = course
        .glossary
        .terms
        .iter()
        .map(|t| t.term.as_str())
        .collect();
    let absolutes: Vec<&str> = course
        .glossary
        .absolute_words
        .iter()
        .map(String::as_str)
        .collect();
    for item in &items {
        check_item(item, &terms, &absolutes, problems);
    }
}

/// The affix, glossary-term and absolute-word cues of one item.
pub fn check_item(item: &Item<'_>, terms: &[&str], absolutes: &[&str], out: &mut Vec<Problem>) {
    let before = out.len();
    for (side, shared) in [
        ("open", shared_affix(item, false)),
        ("close", shared_affix(item, true)),
    ] {
        if let Some(words) = shared {
            out.push(Problem::file(
                &item.path,
                format!(
                    "{}: every wrong option and not the right one {side} with {words:?}; vary the wrong options or give the right one the same shape",
                    item.name
                ),
            ));
        }
    }
    let affix_reported = out.len() > before;
    if let Some(phrase) = shared_phrase(item).filter(|_| !affix_reported) {
        out.push(Problem::file(
            &item.path,
            format!(
                "{}: every wrong option and not the right one contains {phrase:?}; vary the wrong options or let the right one say it too",
                item.name
            ),
        ));
    }
    if let Some((right, wrong)) = right_stands_out_by_length(item) {
        out.push(Problem::file(
            &item.path,
            format!(
                "{}: the right option has {right} characters, more than {RIGHT_LENGTH_MAX_PERCENT}% of the longest wrong one ({wrong}); shorten it or give a wrong option the same detail",
                item.name
            ),
        ));
    }
    for term in terms_only_in_the_answer(item, terms) {
        out.push(Problem::file(
            &item.path,
            format!(
                "{}: the course term {term:?} appears in the right option and nowhere else in the item; use it in a wrong option too, or describe the idea instead",
                item.name
            ),
        ));
    }
    if let Some(side) = absolutes_on_one_side(item, absolutes) {
        out.push(Problem::file(
            &item.path,
            format!(
                "{}: absolute words ({}) stand only on the {side} options; reword them, or let both sides carry one",
                item.name,
                absolutes.join(", ")
            ),
        ));
    }
}

fn split<'a>(options: impl Iterator<Item = (bool, &'a str)>) -> (Vec<&'a str>, Vec<&'a str>) {
    let (mut right, mut wrong) = (Vec::new(), Vec::new());
    for (correct, text) in options {
        if correct {
            right.push(text);
        } else {
            wrong.push(text);
        }
    }
    (right, wrong)
}

/// Lowercase words without punctuation, so "Commit," and "commit" are one word.
fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The opening (or, with `closing`, the closing) of at least [`AFFIX_WORDS_MIN`] words that
/// every wrong option shares and no right option has. Needs two wrong options: one alone
/// shares everything with itself.
pub fn shared_affix(item: &Item<'_>, closing: bool) -> Option<String> {
    if item.wrong.len() < 2 || item.right.is_empty() {
        return None;
    }
    let oriented = |text: &str| {
        let mut w = words(text);
        if closing {
            w.reverse();
        }
        w
    };
    let wrong: Vec<Vec<String>> = item.wrong.iter().map(|t| oriented(t)).collect();
    let first = &wrong[0];
    let common = (0..first.len())
        .take_while(|&i| wrong.iter().all(|w| w.get(i) == first.get(i)))
        .count();
    if common < AFFIX_WORDS_MIN {
        return None;
    }
    let cue = &first[..AFFIX_WORDS_MIN];
    let right_shares = item
        .right
        .iter()
        .any(|r| oriented(r).get(..AFFIX_WORDS_MIN) == Some(cue));
    if right_shares {
        return None;
    }
    let mut shared = first[..common].to_vec();
    if closing {
        shared.reverse();
    }
    Some(shared.join(" "))
}

/// The longest phrase of at least [`AFFIX_WORDS_MIN`] consecutive words that every wrong option
/// contains somewhere and no right option contains. Needs two wrong options, like
/// [`shared_affix`].
pub fn shared_phrase(item: &Item<'_>) -> Option<String> {
    if item.wrong.len() < 2 || item.right.is_empty() {
        return None;
    }
    let wrong: Vec<Vec<String>> = item.wrong.iter().map(|t| words(t)).collect();
    let right: Vec<Vec<String>> = item.right.iter().map(|t| words(t)).collect();
    let is_cue = |phrase: &[String]| {
        wrong.iter().all(|w| contains_run(w, phrase))
            && !right.iter().any(|r| contains_run(r, phrase))
    };
    let first = &wrong[0];
    let mut best: Option<&[String]> = None;
    for start in 0..first.len().saturating_sub(AFFIX_WORDS_MIN - 1) {
        let mut end = start + AFFIX_WORDS_MIN;
        while end <= first.len() && is_cue(&first[start..end]) {
            end += 1;
        }
        let found = &first[start..end - 1];
        if found.len() >= AFFIX_WORDS_MIN && best.is_none_or(|b| found.len() > b.len()) {
            best = Some(found);
        }
    }
    best.map(|b| b.join(" "))
}

/// Whether `run` occurs as consecutive words in `text`.
fn contains_run(text: &[String], run: &[String]) -> bool {
    text.windows(run.len()).any(|w| w == run)
}

/// The lengths (right, longest wrong) when a right option is longer than
/// [`RIGHT_LENGTH_MAX_PERCENT`] of the longest wrong option.
pub fn right_stands_out_by_length(item: &Item<'_>) -> Option<(usize, usize)> {
    let longest = |texts: &[&str]| texts.iter().map(|t| t.chars().count()).max();
    let (right, wrong) = (longest(&item.right)?, longest(&item.wrong)?);
    (right * 100 > wrong * RIGHT_LENGTH_MAX_PERCENT).then_some((right, wrong))
}

/// Quiz options that repeat a decision option's words.
fn check_echoes(lang: Lang, course: &Course, out: &mut Vec<Problem>) {
    for q in &course.quiz.questions {
        for option in &q.options {
            for d in &course.decisions {
                for card_option in &d.options {
                    if let Some(run) = echo(&option.text, &card_option.text) {
                        out.push(Problem::file(
                            &format!("quiz/{lang}/quiz.toml"),
                            format!(
                                "question {:?} option {:?} repeats decision {:?} option {:?} ({run:?}); say it in the question's own words",
                                q.id, option.id, d.id, card_option.id
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// The first run of [`ECHO_WORDS_MIN`] words that `text` shares with `other`.
pub fn echo(text: &str, other: &str) -> Option<String> {
    let (text, other) = (words(text), words(other));
    text.windows(ECHO_WORDS_MIN)
        .find(|run| contains_run(&other, run))
        .map(|run| run.join(" "))
}

/// Glossary terms in a right option that neither a wrong option nor the stem uses.
pub fn terms_only_in_the_answer<'t>(item: &Item<'_>, terms: &[&'t str]) -> Vec<&'t str> {
    if item.right.len() != 1 {
        return Vec::new(); // several right options: naming a term in some is no odd one out
    }
    let used = |text: &str, term: &str| find_word(text, term).is_some();
    terms
        .iter()
        .copied()
        .filter(|term| used(item.right[0], term))
        .filter(|term| !item.wrong.iter().any(|w| used(w, term)))
        .filter(|term| !item.stem.iter().any(|s| used(s, term)))
        .collect()
}

/// "wrong" or "right" when absolute words stand only on that side of the item.
pub fn absolutes_on_one_side(item: &Item<'_>, absolutes: &[&str]) -> Option<&'static str> {
    let carries = |text: &&str| words(text).iter().any(|w| absolutes.contains(&w.as_str()));
    let wrong = item.wrong.iter().any(carries);
    let right = item.right.iter().any(carries);
    match (wrong, right) {
        (true, false) => Some("wrong"),
        (false, true) if !item.wrong.is_empty() => Some("right"),
        _ => None,
    }
}

/// A decision card whose right option is strictly longer than every wrong one.
fn check_longest(item: &Item<'_>, out: &mut Vec<Problem>) {
    let longest = |texts: &[&str]| texts.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    if !item.wrong.is_empty() && longest(&item.right) > longest(&item.wrong) {
        out.push(Problem::file(
            &item.path,
            format!(
                "{}: the right option is the longest one; shorten it or lengthen a wrong one",
                item.name
            ),
        ));
    }
}

#[cfg(test)]
mod tests;

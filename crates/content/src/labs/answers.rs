//! A lab's other answers beside the reference solution: the plausible wrong ones in `wrong/`,
//! each naming what it must fail with, and the correct variants in `right/`.

use super::super::{ContentSource, Problem};
use super::{expected_failure, is_failure_name, read};

/// The answers of one lab folder: (file name, text) each.
pub(super) struct Answers {
    pub wrong: Vec<(String, String)>,
    pub right: Vec<(String, String)>,
}

impl Answers {
    /// Reads `DIR/wrong/*` and `DIR/right/*`; reports a wrong answer that names no failure a
    /// check can report, and a lab without any wrong answer (nothing would show that its check
    /// tells a wrong answer from a right one).
    pub fn read(source: &ContentSource, dir: &str, problems: &mut Vec<Problem>) -> Self {
        let wrong = wrong_answers(source, dir, problems);
        let mut right = Vec::new();
        for name in source.list(&format!("{dir}/right")) {
            if let Some(t) = read(source, &format!("{dir}/right/{name}"), problems) {
                right.push((name, t));
            }
        }
        if wrong.is_empty() {
            problems.push(Problem::file(
                &format!("{dir}/wrong"),
                "a lab needs at least one plausible wrong answer in wrong/*.sql",
            ));
        }
        Answers { wrong, right }
    }
}

/// Every file in `DIR/wrong`, each checked for its first line `-- expect: NAME`.
fn wrong_answers(
    source: &ContentSource,
    dir: &str,
    problems: &mut Vec<Problem>,
) -> Vec<(String, String)> {
    let mut wrong = Vec::new();
    for name in source.list(&format!("{dir}/wrong")) {
        let rel = format!("{dir}/wrong/{name}");
        if let Some(t) = read(source, &rel, problems) {
            match expected_failure(&t) {
                Some(expect) if is_failure_name(expect) => {}
                _ => problems.push(Problem::file(
                    &rel,
                    "a wrong answer starts with the line `-- expect: NAME`, NAME a moment \
                     (duplicate-effect, lost-order, out-of-order) or a lab invariant",
                )),
            }
            wrong.push((name, t));
        }
    }
    wrong
}

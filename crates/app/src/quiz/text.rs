//! The feedback and result text of the quiz, laid out to a width. Both the view (to draw) and
//! the key handler (to stop scrolling at the end) use these lines, so they cannot disagree.

use super::{QuizPhase, QuizState, current_question};
use crate::Session;
use crate::doc_layout::wrap::wrap;
use crate::doc_layout::{DocLine, Span, Tone};
use content::QuestionOption;
use content::key;
use domain::quiz::Attempt;

/// Splits `text` at backticks: the quoted parts become code, the backticks go away.
pub fn runs(text: &str, tone: Tone) -> Vec<(String, Tone)> {
    text.split('`')
        .enumerate()
        .filter(|(_, part)| !part.is_empty())
        .map(|(i, part)| (part.to_owned(), if i % 2 == 1 { Tone::Code } else { tone }))
        .collect()
}

/// A paragraph wrapped to `width`, the first line after `lead`, the rest indented to match.
fn para(out: &mut Vec<DocLine>, lead: &str, text: &str, tone: Tone, width: usize) {
    let first = [Span {
        text: lead.to_owned(),
        tone,
    }];
    let rest = [Span {
        text: " ".repeat(lead.chars().count()),
        tone,
    }];
    let wrapped = wrap(&runs(text, tone), width.max(10), &first, &rest);
    if wrapped.is_empty() {
        out.push(DocLine::new(first.to_vec()));
    }
    out.extend(wrapped.into_iter().map(DocLine::new));
}

/// The lines of the feedback or result phase (empty for the others).
pub fn lines(session: &Session, state: &QuizState, width: usize) -> Vec<DocLine> {
    let Some(attempt) = session.quiz.attempt.as_ref() else {
        return Vec::new();
    };
    match state.phase {
        QuizPhase::Feedback { correct } => feedback(session, attempt, state, correct, width),
        QuizPhase::Result => result(session, attempt, width),
        _ => Vec::new(),
    }
}

/// The largest useful scroll offset of the feedback or result text.
pub fn max_scroll(session: &Session, state: &QuizState) -> u16 {
    let area = crate::layout::reader_text(session.size.0, session.size.1);
    let count = lines(session, state, usize::from(area.width)).len();
    u16::try_from(count.saturating_sub(usize::from(area.height))).unwrap_or(u16::MAX)
}

fn feedback(
    session: &Session,
    attempt: &Attempt,
    state: &QuizState,
    correct: bool,
    width: usize,
) -> Vec<DocLine> {
    let s = session.strings();
    let Some(question) = current_question(session, state) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    para(
        &mut out,
        "",
        &progress(session, attempt, &question.id),
        Tone::Dim,
        width,
    );
    para(&mut out, "", &question.prompt, Tone::Bold, width);
    out.push(DocLine::blank());
    // Verdict, the way on and the explanation come first: the option list below may not fit.
    let (verdict, tone) = if correct {
        (s.get(key::quiz::RIGHT), Tone::Good)
    } else {
        (s.get(key::quiz::WRONG), Tone::Bad)
    };
    out.push(DocLine::new(vec![
        Span {
            text: verdict.to_owned(),
            tone,
        },
        Span {
            text: format!("   Enter: {}", s.get(key::quiz::CONTINUE)),
            tone: Tone::Focus,
        },
    ]));
    let why = s.fill(key::quiz::EXPLANATION, &[("text", &question.explanation)]);
    para(&mut out, "", &why, Tone::Text, width);
    out.push(DocLine::blank());
    let chosen: Vec<String> = attempt
        .chosen(question)
        .iter()
        .map(|o| o.id.clone())
        .collect();
    let (on, off) = if question.multi {
        ("[x]", "[ ]")
    } else {
        ("(o)", "( )")
    };
    for (i, option) in attempt.options(question).iter().enumerate() {
        let picked = chosen.contains(&option.id);
        let mark = if picked { on } else { off };
        para(
            &mut out,
            &format!("{mark} {}. ", i + 1),
            &option.text,
            Tone::Text,
            width,
        );
        if let Some((key, tone)) = verdict_of(option, picked) {
            para(&mut out, "    ", s.get(key), tone, width);
        }
        para(&mut out, "    ", &option.why, Tone::Dim, width);
    }
    out
}

/// What the learner did with one option: picked it rightly or wrongly, or missed a right one.
fn verdict_of(option: &QuestionOption, picked: bool) -> Option<(content::Key, Tone)> {
    match (picked, option.correct) {
        (true, true) => Some((key::quiz::PICKED_RIGHT, Tone::Good)),
        (true, false) => Some((key::quiz::PICKED_WRONG, Tone::Bad)),
        (false, true) => Some((key::quiz::MISSED, Tone::Bad)),
        (false, false) => None,
    }
}

/// "Question n of 10": counted over the questions this attempt drew, not the whole bank.
fn progress(session: &Session, attempt: &Attempt, question_id: &str) -> String {
    let questions = attempt.questions(&session.course().quiz);
    let n = questions
        .iter()
        .position(|q| q.id == question_id)
        .map_or(0, |i| i + 1);
    session.strings().fill(
        key::quiz::PROGRESS,
        &[
            ("n", &n.to_string()),
            ("total", &questions.len().to_string()),
        ],
    )
}

/// The result page: the score, the level and its next steps, the review and the keys onward.
fn result(session: &Session, attempt: &Attempt, width: usize) -> Vec<DocLine> {
    let s = session.strings();
    let quiz = &session.course().quiz;
    let score = attempt.score(quiz);
    let mut out = Vec::new();
    para(
        &mut out,
        "",
        s.get(key::quiz::RESULT_TITLE),
        Tone::Subheading,
        width,
    );
    let line = s.fill(
        key::quiz::SCORE,
        &[
            ("score", &score.correct.to_string()),
            ("total", &score.total.to_string()),
        ],
    );
    para(&mut out, "", &line, Tone::Bold, width);
    if let Some(level) = score.level {
        para(
            &mut out,
            "",
            &s.fill(key::quiz::LEVEL, &[("level", &level.name)]),
            Tone::Text,
            width,
        );
        out.push(DocLine::blank());
        para(
            &mut out,
            "",
            s.get(key::quiz::NEXT_STEPS),
            Tone::Subheading,
            width,
        );
        // The report's list, from the same source.
        for step in domain::report::next_steps_for(session.course(), attempt) {
            para(&mut out, "- ", &step, Tone::Text, width);
        }
    }
    out.push(DocLine::blank());
    review_lines(session, attempt, width, &mut out);
    out.push(DocLine::blank());
    let keys = format!(
        "m: {}   r: {}",
        s.get(key::quiz::TO_REPORT),
        s.get(key::quiz::RETAKE)
    );
    para(&mut out, "", &keys, Tone::Focus, width);
    out
}

/// The review: every question answered wrong with the learner's and the right answer and the
/// explanation, or a line saying there is none.
fn review_lines(session: &Session, attempt: &Attempt, width: usize, out: &mut Vec<DocLine>) {
    let s = session.strings();
    let quiz = &session.course().quiz;
    let review = attempt.review(quiz);
    if review.is_empty() {
        para(out, "", s.get(key::quiz::REVIEW_NONE), Tone::Text, width);
    } else {
        para(out, "", s.get(key::quiz::REVIEW), Tone::Subheading, width);
        let join = |opts: &[&QuestionOption]| {
            opts.iter()
                .map(|o| o.text.as_str())
                .collect::<Vec<_>>()
                .join(" | ")
        };
        for r in review {
            para(out, "- ", &r.question.prompt, Tone::Bold, width);
            let yours = s.fill(key::quiz::YOUR_ANSWER, &[("answer", &join(&r.chosen))]);
            para(out, "  ", &yours, Tone::Text, width);
            let right = s.fill(key::quiz::RIGHT_ANSWER, &[("answer", &join(&r.correct))]);
            para(out, "  ", &right, Tone::Text, width);
            let why = s.fill(key::quiz::EXPLANATION, &[("text", &r.question.explanation)]);
            para(out, "  ", &why, Tone::Dim, width);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::runs;
    use crate::doc_layout::Tone;

    #[test]
    fn backticks_become_code_and_disappear() {
        assert_eq!(
            runs("run `lost-ack` now", Tone::Text),
            vec![
                ("run ".to_owned(), Tone::Text),
                ("lost-ack".to_owned(), Tone::Code),
                (" now".to_owned(), Tone::Text),
            ]
        );
    }
}

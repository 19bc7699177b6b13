//! The final quiz (`quiz/LANG/quiz.toml`): questions, options and levels.

mod cues;
mod pairs;

use super::Problem;
use super::toml_file::{self, at, check_duplicate_options, check_ids, check_text, check_version};
use serde::Deserialize;
use toml::Spanned;

/// Questions per attempt: one drawn per topic.
pub const QUESTION_COUNT: usize = 10;
/// The smallest question bank the quiz accepts.
pub const BANK_MIN: usize = 30;
/// The fewest questions per topic, so a retake can ask something else.
pub const PER_TOPIC_MIN: usize = 3;
/// The topics a question may cover; an attempt asks one question of each, in this order.
pub const TOPICS: [&str; QUESTION_COUNT] = [
    "service-bus",
    "sqs",
    "outbox",
    "inbox",
    "claim-check",
    "idempotency",
    "retry",
    "telemetry",
    "dlq",
    "ordering",
];

/// The quiz of one language.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Quiz {
    /// Levels by ascending `min_score`.
    pub levels: Vec<QuizLevel>,
    /// The question bank, in file order (an attempt draws from it).
    pub questions: Vec<Question>,
}

/// A result level with its threshold and next steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizLevel {
    /// `beginner`, `practitioner`, `senior`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The lowest score that reaches this level.
    pub min_score: u32,
    /// What to do next at this level.
    pub next_steps: Vec<String>,
}

/// A quiz question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// Stable id.
    pub id: String,
    /// One of [`TOPICS`].
    pub topic: String,
    /// The question text.
    pub prompt: String,
    /// Whether several options are correct.
    pub multi: bool,
    /// Shown after the answer.
    pub explanation: String,
    /// The options, in file order (the quiz shuffles them per attempt).
    pub options: Vec<QuestionOption>,
    /// Questions of other topics that ask the same fact; an attempt asks at most one of a pair
    /// (the relation holds both ways, whichever side names it).
    pub shares_fact_with: Vec<String>,
    /// Line of the id in the file.
    pub id_line: usize,
}

/// An option of a quiz question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionOption {
    /// Stable id within the question.
    pub id: String,
    /// The option text.
    pub text: String,
    /// Whether it belongs to the right answer.
    pub correct: bool,
    /// Why it is right or wrong.
    pub why: String,
}

impl Quiz {
    /// The level a score reaches: the highest whose threshold the score meets.
    pub fn level_for(&self, score: u32) -> Option<&QuizLevel> {
        self.levels
            .iter()
            .filter(|l| l.min_score <= score)
            .max_by_key(|l| l.min_score)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format_version: Spanned<u32>,
    level: Vec<RawLevel>,
    #[serde(default)]
    question: Vec<RawQuestion>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLevel {
    id: Spanned<String>,
    name: Spanned<String>,
    min_score: Spanned<u32>,
    next_steps: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuestion {
    id: Spanned<String>,
    topic: Spanned<String>,
    prompt: Spanned<String>,
    #[serde(default)]
    multi: bool,
    explanation: Spanned<String>,
    #[serde(default)]
    shares_fact_with: Vec<Spanned<String>>,
    option: Vec<RawOption>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOption {
    id: Spanned<String>,
    text: Spanned<String>,
    correct: bool,
    why: Spanned<String>,
}

/// Parses and checks one quiz file.
pub fn parse(path: &str, text: &str, problems: &mut Vec<Problem>) -> Quiz {
    let file: File = match toml_file::parse(path, text) {
        Ok(f) => f,
        Err(p) => {
            problems.push(p);
            return Quiz::default();
        }
    };
    check_version(path, text, &file.format_version, problems);
    check_levels(path, text, &file.level, problems);
    check_ids(
        path,
        text,
        "question",
        file.question.iter().map(|q| &q.id),
        problems,
    );
    check_bank(path, &file.question, problems);
    cues::check_longest(path, &file.question, problems);
    cues::check_positions(path, &file.question, problems);
    pairs::check(path, text, &file.question, problems);
    for q in &file.question {
        check_question(path, text, q, problems);
    }
    Quiz {
        levels: file
            .level
            .into_iter()
            .map(|l| QuizLevel {
                id: l.id.into_inner(),
                name: l.name.into_inner(),
                min_score: l.min_score.into_inner(),
                next_steps: l.next_steps,
            })
            .collect(),
        questions: file
            .question
            .into_iter()
            .map(|q| Question {
                id_line: super::problem::line_column(text, q.id.span().start).0,
                id: q.id.into_inner(),
                topic: q.topic.into_inner(),
                prompt: q.prompt.into_inner(),
                multi: q.multi,
                explanation: q.explanation.into_inner(),
                shares_fact_with: q
                    .shares_fact_with
                    .into_iter()
                    .map(Spanned::into_inner)
                    .collect(),
                options: q
                    .option
                    .into_iter()
                    .map(|o| QuestionOption {
                        id: o.id.into_inner(),
                        text: o.text.into_inner(),
                        correct: o.correct,
                        why: o.why.into_inner(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn check_levels(path: &str, text: &str, levels: &[RawLevel], problems: &mut Vec<Problem>) {
    let ids: Vec<&str> = levels.iter().map(|l| l.id.get_ref().as_str()).collect();
    if ids != super::reference::LEVEL_IDS {
        problems.push(Problem::file(
            path,
            "quiz levels must be beginner, practitioner, senior in this order",
        ));
    }
    let mut previous: Option<u32> = None;
    for level in levels {
        check_text(path, text, "level name", &level.name, problems);
        let min = *level.min_score.get_ref();
        if previous.is_none() && min != 0 {
            problems.push(at(
                path,
                text,
                &level.min_score,
                "the first level must start at min_score 0",
            ));
        }
        if previous.is_some_and(|p| min <= p) || min > QUESTION_COUNT as u32 {
            problems.push(at(
                path,
                text,
                &level.min_score,
                format!(
                    "min_score {min} must rise from level to level and stay <= {QUESTION_COUNT}"
                ),
            ));
        }
        if level.next_steps.is_empty() {
            problems.push(at(
                path,
                text,
                &level.id,
                "a level needs at least one next step",
            ));
        }
        previous = Some(min);
    }
}

/// Bank size and questions per topic.
fn check_bank(path: &str, questions: &[RawQuestion], problems: &mut Vec<Problem>) {
    if questions.len() < BANK_MIN {
        problems.push(Problem::file(
            path,
            format!(
                "found {} questions; the bank needs at least {BANK_MIN}",
                questions.len()
            ),
        ));
    }
    for topic in TOPICS {
        let n = questions
            .iter()
            .filter(|q| q.topic.get_ref() == topic)
            .count();
        if n < PER_TOPIC_MIN {
            problems.push(Problem::file(
                path,
                format!(
                    "topic {topic:?} has {n} questions; every topic needs at least {PER_TOPIC_MIN}"
                ),
            ));
        }
    }
}

fn check_question(path: &str, text: &str, q: &RawQuestion, problems: &mut Vec<Problem>) {
    if !TOPICS.contains(&q.topic.get_ref().as_str()) {
        problems.push(at(
            path,
            text,
            &q.topic,
            format!(
                "topic {:?} is not one of {}",
                q.topic.get_ref(),
                TOPICS.join(", ")
            ),
        ));
    }
    check_text(path, text, "prompt", &q.prompt, problems);
    check_text(path, text, "explanation", &q.explanation, problems);
    check_ids(
        path,
        text,
        "option",
        q.option.iter().map(|o| &o.id),
        problems,
    );
    for o in &q.option {
        check_text(path, text, "option text", &o.text, problems);
        check_text(path, text, "option why", &o.why, problems);
    }
    check_duplicate_options(
        path,
        text,
        &format!("question {:?}", q.id.get_ref()),
        q.option.iter().map(|o| (&o.id, &o.text)),
        problems,
    );
    let correct = q.option.iter().filter(|o| o.correct).count();
    let wrong = q.option.len() - correct;
    let id = q.id.get_ref();
    if q.multi && (correct < 2 || wrong < 1) {
        problems.push(at(
            path,
            text,
            &q.id,
            format!("multi-select question {id:?} has {correct} correct and {wrong} wrong options; it needs at least two correct and one wrong"),
        ));
    } else if !q.multi && (correct != 1 || wrong < 1) {
        problems.push(at(
            path,
            text,
            &q.id,
            format!("single-choice question {id:?} has {correct} correct options; exactly one must be correct (and at least one wrong)"),
        ));
    }
}

#[cfg(test)]
mod tests;

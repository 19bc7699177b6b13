//! The personal report: one list of blocks rendered twice, as plain text and as HTML, so both parts
//! always say the same. Every dynamic text is escaped in the HTML.

use content::key;

mod progress;
mod render;

use super::Progress;
use super::quiz::Attempt;
use content::{Course, Lang, Scenario};

pub use crate::html::escape_html;
use progress::push_progress;
pub use render::{html, text};

/// What the report is built from.
#[derive(Debug, Clone, Copy)]
pub struct ReportInput<'a> {
    /// The course in the report's language.
    pub course: &'a Course,
    /// All simulator scenarios (for their titles).
    pub scenarios: &'a [Scenario],
    /// The report's language.
    pub lang: Lang,
    /// Workshop name (from the config, or the app title).
    pub workshop: &'a str,
    /// The date line, already formatted by the caller (the domain reads no clock).
    pub date: &'a str,
    /// The learner's progress.
    pub progress: &'a Progress,
    /// The quiz attempt the report is about.
    pub attempt: &'a Attempt,
    /// The learner's display name, already checked by [`display_name`] (None: no name).
    pub learner: Option<&'a str>,
    /// The course's labs (for their numbers and titles).
    pub labs: &'a [content::Lab],
    /// Lab id -> the learner's checks of it (a lab never checked is not there).
    pub lab_results: &'a std::collections::BTreeMap<String, crate::LabResult>,
}

/// Longest display name the report takes (it also goes into a mail subject).
pub const MAX_NAME_CHARS: usize = 60;

/// Why a display name is refused; each names its string key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Longer than [`MAX_NAME_CHARS`].
    #[error("the name is longer than {MAX_NAME_CHARS} characters")]
    TooLong,
    /// Holds a line break, tab or other control character.
    #[error("the name holds a control character (line break, tab)")]
    Control,
}

impl NameError {
    /// The UI string key of the message.
    pub fn key(self) -> content::Key {
        match self {
            NameError::TooLong => key::report::NAME_TOO_LONG,
            NameError::Control => key::report::NAME_CONTROL,
        }
    }
}

/// Checks a display name: trimmed; empty means "no name".
pub fn display_name(input: &str) -> Result<Option<String>, NameError> {
    let name = input.trim();
    if name.chars().any(char::is_control) {
        return Err(NameError::Control);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(NameError::TooLong);
    }
    Ok((!name.is_empty()).then(|| name.to_owned()))
}

/// One block of the report.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Block {
    /// A section heading.
    Heading(String),
    /// A paragraph.
    Para(String),
    /// A list item (consecutive items form one list).
    Item(String),
}

/// The finished report (serialisable: a joined trainee hands it to the workshop host to mail).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// Mail subject.
    pub subject: String,
    /// Language of the text (for the HTML `lang` attribute).
    pub lang: Lang,
    /// The blocks both renderings come from.
    pub blocks: Vec<Block>,
}

impl Report {
    /// Plain-text rendering.
    pub fn text(&self) -> String {
        text(&self.subject, &self.blocks)
    }

    /// HTML rendering (a complete document, everything escaped).
    pub fn html(&self) -> String {
        html(&self.subject, &self.blocks, self.lang.code())
    }
}

/// Builds the report.
pub fn build(input: &ReportInput<'_>) -> Report {
    let s = &input.course.strings;
    let quiz = &input.course.quiz;
    let score = input.attempt.score(quiz);
    // Who, score and level first, what to do next right below; the details follow.
    let mut blocks: Vec<Block> = input
        .learner
        .map(|name| Block::Para(s.fill(key::report::LEARNER, &[("name", name)])))
        .into_iter()
        .collect();
    blocks.push(Block::Para(s.fill(
        key::report::SCORE,
        &[
            ("score", &score.correct.to_string()),
            ("total", &score.total.to_string()),
            ("level", score.level.map_or("-", |l| l.name.as_str())),
        ],
    )));
    blocks.push(Block::Heading(s.get(key::report::NEXT_STEPS).to_owned()));
    blocks.extend(next_steps(input).into_iter().map(Block::Item));
    blocks.push(Block::Heading(s.get(key::report::DETAILS).to_owned()));
    blocks.push(Block::Para(
        s.fill(key::report::DATE, &[("date", input.date)]),
    ));
    blocks.push(Block::Para(
        s.fill(key::report::WORKSHOP, &[("name", input.workshop)]),
    ));
    let read = input
        .course
        .chapters
        .iter()
        .filter(|c| input.progress.chapters_read.contains(&c.id))
        .count();
    blocks.push(Block::Para(s.fill(
        key::report::CHAPTERS_READ,
        &[
            ("n", &read.to_string()),
            ("total", &input.course.chapters.len().to_string()),
        ],
    )));
    blocks.push(Block::Heading(s.get(key::report::QUIZ).to_owned()));
    push_quiz(input, &mut blocks);
    push_progress(input, &mut blocks);
    blocks.push(Block::Para(s.get(key::report::FOOTER).to_owned()));
    // Course texts mark ids with `code` for the screen; a mail shows plain words.
    for block in &mut blocks {
        let (Block::Heading(text) | Block::Para(text) | Block::Item(text)) = block;
        text.retain(|c| c != '`');
    }
    let subject = subject(input);
    Report {
        subject,
        lang: input.lang,
        blocks,
    }
}

/// The product's name as the subject strings spell it.
const PRODUCT: &str = "queuelab";

fn next_steps(input: &ReportInput<'_>) -> Vec<String> {
    next_steps_for(input.course, input.attempt)
}

/// What to do next after `attempt`, the one list the result screen and the report both show:
/// one step per topic the learner got wrong (in quiz order, each topic once), so two
/// different sets of wrong answers get different steps; the level's steps fill up to
/// [`MIN_NEXT_STEPS`] (and are all there is after a quiz without a mistake).
pub fn next_steps_for(course: &Course, attempt: &Attempt) -> Vec<String> {
    let s = &course.strings;
    let quiz = &course.quiz;
    let mut topics: Vec<&str> = Vec::new();
    for q in attempt.questions(quiz) {
        let answered = !attempt.chosen(q).is_empty();
        if answered && !attempt.is_correct(q) && !topics.contains(&q.topic.as_str()) {
            topics.push(q.topic.as_str());
        }
    }
    let mut steps: Vec<String> = topics
        .iter()
        // A topic without a step (an unchecked `--content` folder) adds none.
        .filter_map(|topic| s.lookup(step_key(topic)?.name()).map(str::to_owned))
        .collect();
    let level_steps = attempt
        .score(quiz)
        .level
        .map(|l| l.next_steps.clone())
        .unwrap_or_default();
    for step in level_steps {
        if steps.len() >= MIN_NEXT_STEPS {
            break;
        }
        steps.push(step);
    }
    steps
}

/// Each question of the attempt: the learner's answer with its verdict (right, partly right
/// with the right picks named, wrong or unanswered), the right answer and the explanation.
fn push_quiz(input: &ReportInput<'_>, blocks: &mut Vec<Block>) {
    let s = &input.course.strings;
    let quiz = &input.course.quiz;
    for (n, q) in input.attempt.questions(quiz).into_iter().enumerate() {
        let chosen = input.attempt.chosen(q);
        let correct = input.attempt.is_correct(q);
        let hits = chosen.iter().filter(|o| o.correct).count();
        // A partly right multi-select says which picks were right, not just "wrong".
        let partly = q.multi && !correct && hits > 0;
        let answer = if chosen.is_empty() {
            s.get(key::report::NO_ANSWER).to_owned()
        } else if partly {
            chosen
                .iter()
                .map(|o| {
                    let key = if o.correct {
                        key::report::PICK_RIGHT
                    } else {
                        key::report::PICK_WRONG
                    };
                    s.fill(key, &[("text", &o.text)])
                })
                .collect::<Vec<_>>()
                .join(" | ")
        } else {
            join(chosen.iter().map(|o| o.text.as_str()))
        };
        let verdict = if correct {
            s.get(key::report::RIGHT).to_owned()
        } else if partly {
            s.fill(
                key::report::PARTLY_RIGHT,
                &[
                    ("hits", &hits.to_string()),
                    (
                        "total",
                        &q.options.iter().filter(|o| o.correct).count().to_string(),
                    ),
                ],
            )
        } else {
            s.get(key::report::WRONG).to_owned()
        };
        let right = join(
            q.options
                .iter()
                .filter(|o| o.correct)
                .map(|o| o.text.as_str()),
        );
        blocks.push(Block::Para(format!("{}. {}", n + 1, q.prompt)));
        blocks.push(Block::Item(s.fill(
            key::report::YOUR_ANSWER,
            &[("answer", &answer), ("verdict", &verdict)],
        )));
        blocks.push(Block::Item(
            s.fill(key::report::RIGHT_ANSWER, &[("answer", &right)]),
        ));
        blocks.push(Block::Item(
            s.fill(key::report::EXPLANATION, &[("text", &q.explanation)]),
        ));
    }
}

/// The report's subject: the workshop's name (unless it names the product) and the learner's.
fn subject(input: &ReportInput<'_>) -> String {
    let s = &input.course.strings;
    // The name goes into the subject so an instructor's copy says whose report it is. A
    // workshop named after the product (the default) is not put before it a second time.
    // "Queue Lab" and "queuelab" both name it: spaces and case do not count.
    let names_product = input
        .workshop
        .to_lowercase()
        .replace([' ', '-'], "")
        .contains(PRODUCT);
    match (input.learner, names_product) {
        (Some(name), false) => s.fill(
            key::report::SUBJECT_NAMED,
            &[("workshop", input.workshop), ("name", name)],
        ),
        (Some(name), true) => s.fill(key::report::SUBJECT_NAMED_PLAIN, &[("name", name)]),
        (None, false) => s.fill(key::report::SUBJECT, &[("workshop", input.workshop)]),
        (None, true) => s.get(key::report::SUBJECT_PLAIN).to_owned(),
    }
}

/// The key of the next step for quiz topic `topic` (one of [`content::TOPICS`]), or `None` for
/// a topic this version has no step for.
pub fn step_key(topic: &str) -> Option<content::Key> {
    Some(match topic {
        "service-bus" => key::report::STEP_SERVICE_BUS,
        "sqs" => key::report::STEP_SQS,
        "outbox" => key::report::STEP_OUTBOX,
        "inbox" => key::report::STEP_INBOX,
        "claim-check" => key::report::STEP_CLAIM_CHECK,
        "idempotency" => key::report::STEP_IDEMPOTENCY,
        "retry" => key::report::STEP_RETRY,
        "telemetry" => key::report::STEP_TELEMETRY,
        "dlq" => key::report::STEP_DLQ,
        "ordering" => key::report::STEP_ORDERING,
        _ => return None,
    })
}

/// Fewest next steps a report lists (the level's fill up the topic steps).
const MIN_NEXT_STEPS: usize = 3;

/// The UTC calendar date of a Unix time as `YYYY-MM-DD` (Howard Hinnant's days-to-civil).
pub fn iso_date(unix_secs: i64) -> String {
    let days = unix_secs.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn join<'a>(parts: impl Iterator<Item = &'a str>) -> String {
    parts.collect::<Vec<_>>().join(" | ")
}

#[cfg(test)]
mod steps_tests;
#[cfg(test)]
mod tests;

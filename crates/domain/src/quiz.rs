//! The final quiz as the learner takes it: attempts that draw one question per topic from the
//! bank (never both questions of a same-fact pair) and fix a seeded option order per question, scoring (multi-select counts only when exactly the correct options are chosen), the level a
//! score reaches, and the review of wrong answers.

mod choice;

use content::{Question, QuestionOption, Quiz, QuizLevel, TOPICS};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use std::collections::{BTreeMap, BTreeSet};

pub use choice::{ChoiceError, parse_choice};

/// One attempt at the quiz. Earlier attempts are kept; the newest unfinished one is resumed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Attempt {
    /// Store id of the attempt (0 before it is saved).
    pub id: i64,
    /// The seed the drawn questions and the option order came from (kept for the record).
    pub seed: u64,
    /// Drawn question id -> option ids in the order shown in this attempt. Its keys are the
    /// questions of this attempt. Stored as computed, so a later change of the draw or shuffle
    /// algorithm cannot change a resumed attempt.
    pub order: BTreeMap<String, Vec<String>>,
    /// Question id -> chosen option ids.
    pub answers: BTreeMap<String, BTreeSet<String>>,
}

/// The result of a finished (or partly finished) attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score<'a> {
    /// Questions answered correctly.
    pub correct: u32,
    /// Questions in the quiz.
    pub total: u32,
    /// The level reached (none only when the quiz file defines no levels).
    pub level: Option<&'a QuizLevel>,
}

/// One option as the feedback shows it after an answer: whether the learner picked it and
/// whether it is correct, so a multi-select answer can tell "picked and right" from "missed".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionMark<'a> {
    /// The option.
    pub option: &'a QuestionOption,
    /// The learner chose it.
    pub picked: bool,
    /// It belongs to the right answer.
    pub correct: bool,
}

impl OptionMark<'_> {
    /// A correct option the learner did not choose.
    pub fn missed(&self) -> bool {
        self.correct && !self.picked
    }

    /// A wrong option the learner chose.
    pub fn wrongly_picked(&self) -> bool {
        self.picked && !self.correct
    }
}

/// A wrong answer, for the review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review<'a> {
    /// The question.
    pub question: &'a Question,
    /// The options the learner chose.
    pub chosen: Vec<&'a QuestionOption>,
    /// The correct options.
    pub correct: Vec<&'a QuestionOption>,
}

impl Attempt {
    /// A new attempt whose questions and option order come from `seed`.
    pub fn new(quiz: &Quiz, seed: u64) -> Attempt {
        Attempt {
            id: 0,
            seed,
            order: shuffled_order(quiz, seed),
            answers: BTreeMap::new(),
        }
    }

    /// The options of `question` in this attempt's order (file order for unknown ids, so a
    /// question added to the file after the attempt started still shows).
    pub fn options<'a>(&self, question: &'a Question) -> Vec<&'a QuestionOption> {
        let Some(ids) = self.order.get(&question.id) else {
            return question.options.iter().collect();
        };
        let mut shown: Vec<&QuestionOption> = ids
            .iter()
            .filter_map(|id| question.options.iter().find(|o| &o.id == id))
            .collect();
        for o in &question.options {
            if !ids.contains(&o.id) {
                shown.push(o);
            }
        }
        shown
    }

    /// The questions of this attempt, in bank (file) order. An attempt stored before the bank
    /// knew any of its ids falls back to the whole bank, so it can still be finished.
    pub fn questions<'a>(&self, quiz: &'a Quiz) -> Vec<&'a Question> {
        let drawn: Vec<&Question> = quiz
            .questions
            .iter()
            .filter(|q| self.order.contains_key(&q.id))
            .collect();
        if drawn.is_empty() {
            quiz.questions.iter().collect()
        } else {
            drawn
        }
    }

    /// The first question (in attempt order) without an answer.
    pub fn next_question<'a>(&self, quiz: &'a Quiz) -> Option<&'a Question> {
        self.questions(quiz)
            .into_iter()
            .find(|q| !self.answers.contains_key(&q.id))
    }

    /// Index of the next unanswered question, or the count when all are answered.
    pub fn position(&self, quiz: &Quiz) -> usize {
        let questions = self.questions(quiz);
        questions
            .iter()
            .position(|q| !self.answers.contains_key(&q.id))
            .unwrap_or(questions.len())
    }

    /// The question answered last when answers come in attempt order: the one right before the
    /// first unanswered one (or the last question once all are answered).
    pub fn last_answered<'a>(&self, quiz: &'a Quiz) -> Option<&'a Question> {
        let index = self.position(quiz).checked_sub(1)?;
        self.questions(quiz).get(index).copied()
    }

    /// How many questions this attempt asks.
    pub fn total(&self, quiz: &Quiz) -> usize {
        self.questions(quiz).len()
    }

    /// Whether every question has an answer.
    pub fn is_complete(&self, quiz: &Quiz) -> bool {
        self.next_question(quiz).is_none()
    }

    /// Records an answer (replacing an earlier one to the same question).
    pub fn answer(&mut self, question_id: &str, chosen: BTreeSet<String>) {
        self.answers.insert(question_id.to_owned(), chosen);
    }

    /// Whether the answer to `question` is right.
    pub fn is_correct(&self, question: &Question) -> bool {
        self.answers
            .get(&question.id)
            .is_some_and(|chosen| is_correct(question, chosen))
    }

    /// Score and level.
    pub fn score<'a>(&self, quiz: &'a Quiz) -> Score<'a> {
        let questions = self.questions(quiz);
        let correct = questions.iter().filter(|q| self.is_correct(q)).count() as u32;
        Score {
            correct,
            total: questions.len() as u32,
            level: quiz.level_for(correct),
        }
    }

    /// The answered questions that were wrong, in attempt order.
    pub fn review<'a>(&self, quiz: &'a Quiz) -> Vec<Review<'a>> {
        self.questions(quiz)
            .into_iter()
            .filter(|q| self.answers.contains_key(&q.id) && !self.is_correct(q))
            .map(|q| Review {
                question: q,
                chosen: self.chosen(q),
                correct: q.options.iter().filter(|o| o.correct).collect(),
            })
            .collect()
    }

    /// Every option of `question` in this attempt's order, marked picked and/or correct.
    pub fn marks<'a>(&self, question: &'a Question) -> Vec<OptionMark<'a>> {
        let chosen = self.answers.get(&question.id);
        self.options(question)
            .into_iter()
            .map(|option| OptionMark {
                option,
                picked: chosen.is_some_and(|c| c.contains(&option.id)),
                correct: option.correct,
            })
            .collect()
    }

    /// The options the learner chose for `question`, in this attempt's order.
    pub fn chosen<'a>(&self, question: &'a Question) -> Vec<&'a QuestionOption> {
        let Some(chosen) = self.answers.get(&question.id) else {
            return Vec::new();
        };
        self.options(question)
            .into_iter()
            .filter(|o| chosen.contains(&o.id))
            .collect()
    }
}

/// Whether `chosen` is exactly the set of correct options ("all and only").
pub fn is_correct(question: &Question, chosen: &BTreeSet<String>) -> bool {
    right_options(question) == *chosen
}

/// The ids of a question's correct options.
pub fn right_options(question: &Question) -> BTreeSet<String> {
    question
        .options
        .iter()
        .filter(|o| o.correct)
        .map(|o| o.id.clone())
        .collect()
}

/// A wrong answer to `question`: its first incorrect option alone (tests answer wrongly on purpose).
#[cfg(test)]
pub(crate) fn one_wrong_option(question: &Question) -> BTreeSet<String> {
    question
        .options
        .iter()
        .filter(|o| !o.correct)
        .take(1)
        .map(|o| o.id.clone())
        .collect()
}

/// The drawn questions of an attempt for `seed` with their option order: one question per
/// topic (in [`TOPICS`] order) drawn from the bank, then each drawn question's options shuffled,
/// all from one generator, so the whole attempt follows from the seed.
pub fn shuffled_order(quiz: &Quiz, seed: u64) -> BTreeMap<String, Vec<String>> {
    let mut rng = StdRng::seed_from_u64(seed);
    draw(quiz, &mut rng)
        .into_iter()
        .map(|q| {
            let mut ids: Vec<String> = q.options.iter().map(|o| o.id.clone()).collect();
            ids.shuffle(&mut rng);
            (q.id.clone(), ids)
        })
        .collect()
}

/// One question per topic that has any; a bank without topics (a test fixture) is asked whole.
/// A question that shares a fact with one already drawn (`shares_fact_with`, either side) is
/// left out of its topic's pool, so one answer never gives away another; `check` keeps an
/// unpaired question in every topic, and the whole pool stands in should that ever fail.
fn draw<'a>(quiz: &'a Quiz, rng: &mut StdRng) -> Vec<&'a Question> {
    let mut excluded: BTreeSet<&str> = BTreeSet::new();
    let mut drawn: Vec<&Question> = Vec::new();
    for topic in TOPICS {
        let in_topic: Vec<&Question> = quiz.questions.iter().filter(|q| q.topic == topic).collect();
        let open: Vec<&Question> = in_topic
            .iter()
            .copied()
            .filter(|q| !excluded.contains(q.id.as_str()))
            .collect();
        let pool = if open.is_empty() { in_topic } else { open };
        if let Some(q) = pool.choose(rng).copied() {
            excluded.extend(same_fact_partners(quiz, q));
            drawn.push(q);
        }
    }
    if drawn.is_empty() {
        quiz.questions.iter().collect()
    } else {
        drawn
    }
}

/// The ids of the questions that ask the same fact as `question`, whichever of the two names
/// the other.
pub fn same_fact_partners<'a>(quiz: &'a Quiz, question: &'a Question) -> BTreeSet<&'a str> {
    let named = question.shares_fact_with.iter().map(String::as_str);
    let naming = quiz
        .questions
        .iter()
        .filter(|q| q.shares_fact_with.contains(&question.id))
        .map(|q| q.id.as_str());
    named.chain(naming).collect()
}

#[cfg(test)]
mod tests;

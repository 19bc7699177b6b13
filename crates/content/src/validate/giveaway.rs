//! The learner predicts before the course explains: a decision card must come before any text that
//! teaches its answer. Each card lists the words that give its right option away (`reveals` in
//! `decisions.toml`); none of them may appear
//! - in any chapter title or summary, because the chapter list shows them all from the start;
//! - in the card's own situation or instruction;
//! - in the ordering game, which the home menu opens before any card;
//! - in the text of the chapters before the card's chapter, or before the card in its own.

use crate::doc::{self, Block, Directive};
use crate::{Course, Lang, Problem};

/// Characters of context shown on each side of a give-away word.
const EXCERPT_CONTEXT: usize = 30;

/// Appends a problem for every place in `course` that names a card's answer before the card.
pub fn check(lang: Lang, course: &Course, problems: &mut Vec<Problem>) {
    let decisions_path = format!("lessons/{lang}/decisions.toml");
    for decision in &course.decisions {
        let words: Vec<String> = decision
            .reveals
            .iter()
            .map(|w| normalise(w))
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            continue;
        }
        for chapter in &course.chapters {
            for (field, value) in [("title", &chapter.title), ("summary", &chapter.summary)] {
                if let Some((word, excerpt)) = find_word(&words, value) {
                    problems.push(Problem {
                        path: chapter.path.clone(),
                        line: chapter.id_line,
                        column: 1,
                        message: format!(
                            "the {field} of chapter {:?} names {word:?} (\"{excerpt}\"), which gives away decision {:?}; the chapter list shows it before the card",
                            chapter.id, decision.id
                        ),
                    });
                }
            }
        }
        check_ordering(lang, course, &decision.id, &words, problems);
        for (field, value) in [
            ("situation", &decision.situation),
            ("instruction", &decision.instruction),
        ] {
            if let Some((word, excerpt)) = find_word(&words, value) {
                problems.push(Problem {
                    path: decisions_path.clone(),
                    line: decision.id_line,
                    column: 1,
                    message: format!(
                        "the {field} of decision {:?} names {word:?} (\"{excerpt}\"), which gives its answer away",
                        decision.id
                    ),
                });
            }
        }
        let Some(card_chapter) = course.chapter(&decision.chapter) else {
            continue; // an unknown chapter is reported by the cross-file check
        };
        for chapter in course
            .chapters
            .iter()
            .filter(|c| c.number <= card_chapter.number)
        {
            for block in &chapter.blocks {
                if is_card(block, &decision.id) {
                    break;
                }
                if let Some((word, excerpt)) = find_word(&words, &block_text(block)) {
                    problems.push(Problem::file(
                        &chapter.path,
                        format!(
                            "chapter {:?} names {word:?} before decision {:?} is answered (\"{excerpt}\"); move the card earlier or the wording after it",
                            chapter.id, decision.id
                        ),
                    ));
                }
            }
        }
    }
}

/// The ordering game is open from the home menu before any card: its cards show label and
/// text, a wrong pick shows the missing step's hint, the solved game every reason.
fn check_ordering(
    lang: Lang,
    course: &Course,
    decision_id: &str,
    words: &[String],
    problems: &mut Vec<Problem>,
) {
    let path = format!("lessons/{lang}/ordering.toml");
    let game = &course.ordering;
    let whole = [("intro", &game.intro), ("solved", &game.solved)];
    let steps = game.steps.iter().flat_map(|step| {
        [
            ("label", &step.label),
            ("text", &step.text),
            ("hint", &step.hint),
            ("reason", &step.reason),
        ]
        .map(|(field, value)| (format!("{field} of step {:?}", step.id), value))
    });
    let fields = whole
        .map(|(field, value)| (field.to_owned(), value))
        .into_iter()
        .chain(steps);
    for (field, value) in fields {
        if let Some((word, excerpt)) = find_word(words, value) {
            problems.push(Problem::file(
                &path,
                format!(
                    "the ordering game's {field} names {word:?} (\"{excerpt}\"), which gives away decision {decision_id:?}; the game is open before the card"
                ),
            ));
        }
    }
}

fn is_card(block: &Block, decision_id: &str) -> bool {
    matches!(
        block,
        Block::Directive { directive: Directive::Decision(id), .. } if id == decision_id
    )
}

/// Everything a reader sees of a block, code included: a give-away in a sample is one too.
fn block_text(block: &Block) -> String {
    match block {
        Block::Heading { text, .. } | Block::Paragraph(text) => doc::plain(text),
        Block::List(items) => join(items.iter().map(|i| doc::plain(&i.text))),
        Block::Quote(paragraphs) => join(paragraphs.iter().map(|p| doc::plain(p))),
        Block::Code { text, .. } => text.clone(),
        Block::Table { header, rows } => join(
            header
                .iter()
                .chain(rows.iter().flatten())
                .map(|cell| doc::plain(cell)),
        ),
        Block::Rule | Block::Directive { .. } => String::new(),
    }
}

fn join(parts: impl Iterator<Item = String>) -> String {
    parts.collect::<Vec<_>>().join(" ")
}

/// Lower case with runs of whitespace collapsed, so a word wrapped over two lines still counts.
fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The first give-away word found in `text`, with the text around it.
fn find_word(words: &[String], text: &str) -> Option<(String, String)> {
    let text = normalise(text);
    words.iter().find_map(|word| {
        let at = text.find(word.as_str())?;
        Some((word.clone(), excerpt(&text, at, word.len())))
    })
}

fn excerpt(text: &str, at: usize, len: usize) -> String {
    let before: String = text[..at]
        .chars()
        .rev()
        .take(EXCERPT_CONTEXT)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let after: String = text[at + len..].chars().take(EXCERPT_CONTEXT).collect();
    format!("…{before}{}{after}…", &text[at..at + len])
}

#[cfg(test)]
mod tests;

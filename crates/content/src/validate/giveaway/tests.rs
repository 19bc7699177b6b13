//! The give-away rule: the shipped course passes it, and a word planted in a title, a summary,
//! an earlier chapter, the card's own chapter before the card or the card itself fails it,
//! while the same word after the card is fine.

use super::*;
use crate::{Block, ContentSource, Inline, InlineStyle, load};

/// The shipped course in `lang`, loaded once for all tests (loading validates everything).
fn course(lang: Lang) -> Course {
    static COURSES: std::sync::OnceLock<(Course, Course)> = std::sync::OnceLock::new();
    let (de, en) = COURSES.get_or_init(|| match load(&ContentSource::Embedded) {
        Ok(content) => (
            content.course(Lang::De).clone(),
            content.course(Lang::En).clone(),
        ),
        Err(problems) => panic!("the shipped content loads: {problems:?}"),
    });
    match lang {
        Lang::De => de.clone(),
        Lang::En => en.clone(),
    }
}

fn problems_of(lang: Lang, course: &Course) -> Vec<Problem> {
    let mut problems = Vec::new();
    check(lang, course, &mut problems);
    problems
}

fn paragraph(text: &str) -> Block {
    Block::Paragraph(vec![Inline {
        text: text.to_owned(),
        style: InlineStyle::default(),
    }])
}

fn index_of(course: &Course, id: &str) -> usize {
    course
        .chapters
        .iter()
        .position(|c| c.id == id)
        .unwrap_or_else(|| panic!("chapter {id}"))
}

#[test]
fn the_shipped_course_gives_no_answer_away() {
    for lang in Lang::ALL {
        let problems = problems_of(lang, &course(lang));
        assert!(problems.is_empty(), "{lang}: {problems:#?}");
    }
}

#[test]
fn every_shipped_card_names_its_giveaway_words() {
    for lang in Lang::ALL {
        for decision in &course(lang).decisions {
            assert!(!decision.reveals.is_empty(), "{lang} {}", decision.id);
        }
    }
}

#[test]
fn a_word_in_an_earlier_chapter_is_found_in_both_languages() {
    for (lang, word) in [(Lang::En, "an Outbox row"), (Lang::De, "eine Outbox-Zeile")] {
        let mut c = course(lang);
        c.chapters[0]
            .blocks
            .push(paragraph(&format!("Write {word}\n now.")));
        let problems = problems_of(lang, &c);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(
            problems[0].message.contains("\"outbox\"")
                && problems[0].message.contains("broker-down")
                && problems[0].message.contains(&word.to_lowercase()),
            "{problems:#?}"
        );
        assert_eq!(problems[0].path, c.chapters[0].path);
    }
}

#[test]
fn the_cards_own_chapter_counts_only_before_the_card() {
    let mut c = course(Lang::En);
    let retry = index_of(&c, "retry-dlq");
    let card = c.chapters[retry]
        .blocks
        .iter()
        .position(|b| is_card(b, "dlq-37"))
        .expect("the card is in its chapter");
    c.chapters[retry]
        .blocks
        .insert(card + 1, paragraph("Classify them by reason first."));
    assert!(problems_of(Lang::En, &c).is_empty());
    c.chapters[retry]
        .blocks
        .insert(card, paragraph("Classify them by reason first."));
    let problems = problems_of(Lang::En, &c);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].message.contains("dlq-37"), "{problems:#?}");
}

#[test]
fn a_later_chapter_may_name_the_answer_but_not_in_its_title_or_summary() {
    let mut c = course(Lang::En);
    let last = c.chapters.len() - 1;
    c.chapters[last].blocks.push(paragraph("The inbox, again."));
    assert!(problems_of(Lang::En, &c).is_empty());
    c.chapters[last].title = "The Inbox".to_owned();
    c.chapters[last].summary = "Why the inbox wins.".to_owned();
    let problems = problems_of(Lang::En, &c);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(problems[0].message.starts_with("the title of chapter"));
    assert!(problems[1].message.starts_with("the summary of chapter"));
    assert_eq!(problems[0].line, c.chapters[last].id_line);
}

#[test]
fn the_card_must_not_name_its_own_answer() {
    let mut c = course(Lang::En);
    c.decisions[2].instruction = "Think of the inbox.".to_owned();
    let problems = problems_of(Lang::En, &c);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!(problems[0].path, "lessons/en/decisions.toml");
    assert!(problems[0].message.contains("instruction"), "{problems:#?}");
}

/// The ordering game's label "Consumer + Inbox" named decision 3's answer on a card anyone can open
/// from the home menu; every field the game shows counts.
#[test]
fn the_ordering_game_must_not_name_an_answer() {
    for (lang, label, text) in [
        (
            Lang::En,
            "Consumer + Inbox",
            "Consumer and inbox check for duplicates.",
        ),
        (
            Lang::De,
            "Consumer + Inbox",
            "Consumer und Inbox prüfen auf Duplikate.",
        ),
    ] {
        let mut c = course(lang);
        let step = c
            .ordering
            .steps
            .iter()
            .position(|s| s.id == "consumer-inbox")
            .expect("the consumer step");
        c.ordering.steps[step].label = label.to_owned();
        c.ordering.steps[step].text = text.to_owned();
        let problems = problems_of(lang, &c);
        assert_eq!(problems.len(), 2, "{lang}: {problems:#?}");
        assert!(
            problems
                .iter()
                .all(|p| p.path == format!("lessons/{lang}/ordering.toml")
                    && p.message.contains("lost-ack")
                    && p.message.contains("\"inbox\"")),
            "{problems:#?}"
        );
        assert!(
            problems[0]
                .message
                .contains("label of step \"consumer-inbox\"")
        );
        assert!(
            problems[1]
                .message
                .contains("text of step \"consumer-inbox\"")
        );
    }
    let mut c = course(Lang::En);
    c.ordering.steps[1].hint = "Save the state and an outbox row together.".to_owned();
    c.ordering.steps[6].reason = "The inbox absorbs a redelivery.".to_owned();
    c.ordering.solved = "Solved: the dispatcher sends.".to_owned();
    let problems = problems_of(Lang::En, &c);
    assert_eq!(problems.len(), 3, "{problems:#?}");
}

#[test]
fn code_tables_lists_and_quotes_count_as_text() {
    let blocks = [
        Block::Code {
            lang: "sql".to_owned(),
            text: "CREATE TABLE outbox".to_owned(),
        },
        Block::List(vec![crate::doc::ListItem {
            depth: 0,
            marker: "•".to_owned(),
            text: vec![Inline {
                text: "an outbox row".to_owned(),
                style: InlineStyle::default(),
            }],
        }]),
        Block::Quote(vec![vec![Inline {
            text: "outbox".to_owned(),
            style: InlineStyle::default(),
        }]]),
    ];
    for block in blocks {
        assert!(block_text(&block).contains("outbox"), "{block:?}");
    }
}

#[test]
fn an_excerpt_keeps_whole_characters() {
    let words = vec!["outbox".to_owned()];
    let (word, excerpt) =
        find_word(&words, "Äöü ÄÖÜ größer als die Outbox-Zeile, äöü").expect("found");
    assert_eq!(word, "outbox");
    assert!(excerpt.contains("outbox-zeile"), "{excerpt}");
}

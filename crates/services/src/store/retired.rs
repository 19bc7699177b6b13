//! Decision options the course offered once and no longer does. A saved or imported answer that
//! names one matches no option: the card shows the decision unanswered while the home screen
//! counts it answered. Such an answer is forgotten, so the learner answers the card again.
//! Migration 5 did this once for `purge`; an export written before it, imported later, brought
//! `purge` back, and options retired since then need the same treatment, so the list is applied
//! on every open (a no-op without such an answer) and on every import.

use rusqlite::{Connection, params};

/// (decision id, retired option id).
pub const RETIRED_ANSWERS: &[(&str, &str)] = &[
    // Decision 4 dropped its straw man.
    ("dlq-37", "purge"),
    // Decisions 1 and 2: options no simulator run could show.
    ("broker-down", "publish-first"),
    ("large-pdf", "split-chunks"),
];

/// Whether `option` of `decision` is a retired one.
pub fn is_retired(decision: &str, option: &str) -> bool {
    RETIRED_ANSWERS
        .iter()
        .any(|(d, o)| *d == decision && *o == option)
}

/// Deletes every saved answer that names a retired option; writes only when there is one, so
/// opening a store another process holds stays a read.
pub fn forget_saved(conn: &Connection) -> rusqlite::Result<()> {
    for (decision, option) in RETIRED_ANSWERS {
        let saved: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM decision_answer WHERE decision_id = ?1 AND option_id = ?2)",
            params![decision, option],
            |r| r.get(0),
        )?;
        if saved {
            conn.execute(
                "DELETE FROM decision_answer WHERE decision_id = ?1 AND option_id = ?2",
                params![decision, option],
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use content::{ContentSource, Lang, load};

    /// A retired option must really be gone from the course, in both languages, or forgetting
    /// it would delete a valid answer.
    #[test]
    fn every_retired_option_is_gone_from_its_decision() {
        let content = match load(&ContentSource::Embedded) {
            Ok(content) => content,
            Err(problems) => panic!("the shipped content loads: {problems:?}"),
        };
        for lang in Lang::ALL {
            let course = content.course(lang);
            for (decision, option) in RETIRED_ANSWERS {
                let card = course
                    .decision(decision)
                    .unwrap_or_else(|| panic!("{lang}: no decision {decision}"));
                assert!(
                    !card.options.iter().any(|o| o.id == *option),
                    "{lang}: {decision} still offers {option}"
                );
            }
        }
    }

    /// A store written by an older build (after migration 5 ran, or before an option was
    /// retired) loses exactly the retired answers when it is opened.
    #[test]
    fn opening_a_store_forgets_saved_retired_answers_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("progress.db");
        {
            let (store, _) = crate::store::Store::open(&path).expect("open");
            store
                .conn
                .execute_batch(
                    "INSERT INTO decision_answer VALUES ('dlq-37', 'purge', 1);
                     INSERT INTO decision_answer VALUES ('broker-down', 'publish-first', 2);
                     INSERT INTO decision_answer VALUES ('lost-ack', 'recognise-receipt', 3);",
                )
                .expect("old answers");
        }
        let (store, _) = crate::store::Store::open(&path).expect("reopen");
        let decisions = store.load().expect("load").decisions;
        assert_eq!(
            decisions.into_iter().collect::<Vec<_>>(),
            [("lost-ack".to_owned(), "recognise-receipt".to_owned())]
        );
    }

    #[test]
    fn only_the_listed_pairs_are_retired() {
        assert!(is_retired("dlq-37", "purge"));
        assert!(!is_retired("lost-ack", "purge"));
        assert!(!is_retired("dlq-37", "classify-fix"));
    }
}

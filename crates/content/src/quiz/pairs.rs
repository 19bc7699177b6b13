//! Same-fact pairs: two questions of different topics that ask one fact (the SQS DLQ reason is
//! both a Service Bus and a DLQ question). A question names its partners in `shares_fact_with`;
//! one attempt then asks at most one of them, so the second cannot answer the first.

use super::{RawQuestion, TOPICS};
use crate::Problem;
use crate::toml_file::at;
use std::collections::BTreeSet;

/// Checks every `shares_fact_with` entry, and that every topic keeps a question the draw can
/// always ask whatever was drawn before it.
pub fn check(path: &str, text: &str, questions: &[RawQuestion], problems: &mut Vec<Problem>) {
    let mut paired: BTreeSet<&str> = BTreeSet::new();
    for q in questions {
        let id = q.id.get_ref().as_str();
        for other in &q.shares_fact_with {
            let other_id = other.get_ref().as_str();
            let message = match questions.iter().find(|p| p.id.get_ref() == other_id) {
                _ if other_id == id => format!("question {id:?} names itself in shares_fact_with"),
                None => format!("question {id:?} shares a fact with unknown question {other_id:?}"),
                Some(p) if p.topic.get_ref() == q.topic.get_ref() => format!(
                    "questions {id:?} and {other_id:?} are both in topic {:?}, so one attempt never asks both; shares_fact_with names questions of other topics",
                    q.topic.get_ref()
                ),
                Some(_) => {
                    paired.insert(id);
                    paired.insert(other_id);
                    continue;
                }
            };
            problems.push(at(path, text, other, message));
        }
    }
    for topic in TOPICS {
        let in_topic: Vec<&str> = questions
            .iter()
            .filter(|q| q.topic.get_ref() == topic)
            .map(|q| q.id.get_ref().as_str())
            .collect();
        if !in_topic.is_empty() && in_topic.iter().all(|id| paired.contains(id)) {
            problems.push(Problem::file(
                path,
                format!(
                    "every question of topic {topic:?} shares a fact with another topic's question; keep one unpaired so every attempt can ask the topic"
                ),
            ));
        }
    }
}

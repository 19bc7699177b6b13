//! Every id in an import file must name something in the content: a file from another course
//! version (or a typo) is refused with the unknown ids named, before anything is replaced.

use super::PortableProgress;
use content::{Content, Lang};
use std::collections::BTreeSet;

/// Ids are the same in every language; one course is enough to check them.
const ID_LANG: Lang = Lang::En;

/// `Err` names every unknown id, grouped by kind.
pub fn check_ids(doc: &PortableProgress, content: &Content) -> Result<(), String> {
    let course = content.course(ID_LANG);
    let p = &doc.progress;
    let mut unknown: Vec<String> = Vec::new();
    let mut note = |kind: &str, ids: BTreeSet<String>| {
        if !ids.is_empty() {
            let list: Vec<String> = ids.into_iter().collect();
            unknown.push(format!("unknown {kind} {}", list.join(", ")));
        }
    };
    let chapters = p
        .chapters_read
        .iter()
        .chain(p.positions.keys())
        .chain(p.last_chapter.iter())
        .filter(|id| course.chapter(id).is_none())
        .cloned()
        .collect();
    note("chapter id(s)", chapters);
    let decisions = p
        .decisions
        .iter()
        .filter_map(|(d, o)| match course.decision(d) {
            None => Some(d.clone()),
            Some(decision) if !decision.options.iter().any(|x| &x.id == o) => {
                Some(format!("{d}={o}"))
            }
            Some(_) => None,
        })
        .collect();
    note("decision id(s)", decisions);
    let items = p
        .checklist
        .keys()
        .filter(|id| !course.reference.checklist.iter().any(|c| &c.id == *id))
        .cloned()
        .collect();
    note("checklist id(s)", items);
    let scenarios = p
        .scenarios_run
        .iter()
        .filter(|id| !content.scenarios.iter().any(|s| &s.id == *id))
        .cloned()
        .collect();
    note("scenario id(s)", scenarios);
    note("question id(s)", unknown_questions(doc, course));
    let labs = doc
        .labs
        .iter()
        .flatten()
        .filter(|lab| !content.labs.iter().any(|l| l.id == lab.id))
        .map(|lab| lab.id.clone())
        .collect();
    note("lab id(s)", labs);
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}; this file does not fit this queuelab's content",
            unknown.join("; ")
        ))
    }
}

/// The quiz's question ids, and `question=option` pairs, that the course does not have.
fn unknown_questions(doc: &PortableProgress, course: &content::Course) -> BTreeSet<String> {
    let mut questions = BTreeSet::new();
    for attempt in doc.quiz.iter().flatten() {
        let shown = attempt.order.iter();
        let answered = attempt.answers.iter().map(|a| (&a.question, &a.options));
        for (question, options) in shown.chain(answered) {
            match course.quiz.questions.iter().find(|q| &q.id == question) {
                None => {
                    questions.insert(question.clone());
                }
                Some(q) => {
                    for option in options
                        .iter()
                        .filter(|o| !q.options.iter().any(|x| &x.id == *o))
                    {
                        questions.insert(format!("{question}={option}"));
                    }
                }
            }
        }
    }
    questions
}

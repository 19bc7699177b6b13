//! The report's second half: what the learner did beside the quiz (decisions, the ordering
//! game, scenarios, labs, the checklist).

use super::{Block, ReportInput, join};
use content::key;

/// Decisions, ordering game, scenarios and checklist.
pub(super) fn push_progress(input: &ReportInput<'_>, blocks: &mut Vec<Block>) {
    let s = &input.course.strings;
    let p = input.progress;
    push_decisions(input, blocks);
    blocks.push(Block::Heading(s.get(key::report::ORDERING).to_owned()));
    let key = if p.ordering.solved {
        key::report::ORDERING_SOLVED
    } else {
        key::report::ORDERING_OPEN
    };
    blocks.push(Block::Para(s.fill(
        key,
        &[
            ("attempts", &p.ordering.attempts.to_string()),
            ("mistakes", &p.ordering.mistakes.to_string()),
        ],
    )));
    blocks.push(Block::Heading(s.get(key::report::SCENARIOS).to_owned()));
    let run: Vec<Block> = input
        .scenarios
        .iter()
        .filter(|sc| p.scenarios_run.contains(&sc.id))
        .map(|sc| {
            Block::Item(
                sc.text(input.lang)
                    .map_or_else(|| sc.id.clone(), |t| format!("{} ({})", t.title, sc.id)),
            )
        })
        .collect();
    if run.is_empty() {
        blocks.push(Block::Para(s.get(key::report::SCENARIOS_NONE).to_owned()));
    }
    blocks.extend(run);
    push_labs(input, blocks);
    push_checklist(input, blocks);
}

/// Each decision: the learner's choice and whether it was right, or still open; where the
/// choice was not right, what would have been.
fn push_decisions(input: &ReportInput<'_>, blocks: &mut Vec<Block>) {
    let s = &input.course.strings;
    let p = input.progress;
    blocks.push(Block::Heading(s.get(key::report::DECISIONS).to_owned()));
    for d in &input.course.decisions {
        let chosen = p
            .decisions
            .get(&d.id)
            .and_then(|id| d.options.iter().find(|o| &o.id == id));
        blocks.push(Block::Item(match chosen {
            Some(o) => s.fill(
                key::report::DECISION,
                &[
                    ("title", &d.title),
                    ("choice", &o.text),
                    (
                        "verdict",
                        s.get(if o.correct {
                            key::report::RIGHT
                        } else {
                            key::report::WRONG
                        }),
                    ),
                ],
            ),
            None => s.fill(key::report::DECISION_OPEN, &[("title", &d.title)]),
        }));
        // An instructor's copy shows what would have been right where the choice was not.
        if !chosen.is_some_and(|o| o.correct) {
            let right = join(
                d.options
                    .iter()
                    .filter(|o| o.correct)
                    .map(|o| o.text.as_str()),
            );
            blocks.push(Block::Item(
                s.fill(key::report::RIGHT_ANSWER, &[("answer", &right)]),
            ));
        }
    }
}

/// The checklist: how many items are ticked, then each item with its mark.
fn push_checklist(input: &ReportInput<'_>, blocks: &mut Vec<Block>) {
    let s = &input.course.strings;
    let p = input.progress;
    blocks.push(Block::Heading(s.fill(
        key::report::CHECKLIST,
        &[
            ("ticked", &p.checklist_ticked().to_string()),
            ("total", &input.course.reference.checklist.len().to_string()),
        ],
    )));
    for item in &input.course.reference.checklist {
        let ticked = p.checklist.get(&item.id).copied().unwrap_or(false);
        let mark = s.get(if ticked {
            key::report::TICKED
        } else {
            key::report::UNTICKED
        });
        blocks.push(Block::Item(format!("[{mark}] {}", item.question)));
    }
}

/// The labs in number order: solved (after how many checks), checked but not solved yet, or
/// not tried.
fn push_labs(input: &ReportInput<'_>, blocks: &mut Vec<Block>) {
    if input.labs.is_empty() {
        return;
    }
    let s = &input.course.strings;
    blocks.push(Block::Heading(s.get(key::report::LABS).to_owned()));
    let mut labs: Vec<&content::Lab> = input.labs.iter().collect();
    labs.sort_by_key(|l| l.number);
    for lab in labs {
        let title = lab
            .title
            .get(&input.lang)
            .map_or(lab.id.as_str(), String::as_str);
        let title = s.fill(
            key::report::LAB_TITLE,
            &[("n", &lab.number.to_string()), ("title", title)],
        );
        let result = input.lab_results.get(&lab.id).copied().unwrap_or_default();
        let key = match (result.solved_at, result.attempts) {
            (Some(_), _) => key::report::LAB_SOLVED,
            (None, 0) => key::report::LAB_NEW,
            (None, _) => key::report::LAB_OPEN,
        };
        blocks.push(Block::Item(s.fill(
            key,
            &[("title", &title), ("checks", &result.attempts.to_string())],
        )));
    }
}

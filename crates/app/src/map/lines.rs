//! The text column of the map screen, laid out for a width: compact flow, checklist, runbook.
//! Every text comes from the course's reference content.

use crate::Session;
use crate::doc_layout::wrap::{width, wrap};
use crate::doc_layout::{DocLine, Span, Tone};
use content::FlowStage;
use content::key;

/// Stage ids of the failure branch (drawn under the main path).
const BRANCH_IDS: [&str; 2] = ["retry", "dlq"];

fn span(text: impl Into<String>, tone: Tone) -> Span {
    Span {
        text: text.into(),
        tone,
    }
}

fn heading(title: &str, max: usize, ascii: bool) -> DocLine {
    let rule = if ascii { '-' } else { '─' };
    let head = format!("{rule}{rule} {title} ");
    let fill = max.saturating_sub(width(&head));
    DocLine::new(vec![
        span(head, Tone::Subheading),
        span(rule.to_string().repeat(fill), Tone::Border),
    ])
}

/// The lines of the text column for `max` cells.
pub fn lines(session: &Session, max: usize) -> Vec<DocLine> {
    let course = session.course();
    let s = &course.strings;
    let ascii = session.options.ascii;
    let mut out = vec![heading(s.get(key::widget::FLOW), max, ascii)];
    flow(&course.reference.flow, max, ascii, &mut out);
    out.push(DocLine::blank());
    out.push(heading(s.get(key::widget::CHECKLIST), max, ascii));
    for (i, item) in course.reference.checklist.iter().enumerate() {
        let ticked = session.progress.checklist.get(&item.id).copied() == Some(true);
        let (mark, tone) = if ticked {
            ("[x]", Tone::Good)
        } else {
            ("[ ]", Tone::Text)
        };
        let first = [
            span(mark, tone),
            span(format!(" {:>2}. ", i + 1), Tone::Dim),
        ];
        let rest = [span(" ".repeat(8), Tone::Text)];
        let runs = [(item.question.clone(), Tone::Text)];
        out.extend(
            wrap(&runs, max, &first, &rest)
                .into_iter()
                .map(DocLine::new),
        );
    }
    out.push(DocLine::blank());
    out.push(heading(s.get(key::widget::RUNBOOK), max, ascii));
    for (i, signal) in course.reference.runbook.iter().enumerate() {
        let first = [span(format!("{}. ", i + 1), Tone::Dim)];
        let rest = [span("   ", Tone::Text)];
        // Runs glue unless whitespace separates them.
        let runs = [
            (format!("{}: ", signal.name), Tone::Bold),
            (signal.watch.clone(), Tone::Text),
        ];
        out.extend(
            wrap(&runs, max, &first, &rest)
                .into_iter()
                .map(DocLine::new),
        );
    }
    out
}

/// The main path packed into as few lines as fit (a stage label never breaks), then the
/// failure branch.
fn flow(stages: &[FlowStage], max: usize, ascii: bool, out: &mut Vec<DocLine>) {
    let arrow = if ascii { " -> " } else { " → " };
    let (main, branch): (Vec<&FlowStage>, Vec<&FlowStage>) = stages
        .iter()
        .partition(|s| !BRANCH_IDS.contains(&s.id.as_str()));
    let mut line: Vec<Span> = Vec::new();
    let mut used = 0;
    for (i, stage) in main.iter().enumerate() {
        let label = stage.label.as_str();
        let tail = if i + 1 < main.len() { arrow } else { "" };
        let need = width(label) + width(tail.trim_end());
        if used > 0 && used + need > max {
            out.push(DocLine::new(std::mem::take(&mut line)));
            used = 0;
        }
        line.push(span(label, Tone::Bold));
        if !tail.is_empty() {
            line.push(span(tail, Tone::Border));
        }
        used += width(label) + width(tail);
    }
    if !line.is_empty() {
        out.push(DocLine::new(line));
    }
    if branch.is_empty() {
        return;
    }
    let hook = if ascii { "  +-> " } else { "  ↳ " };
    let mut runs = Vec::new();
    for (i, stage) in branch.iter().enumerate() {
        if i > 0 {
            runs.push((format!("{} ", arrow.trim()), Tone::Border));
        }
        runs.push((format!("{} ", stage.label), Tone::Bold));
        runs.push((format!("({}) ", stage.detail), Tone::Dim));
    }
    let first = [span(hook, Tone::Border)];
    let rest = [span(" ".repeat(width(hook)), Tone::Text)];
    out.extend(
        wrap(&runs, max, &first, &rest)
            .into_iter()
            .map(DocLine::new),
    );
}

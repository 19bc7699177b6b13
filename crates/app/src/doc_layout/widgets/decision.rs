//! The decision card: situation, options, and after an answer the verdict, why, what the other
//! choice would cause, the principle and the way to see it happen.

use super::{add, plain, span, title_line};
use crate::doc_layout::wrap::wrap;
use crate::doc_layout::{DocContext, DocLine, Tone};
use content::key;
use content::{Decision, DecisionOption, Strings};

/// Lays out one decision card; all its lines belong to `target`.
pub fn decision_card(
    d: &Decision,
    ctx: &DocContext<'_>,
    max: usize,
    target: Option<usize>,
    lines: &mut Vec<DocLine>,
) {
    let s = ctx.strings();
    let chosen = ctx.progress.decisions.get(&d.id).and_then(|o| d.option(o));
    if let Some(state) = held_state(d, ctx, chosen) {
        held_card(
            d,
            ctx,
            max,
            target,
            chosen.map(|c| c.id.as_str()),
            state,
            lines,
        );
        return;
    }
    let mut title = d.title.clone();
    if let Some(choice) = chosen {
        let verdict = if choice.correct {
            s.get(key::decision::CORRECT)
        } else {
            s.get(key::decision::WRONG)
        };
        title = format!("{title} · {verdict}");
    }
    head(d, &title, ctx, max, target, lines);
    option_lines(d, ctx, chosen, max, target, lines);
    match chosen {
        None => prompt_lines(d, s, max, target, lines),
        Some(choice) => answer_lines(d, ctx, choice, max, target, lines),
    }
}

/// Decides whether the session holds right/wrong back on this card, and how: while the
/// instructor has not shown the verdict, an answered card or a second vote stays held.
fn held_state(d: &Decision, ctx: &DocContext<'_>, chosen: Option<&DecisionOption>) -> Option<Held> {
    let votes = ctx.votes?;
    if votes.verdict_shown(&d.id) {
        return None;
    }
    if votes.in_second_vote(&d.id) {
        Some(if votes.second_given.contains(&d.id) {
            Held::SecondSaved
        } else {
            Held::SecondOpen
        })
    } else {
        chosen.map(|_| Held::Saved)
    }
}

/// The options with their keys; once answered, each is marked right, or wrong where chosen.
fn option_lines(
    d: &Decision,
    ctx: &DocContext<'_>,
    chosen: Option<&DecisionOption>,
    max: usize,
    target: Option<usize>,
    lines: &mut Vec<DocLine>,
) {
    for (i, option) in d.options.iter().enumerate() {
        let is_chosen = chosen.is_some_and(|c| c.id == option.id);
        let mark = match (chosen.is_some(), option.correct, is_chosen, ctx.ascii) {
            (true, true, _, true) => "ok ",
            (true, true, _, false) => " ✓ ",
            (true, false, true, true) => " x ",
            (true, false, true, false) => " ✗ ",
            _ => "   ",
        };
        let tone = match (chosen.is_some(), option.correct) {
            (true, true) => Tone::Good,
            (true, false) if is_chosen => Tone::Bad,
            _ => Tone::Text,
        };
        let first = [span(mark, tone), span(format!("[{}] ", i + 1), Tone::Focus)];
        let rest = [span("       ", Tone::Text)];
        add(
            lines,
            wrap(
                &plain(
                    &option.text,
                    if is_chosen { Tone::Bold } else { Tone::Text },
                ),
                max,
                &first,
                &rest,
            ),
            target,
        );
    }
}

/// Before an answer: the instruction and the keys that choose.
fn prompt_lines(
    d: &Decision,
    s: &Strings,
    max: usize,
    target: Option<usize>,
    lines: &mut Vec<DocLine>,
) {
    add(
        lines,
        wrap(&plain(&d.instruction, Tone::Italic), max, &[], &[]),
        target,
    );
    let keys = format!("1-{}", d.options.len());
    add(
        lines,
        wrap(
            &plain(
                &s.fill(key::decision::CHOOSE, &[("keys", &keys)]),
                Tone::Dim,
            ),
            max,
            &[],
            &[],
        ),
        target,
    );
}

/// After an answer: why, what each other choice would cause, the principle and the run to see.
fn answer_lines(
    d: &Decision,
    ctx: &DocContext<'_>,
    choice: &DecisionOption,
    max: usize,
    target: Option<usize>,
    lines: &mut Vec<DocLine>,
) {
    let s = ctx.strings();
    // The title already carries the verdict; the feedback says why.
    let tone = if choice.correct {
        Tone::Good
    } else {
        Tone::Bad
    };
    add(
        lines,
        wrap(&plain(&choice.feedback, tone), max, &[], &[]),
        target,
    );
    // A card has three or four options, so each other one is named by its key.
    for (n, other) in d
        .options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.id != choice.id)
    {
        let label = s.fill(key::decision::OTHER_OPTION, &[("n", &(n + 1).to_string())]);
        let mut runs = plain(&format!("{label}: "), Tone::Bold);
        runs.push((other.feedback.clone(), Tone::Text));
        add(lines, wrap(&runs, max, &[], &[]), target);
    }
    let bar = [span(if ctx.ascii { "| " } else { "▌ " }, Tone::Border)];
    add(
        lines,
        wrap(&plain(&d.explanation, Tone::Quote), max, &bar, &bar),
        target,
    );
    // The run of the learner's own choice; a choice no run shows says so.
    let see = match choice.run() {
        Some((scenario, _)) => s.fill(key::decision::SEE_IT, &[("scenario", scenario)]),
        None => s.fill(key::decision::SEE_IT_NONE, &[("scenario", &d.scenario)]),
    };
    let see = format!("s: {see}");
    add(lines, wrap(&plain(&see, Tone::Dim), max, &[], &[]), target);
}

/// The card's title line and its situation, the same on every card.
fn head(
    d: &Decision,
    title: &str,
    ctx: &DocContext<'_>,
    max: usize,
    target: Option<usize>,
    lines: &mut Vec<DocLine>,
) {
    lines.push(DocLine {
        spans: title_line(title, max, ctx.ascii),
        target,
        companion: false,
    });
    add(
        lines,
        wrap(&plain(&d.situation, Tone::Bold), max, &[], &[]),
        target,
    );
}

/// Where a decision card stands while the session holds right/wrong until the reveal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    /// Answered; the vote is saved.
    Saved,
    /// The instructor opened a second vote the trainee has not given yet.
    SecondOpen,
    /// The second vote is saved.
    SecondSaved,
}

/// The card of a decision while the session holds right/wrong until the reveal: the trainee's
/// answer is marked, nothing says whether it is right.
fn held_card(
    d: &Decision,
    ctx: &DocContext<'_>,
    max: usize,
    target: Option<usize>,
    chosen: Option<&str>,
    state: Held,
    lines: &mut Vec<DocLine>,
) {
    let s = ctx.strings();
    let (title_key, text) = match state {
        Held::Saved => (
            key::decision::VOTE_SAVED,
            s.get(key::decision::HELD).to_owned(),
        ),
        Held::SecondOpen => (
            key::decision::SECOND_VOTE,
            s.fill(
                key::decision::SECOND_OPEN,
                &[("keys", &format!("1-{}", d.options.len()))],
            ),
        ),
        Held::SecondSaved => (
            key::decision::SECOND_SAVED,
            s.get(key::decision::HELD_SECOND).to_owned(),
        ),
    };
    let title = format!("{} · {}", d.title, s.get(title_key));
    head(d, &title, ctx, max, target, lines);
    for (i, option) in d.options.iter().enumerate() {
        let is_chosen = chosen == Some(option.id.as_str());
        let mark = match (is_chosen, ctx.ascii) {
            (true, true) => " * ",
            (true, false) => " • ",
            (false, _) => "   ",
        };
        let first = [
            span(mark, Tone::Focus),
            span(format!("[{}] ", i + 1), Tone::Focus),
        ];
        let rest = [span("       ", Tone::Text)];
        let tone = if is_chosen { Tone::Bold } else { Tone::Text };
        add(
            lines,
            wrap(&plain(&option.text, tone), max, &first, &rest),
            target,
        );
    }
    add(lines, wrap(&plain(&text, Tone::Dim), max, &[], &[]), target);
}

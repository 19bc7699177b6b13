//! Layout of the interactive parts: decision cards, checklist, calculator, runbook, levels,
//! flow. Target numbering follows [`super::targets`] exactly.

use content::key;

mod decision;

use decision::decision_card;

use super::wrap::wrap;
use super::{DocContext, DocLine, Span, Tone};
use content::Strings;
use content::doc::{Directive, Widget};
use domain::calculator::{CalcField, format_field, format_money};

fn plain(text: &str, tone: Tone) -> Vec<(String, Tone)> {
    vec![(text.to_owned(), tone)]
}

fn span(text: impl Into<String>, tone: Tone) -> Span {
    Span {
        text: text.into(),
        tone,
    }
}

/// Appends wrapped lines that belong to `target`.
fn add(lines: &mut Vec<DocLine>, wrapped: Vec<Vec<Span>>, target: Option<usize>) {
    lines.extend(wrapped.into_iter().map(|spans| DocLine {
        spans,
        target,
        companion: false,
    }));
}

/// Adds outcome lines that stay on screen with the focused part above them.
fn add_companion(lines: &mut Vec<DocLine>, wrapped: Vec<Vec<Span>>) {
    lines.extend(wrapped.into_iter().map(|spans| DocLine {
        spans,
        target: None,
        companion: true,
    }));
}

/// A card title: `── Title ──────`; a title too long for the width ends in an ellipsis.
fn title_line(title: &str, max: usize, ascii: bool) -> Vec<Span> {
    let rule = if ascii { '-' } else { '─' };
    let title = fit(title, max.saturating_sub(4), ascii);
    let head = format!("{rule}{rule} {title} ");
    let fill = max.saturating_sub(super::wrap::width(&head)).min(40);
    vec![
        span(head, Tone::Subheading),
        span(rule.to_string().repeat(fill), Tone::Border),
    ]
}

/// `text` cut to `room` cells, ending in an ellipsis when cut.
fn fit(text: &str, room: usize, ascii: bool) -> String {
    if super::wrap::width(text) <= room {
        return text.to_owned();
    }
    let ellipsis = if ascii { "..." } else { "…" };
    let mut out = String::new();
    for c in text.chars() {
        if super::wrap::width(&out)
            + super::wrap::width(&c.to_string())
            + super::wrap::width(ellipsis)
            > room
        {
            break;
        }
        out.push(c);
    }
    out.trim_end().to_owned() + ellipsis
}

/// Lays out one directive.
pub fn directive(
    directive: &Directive,
    ctx: &DocContext<'_>,
    max: usize,
    next: &mut usize,
    lines: &mut Vec<DocLine>,
) {
    match directive {
        Directive::Decision(id) => {
            let target = Some(*next);
            *next += 1;
            if let Some(decision) = ctx.course.decision(id) {
                decision_card(decision, ctx, max, target, lines);
            }
        }
        Directive::Widget(Widget::Checklist) => checklist(ctx, max, next, lines),
        Directive::Widget(Widget::CostCalculator) => calculator(ctx, max, next, lines),
        Directive::Widget(Widget::Runbook) => runbook(ctx, max, lines),
        Directive::Widget(Widget::Levels) => levels(ctx, max, lines),
        Directive::Widget(Widget::Flow) => flow(ctx, max, lines),
    }
}

fn checklist(ctx: &DocContext<'_>, max: usize, next: &mut usize, lines: &mut Vec<DocLine>) {
    let s = ctx.strings();
    lines.push(DocLine::new(title_line(
        s.get(key::widget::CHECKLIST),
        max,
        ctx.ascii,
    )));
    let items = &ctx.course.reference.checklist;
    for item in items {
        let target = Some(*next);
        *next += 1;
        let ticked = ctx
            .progress
            .checklist
            .get(&item.id)
            .copied()
            .unwrap_or(false);
        let (mark, tone) = if ticked {
            ("[x] ", Tone::Good)
        } else {
            ("[ ] ", Tone::Text)
        };
        add(
            lines,
            wrap(
                &plain(&item.question, Tone::Text),
                max,
                &[span(mark, tone)],
                &[span("    ", Tone::Text)],
            ),
            target,
        );
    }
    let ticked = items
        .iter()
        .filter(|i| ctx.progress.checklist.get(&i.id).copied().unwrap_or(false))
        .count();
    let summary = s.fill(
        key::checklist::SUMMARY,
        &[
            ("n", &ticked.to_string()),
            ("total", &items.len().to_string()),
        ],
    );
    add(
        lines,
        wrap(&plain(&summary, Tone::Dim), max, &[], &[]),
        None,
    );
}

fn calculator(ctx: &DocContext<'_>, max: usize, next: &mut usize, lines: &mut Vec<DocLine>) {
    let s: &Strings = ctx.strings();
    lines.push(DocLine::new(title_line(
        s.get(key::widget::CALCULATOR),
        max,
        ctx.ascii,
    )));
    let label_width = CalcField::ALL
        .iter()
        .map(|f| super::wrap::width(s.get(f.label_key())))
        .max()
        .unwrap_or(0);
    for field in CalcField::ALL {
        let target = Some(*next);
        *next += 1;
        let label = s.get(field.label_key());
        let value = match ctx.calc_edit {
            Some((edited, text)) if edited == field => span(format!("[{text}▏]"), Tone::Focus),
            _ => span(
                format!("[{}]", format_field(field, ctx.calc.get(field), ctx.lang)),
                Tone::Bold,
            ),
        };
        // The values stand in one column, unless a narrow screen needs the room for them.
        let room =
            max.saturating_sub(super::wrap::width(label) + 2 + super::wrap::width(&value.text));
        let pad = " ".repeat(
            label_width
                .saturating_sub(super::wrap::width(label))
                .min(room),
        );
        lines.push(DocLine {
            spans: vec![span(format!("{label}{pad}  "), Tone::Text), value],
            target,
            companion: false,
        });
    }
    let currency = ctx.calc.currency_code().to_owned();
    let target = Some(*next);
    *next += 1;
    let label = s.get(key::calc::CURRENCY);
    let pad = " ".repeat(label_width.saturating_sub(super::wrap::width(label)));
    lines.push(DocLine {
        spans: vec![
            span(format!("{label}{pad}  "), Tone::Text),
            span(format!("[{currency}]"), Tone::Bold),
        ],
        target,
        companion: false,
    });
    // The product follows the number being typed as soon as it is valid ("recomputed live").
    let mut live = ctx.calc.clone();
    if let Some((field, text)) = ctx.calc_edit {
        let _ = live.set(field, text);
    }
    let factors: Vec<String> = CalcField::ALL
        .iter()
        .map(|f| format_field(*f, live.get(*f), ctx.lang))
        .collect();
    let product = format_money(live.monthly(), ctx.lang);
    let result = s.fill(
        key::calc::RESULT,
        &[
            ("factors", &factors.join(" × ")),
            ("total", &product),
            ("currency", &currency),
        ],
    );
    add_companion(lines, wrap(&plain(&result, Tone::Good), max, &[], &[]));
    if let Some(key) = ctx.calc_error {
        add_companion(lines, wrap(&plain(s.get(key), Tone::Bad), max, &[], &[]));
    }
    add(
        lines,
        wrap(&plain(s.get(key::calc::HINT), Tone::Dim), max, &[], &[]),
        None,
    );
}

fn runbook(ctx: &DocContext<'_>, max: usize, lines: &mut Vec<DocLine>) {
    lines.push(DocLine::new(title_line(
        ctx.strings().get(key::widget::RUNBOOK),
        max,
        ctx.ascii,
    )));
    for (i, signal) in ctx.course.reference.runbook.iter().enumerate() {
        lines.extend(
            wrap(
                &plain(&format!("{}. {}", i + 1, signal.name), Tone::Bold),
                max,
                &[],
                &[],
            )
            .into_iter()
            .map(DocLine::new),
        );
        let indent = [span("   ", Tone::Text)];
        lines.extend(
            wrap(&plain(&signal.watch, Tone::Text), max, &indent, &indent)
                .into_iter()
                .map(DocLine::new),
        );
        lines.extend(
            wrap(&plain(&signal.why, Tone::Italic), max, &indent, &indent)
                .into_iter()
                .map(DocLine::new),
        );
    }
}

fn levels(ctx: &DocContext<'_>, max: usize, lines: &mut Vec<DocLine>) {
    lines.push(DocLine::new(title_line(
        ctx.strings().get(key::widget::LEVELS),
        max,
        ctx.ascii,
    )));
    let bullet = if ctx.ascii { "* " } else { "• " };
    for level in &ctx.course.reference.levels {
        lines.push(DocLine::new(vec![span(
            level.name.clone(),
            Tone::Subheading,
        )]));
        for item in &level.items {
            let first = [span(format!("  {bullet}"), Tone::Dim)];
            let rest = [span("    ", Tone::Text)];
            lines.extend(
                wrap(&plain(item, Tone::Text), max, &first, &rest)
                    .into_iter()
                    .map(DocLine::new),
            );
        }
    }
}

/// The flow as a vertical chain; the retry and DLQ stages branch off at the end.
fn flow(ctx: &DocContext<'_>, max: usize, lines: &mut Vec<DocLine>) {
    lines.push(DocLine::new(title_line(
        ctx.strings().get(key::widget::FLOW),
        max,
        ctx.ascii,
    )));
    let (down, branch) = if ctx.ascii {
        ("  |", "  +-> ")
    } else {
        ("  ↓", "  ↳ ")
    };
    let stages = &ctx.course.reference.flow;
    let main: Vec<_> = stages
        .iter()
        .filter(|s| !matches!(s.id.as_str(), "retry" | "dlq"))
        .collect();
    for (i, stage) in main.iter().enumerate() {
        if i > 0 {
            lines.push(DocLine::new(vec![span(down, Tone::Border)]));
        }
        let first = [span(format!("  [{}] ", stage.label), Tone::Bold)];
        lines.extend(
            wrap(
                &plain(&stage.detail, Tone::Text),
                max,
                &first,
                &[span("      ", Tone::Text)],
            )
            .into_iter()
            .map(DocLine::new),
        );
    }
    for stage in stages
        .iter()
        .filter(|s| matches!(s.id.as_str(), "retry" | "dlq"))
    {
        let first = [span(format!("{branch}[{}] ", stage.label), Tone::Bold)];
        lines.extend(
            wrap(
                &plain(&stage.detail, Tone::Dim),
                max,
                &first,
                &[span("        ", Tone::Text)],
            )
            .into_iter()
            .map(DocLine::new),
        );
    }
}

//! Lays out a chapter (Markdown blocks plus embedded decisions and widgets) into styled lines
//! for a given width. Pure: the reader's update uses it to size scrolling and find search hits,
//! and the view draws exactly these lines.

use content::key;

mod widgets;
pub mod wrap;

use content::doc::{Block, Directive, Inline, ListItem, Widget};
use content::{Chapter, Course, Strings};
use domain::Progress;
use domain::calculator::{CalcField, CalcValues};

/// The look of a span; the UI theme turns tones into styles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Body text.
    Text,
    /// Strong emphasis.
    Bold,
    /// Emphasis.
    Italic,
    /// Inline code.
    Code,
    /// Code block text.
    CodeBlock,
    /// Chapter title.
    Title,
    /// `##` heading.
    Heading,
    /// `###` heading and card titles.
    Subheading,
    /// Block quote ("remember" boxes).
    Quote,
    /// Secondary text.
    Dim,
    /// A right answer.
    Good,
    /// A wrong answer.
    Bad,
    /// The focus marker and edited values.
    Focus,
    /// Table rules and frames.
    Border,
    /// Struck-through text.
    Strike,
}

/// A run of text with one tone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// The text.
    pub text: String,
    /// Its tone.
    pub tone: Tone,
}

/// One laid-out line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocLine {
    /// The spans, left to right.
    pub spans: Vec<Span>,
    /// The interactive part this line belongs to (index into [`targets`]).
    pub target: Option<usize>,
    /// An outcome of the parts above it (the calculator's product, its error): kept on screen
    /// with the focused part so a typed number and what it does are seen together.
    pub companion: bool,
}

impl DocLine {
    /// A line of spans.
    pub fn new(spans: Vec<Span>) -> Self {
        DocLine {
            spans,
            target: None,
            companion: false,
        }
    }

    /// An empty line.
    pub fn blank() -> Self {
        DocLine::new(Vec::new())
    }

    /// The line's plain text.
    pub fn text(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }
}

/// An interactive part of a chapter, in reading order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A decision card (digits choose an option).
    Decision(String),
    /// A checklist item (Enter toggles).
    Checklist(String),
    /// A calculator number (Enter edits).
    CalcField(CalcField),
    /// The calculator currency (Enter cycles).
    CalcCurrency,
}

/// The interactive parts of a chapter, in reading order.
pub fn targets(chapter: &Chapter, course: &Course) -> Vec<Target> {
    let mut out = Vec::new();
    for block in &chapter.blocks {
        match block {
            Block::Directive {
                directive: Directive::Decision(id),
                ..
            } => out.push(Target::Decision(id.clone())),
            Block::Directive {
                directive: Directive::Widget(Widget::Checklist),
                ..
            } => {
                out.extend(
                    course
                        .reference
                        .checklist
                        .iter()
                        .map(|c| Target::Checklist(c.id.clone())),
                );
            }
            Block::Directive {
                directive: Directive::Widget(Widget::CostCalculator),
                ..
            } => {
                out.extend(CalcField::ALL.iter().map(|f| Target::CalcField(*f)));
                out.push(Target::CalcCurrency);
            }
            _ => {}
        }
    }
    out
}

/// Everything besides the chapter that changes how it looks.
pub struct DocContext<'a> {
    /// The course (decisions, reference, strings).
    pub course: &'a Course,
    /// The learner's answers and ticks.
    pub progress: &'a Progress,
    /// The focused interactive part.
    pub focus: Option<usize>,
    /// Calculator values.
    pub calc: &'a CalcValues,
    /// The calculator field being edited and its text.
    pub calc_edit: Option<(CalcField, &'a str)>,
    /// The last calculator error (a string key).
    pub calc_error: Option<content::Key>,
    /// Plain ASCII drawing.
    pub ascii: bool,
    /// The language, for number formatting.
    pub lang: content::Lang,
    /// In a workshop session: which decisions may show right/wrong (None: all at once).
    pub votes: Option<&'a crate::pace::RoomVotes>,
}

impl DocContext<'_> {
    fn strings(&self) -> &Strings {
        &self.course.strings
    }
}

/// Cells reserved on the left of every line for the focus marker.
pub const GUTTER: usize = 2;

/// Lays out the chapter for `width` cells (including the gutter): the title, then block after
/// block until a decision card veils the rest.
pub fn layout(chapter: &Chapter, ctx: &DocContext<'_>, width: u16) -> Vec<DocLine> {
    let max = usize::from(width).saturating_sub(GUTTER).max(10);
    let mut lines = Vec::new();
    let title = vec![(chapter.title.clone(), Tone::Title)];
    lines.extend(
        wrap::wrap(&title, max, &[], &[])
            .into_iter()
            .map(DocLine::new),
    );
    lines.push(DocLine::blank());
    let mut next_target = 0;
    for block in &chapter.blocks {
        let start = lines.len();
        if let Block::Directive { directive, .. } = block {
            widgets::directive(directive, ctx, max, &mut next_target, &mut lines);
            if let Directive::Decision(id) = directive
                && let Some(notice) = veiled_after(ctx.progress, ctx.votes, id)
            {
                veil_after_card(ctx, notice, max, &mut lines);
                break;
            }
        } else {
            prose_block(block, ctx, max, &mut lines);
        }
        if lines.len() > start {
            lines.push(DocLine::blank());
        }
    }
    apply_focus_gutter(&mut lines, ctx);
    lines
}

/// Lays out one block of prose (heading, paragraph, list, quote, code, table, rule); directives
/// are laid out by `layout`, which decides where the chapter stops.
fn prose_block(block: &Block, ctx: &DocContext<'_>, max: usize, lines: &mut Vec<DocLine>) {
    match block {
        Block::Heading { level, text } => {
            let tone = if *level <= 2 {
                Tone::Heading
            } else {
                Tone::Subheading
            };
            lines.extend(
                wrap::wrap(&runs(text, Some(tone)), max, &[], &[])
                    .into_iter()
                    .map(DocLine::new),
            );
        }
        Block::Paragraph(text) => lines.extend(
            wrap::wrap(&runs(text, None), max, &[], &[])
                .into_iter()
                .map(DocLine::new),
        ),
        Block::List(items) => list_lines(items, ctx, max, lines),
        Block::Quote(paragraphs) => quote_lines(paragraphs, ctx, max, lines),
        // The fence's language tag (`csharp`, `sql`) is for the author's tools: on screen it
        // read as a stray word above the code, which shows its language itself.
        Block::Code { text, .. } => {
            for line in text.lines() {
                for piece in wrap::hard_wrap(line, max.saturating_sub(2)) {
                    lines.push(DocLine::new(vec![Span {
                        text: format!("  {piece}"),
                        tone: Tone::CodeBlock,
                    }]));
                }
            }
        }
        Block::Table { header, rows } => {
            let header: Vec<_> = header.iter().map(|c| runs(c, None)).collect();
            let rows: Vec<Vec<_>> = rows
                .iter()
                .map(|r| r.iter().map(|c| runs(c, None)).collect())
                .collect();
            lines.extend(wrap::table(&header, &rows, max, ctx.ascii));
        }
        Block::Rule => {
            let rule = if ctx.ascii { "-" } else { "─" }.repeat(max.min(40));
            lines.push(DocLine::new(vec![Span {
                text: rule,
                tone: Tone::Border,
            }]));
        }
        Block::Directive { .. } => {}
    }
}

/// A list: each item indented by its depth, its marker (a `*` for `•` in ASCII) hanging.
fn list_lines(items: &[ListItem], ctx: &DocContext<'_>, max: usize, lines: &mut Vec<DocLine>) {
    for item in items {
        let indent = "  ".repeat(item.depth);
        let marker = if ctx.ascii && item.marker == "•" {
            "*"
        } else {
            item.marker.as_str()
        };
        let first = [Span {
            text: format!("{indent}{marker} "),
            tone: Tone::Dim,
        }];
        let rest = [Span {
            text: " ".repeat(wrap::width(&first[0].text)),
            tone: Tone::Text,
        }];
        lines.extend(
            wrap::wrap(&runs(&item.text, None), max, &first, &rest)
                .into_iter()
                .map(DocLine::new),
        );
    }
}

/// A quote: every line behind a bar, paragraphs parted by a line holding only the bar.
fn quote_lines(
    paragraphs: &[Vec<Inline>],
    ctx: &DocContext<'_>,
    max: usize,
    lines: &mut Vec<DocLine>,
) {
    let bar = [Span {
        text: if ctx.ascii { "| " } else { "▌ " }.to_owned(),
        tone: Tone::Border,
    }];
    for (i, paragraph) in paragraphs.iter().enumerate() {
        if i > 0 {
            lines.push(DocLine::new(bar.to_vec()));
        }
        lines.extend(
            wrap::wrap(&runs(paragraph, Some(Tone::Quote)), max, &bar, &bar)
                .into_iter()
                .map(DocLine::new),
        );
    }
}

/// Why the chapter stops below the card of decision `id`, as the key of the line that says so;
/// None when it goes on. Below a card the chapter teaches its answer: so it waits for the
/// learner's answer, and in a workshop that holds feedback also for the instructor's reveal,
/// or one trainee could read the answer out to the room before the vote ends.
pub fn veiled_after(
    progress: &Progress,
    votes: Option<&crate::pace::RoomVotes>,
    id: &str,
) -> Option<content::Key> {
    if !progress.decisions.contains_key(id) {
        Some(key::reader::AFTER_CARD)
    } else if votes.is_some_and(|votes| !votes.verdict_shown(id)) {
        Some(key::reader::AFTER_HELD_CARD)
    } else {
        None
    }
}

/// Draws the line that says why the chapter stops here, instead of what follows (on any screen
/// size).
fn veil_after_card(ctx: &DocContext<'_>, key: content::Key, max: usize, lines: &mut Vec<DocLine>) {
    lines.push(DocLine::blank());
    let notice = vec![(ctx.strings().get(key).to_owned(), Tone::Dim)];
    lines.extend(
        wrap::wrap(&notice, max, &[], &[])
            .into_iter()
            .map(DocLine::new),
    );
}

/// Prefixes every line with the gutter; the focused part gets a marker there.
fn apply_focus_gutter(lines: &mut [DocLine], ctx: &DocContext<'_>) {
    let marker = if ctx.ascii { "> " } else { "▌ " };
    for line in lines {
        let focused = line.target.is_some() && line.target == ctx.focus;
        let gutter = if focused {
            Span {
                text: marker.to_owned(),
                tone: Tone::Focus,
            }
        } else {
            Span {
                text: "  ".to_owned(),
                tone: Tone::Text,
            }
        };
        line.spans.insert(0, gutter);
    }
}

/// Turns inlines into styled runs; `base` overrides the tone of plain text (headings, quotes).
fn runs(inlines: &[Inline], base: Option<Tone>) -> Vec<(String, Tone)> {
    inlines
        .iter()
        .map(|i| {
            let tone = if i.style.code {
                Tone::Code
            } else if i.style.bold {
                base.filter(|b| matches!(b, Tone::Heading | Tone::Subheading))
                    .unwrap_or(Tone::Bold)
            } else if i.style.italic {
                Tone::Italic
            } else if i.style.strike {
                Tone::Strike
            } else {
                base.unwrap_or(Tone::Text)
            };
            (i.text.clone(), tone)
        })
        .collect()
}

#[cfg(test)]
mod tests;

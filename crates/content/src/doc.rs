//! The chapter body as a small document model: the subset of Markdown the reader renders, plus
//! `::: ` directives that embed interactive parts. Parsed once at load time so rendering never
//! parses Markdown.

use super::Problem;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// How a run of inline text is emphasised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(clippy::struct_excessive_bools)] // four independent Markdown emphasis flags
pub struct InlineStyle {
    /// `**strong**`.
    pub bold: bool,
    /// `*emphasis*`.
    pub italic: bool,
    /// `` `code` ``.
    pub code: bool,
    /// `~~struck~~`.
    pub strike: bool,
}

/// A run of text with one style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inline {
    /// The text (soft breaks already turned into spaces).
    pub text: String,
    /// Its emphasis.
    pub style: InlineStyle,
}

/// One item of a (flattened) list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListItem {
    /// 0 for top-level items, 1 for nested ones.
    pub depth: usize,
    /// `•` or `3.`.
    pub marker: String,
    /// The item's text.
    pub text: Vec<Inline>,
}

/// An interactive part embedded in a chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    /// `::: decision ID`.
    Decision(String),
    /// `::: widget NAME`.
    Widget(Widget),
}

/// The widgets a chapter can embed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Widget {
    /// The outage-cost calculator.
    CostCalculator,
    /// The production checklist toggles.
    Checklist,
    /// The runbook signals.
    Runbook,
    /// The three level lists.
    Levels,
    /// The flow map stages.
    Flow,
}

impl Widget {
    /// Parses the widget name used after `::: widget`.
    pub fn from_name(name: &str) -> Option<Widget> {
        Some(match name {
            "cost-calculator" => Widget::CostCalculator,
            "checklist" => Widget::Checklist,
            "runbook" => Widget::Runbook,
            "levels" => Widget::Levels,
            "flow" => Widget::Flow,
            _ => return None,
        })
    }
}

/// A block of a chapter body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// `##` (level 2) or `###` (level 3); level 1 is the chapter title.
    Heading { level: u8, text: Vec<Inline> },
    /// A paragraph.
    Paragraph(Vec<Inline>),
    /// A bullet or numbered list.
    List(Vec<ListItem>),
    /// A block quote: its paragraphs.
    Quote(Vec<Vec<Inline>>),
    /// A fenced code block.
    Code { lang: String, text: String },
    /// A GFM table: header cells and rows of cells.
    Table {
        header: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    /// A thematic break.
    Rule,
    /// An embedded interactive part, with its 1-based line in the file.
    Directive { directive: Directive, line: usize },
}

/// Parses a chapter body. `first_line` is the file line the body starts on (for messages).
pub fn parse_body(
    path: &str,
    body: &str,
    first_line: usize,
    problems: &mut Vec<Problem>,
) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut segment = String::new();
    let mut segment_start = first_line;
    for (index, line) in body.lines().enumerate() {
        let line_no = first_line + index;
        if let Some(rest) = line.strip_prefix(":::") {
            parse_markdown(path, &segment, segment_start, &mut blocks, problems);
            segment.clear();
            segment_start = line_no + 1;
            match parse_directive(rest.trim()) {
                Ok(directive) => blocks.push(Block::Directive {
                    directive,
                    line: line_no,
                }),
                Err(message) => problems.push(Problem {
                    path: path.to_owned(),
                    line: line_no,
                    column: 1,
                    message,
                }),
            }
        } else {
            segment.push_str(line);
            segment.push('\n');
        }
    }
    parse_markdown(path, &segment, segment_start, &mut blocks, problems);
    blocks
}

fn parse_directive(rest: &str) -> Result<Directive, String> {
    let mut words = rest.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some("decision"), Some(id), None) => Ok(Directive::Decision(id.to_owned())),
        (Some("widget"), Some(name), None) => Widget::from_name(name).map(Directive::Widget).ok_or_else(|| {
            format!("unknown widget {name:?}; known: cost-calculator, checklist, runbook, levels, flow")
        }),
        _ => Err(format!(
            "unknown directive \"::: {rest}\"; use \"::: decision ID\" or \"::: widget NAME\""
        )),
    }
}

/// Collects Markdown events into blocks; reports what the reader cannot show.
fn parse_markdown(
    path: &str,
    text: &str,
    first_line: usize,
    blocks: &mut Vec<Block>,
    problems: &mut Vec<Problem>,
) {
    if text.trim().is_empty() {
        return;
    }
    let mut builder = Builder::default();
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut last_reported_line = 0;
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        if let Err(message) = builder.event(event) {
            let (line, column) = super::problem::line_column(text, range.start);
            let line = first_line + line - 1;
            // One message per line is enough: `<b>x</b>` would otherwise report twice.
            if line != last_reported_line {
                last_reported_line = line;
                problems.push(Problem {
                    path: path.to_owned(),
                    line,
                    column,
                    message,
                });
            }
        }
    }
    blocks.append(&mut builder.blocks);
}

/// The cells of one table row.
type Cells = Vec<Vec<Inline>>;

#[derive(Default)]
struct Builder {
    blocks: Vec<Block>,
    inlines: Vec<Inline>,
    style: InlineStyle,
    heading: Option<u8>,
    code: Option<(String, String)>,
    quote: Option<Vec<Vec<Inline>>>,
    list_stack: Vec<Option<u64>>,
    list_items: Vec<ListItem>,
    item_open: bool,
    table: Option<(Cells, Vec<Cells>)>,
    row: Vec<Vec<Inline>>,
    in_head: bool,
}

impl Builder {
    fn event(&mut self, event: Event<'_>) -> Result<(), String> {
        match event {
            Event::Start(tag) => self.start(tag)?,
            Event::End(tag) => self.end(tag),
            Event::Text(text) => {
                if let Some((_, code)) = &mut self.code {
                    code.push_str(&text);
                } else {
                    self.push_text(&text, self.style);
                }
            }
            Event::Code(text) => self.push_text(
                &text,
                InlineStyle {
                    code: true,
                    ..self.style
                },
            ),
            Event::SoftBreak | Event::HardBreak => self.push_text(" ", self.style),
            Event::Rule => self.blocks.push(Block::Rule),
            Event::Html(_) | Event::InlineHtml(_) => {
                return Err(
                    "raw HTML is not shown by the terminal reader; write Markdown".to_owned(),
                );
            }
            Event::FootnoteReference(_) | Event::TaskListMarker(_) => {
                return Err("footnotes and task lists are not supported".to_owned());
            }
            Event::InlineMath(_) | Event::DisplayMath(_) => {
                return Err("math is not supported".to_owned());
            }
        }
        Ok(())
    }

    fn start(&mut self, tag: Tag<'_>) -> Result<(), String> {
        match tag {
            Tag::Heading { level, .. } => {
                let level = level as u8;
                if level == 1 {
                    return Err(
                        "use ## or ### in chapters; the title comes from the header".to_owned()
                    );
                }
                self.heading = Some(level.min(3));
            }
            Tag::CodeBlock(kind) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(lang) => lang.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::BlockQuote(_) => self.quote = Some(Vec::new()),
            Tag::List(start) => {
                self.close_item();
                self.list_stack.push(start);
            }
            Tag::Item => {
                self.close_item();
                self.item_open = true;
            }
            Tag::Table(_) => self.table = Some((Vec::new(), Vec::new())),
            Tag::TableHead => self.in_head = true,
            Tag::TableRow => self.row.clear(),
            Tag::Emphasis => self.style.italic = true,
            Tag::Strong => self.style.bold = true,
            Tag::Strikethrough => self.style.strike = true,
            Tag::Image { .. } => return Err("images cannot be shown in a terminal".to_owned()),
            Tag::Paragraph | Tag::TableCell | Tag::Link { .. } | Tag::HtmlBlock => {}
            other => return Err(format!("unsupported Markdown element {other:?}")),
        }
        Ok(())
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) => {
                let text = std::mem::take(&mut self.inlines);
                let level = self.heading.take().unwrap_or(2);
                self.blocks.push(Block::Heading { level, text });
            }
            TagEnd::Paragraph => {
                if self.item_open {
                    return; // a loose list item's paragraph stays in the item
                }
                let text = std::mem::take(&mut self.inlines);
                match &mut self.quote {
                    Some(paragraphs) => paragraphs.push(text),
                    None => self.blocks.push(Block::Paragraph(text)),
                }
            }
            TagEnd::CodeBlock => {
                if let Some((lang, mut text)) = self.code.take() {
                    while text.ends_with('\n') {
                        text.pop();
                    }
                    self.blocks.push(Block::Code { lang, text });
                }
            }
            TagEnd::BlockQuote(_) => {
                if let Some(paragraphs) = self.quote.take() {
                    self.blocks.push(Block::Quote(paragraphs));
                }
            }
            TagEnd::Item => self.close_item(),
            TagEnd::List(_) => {
                self.close_item();
                self.list_stack.pop();
                if self.list_stack.is_empty() {
                    let items = std::mem::take(&mut self.list_items);
                    self.blocks.push(Block::List(items));
                }
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.inlines);
                self.row.push(cell);
            }
            TagEnd::TableHead => {
                self.in_head = false;
                if let Some((header, _)) = &mut self.table {
                    *header = std::mem::take(&mut self.row);
                }
            }
            TagEnd::TableRow => {
                if let Some((_, rows)) = &mut self.table {
                    rows.push(std::mem::take(&mut self.row));
                }
            }
            TagEnd::Table => {
                if let Some((header, rows)) = self.table.take() {
                    self.blocks.push(Block::Table { header, rows });
                }
            }
            TagEnd::Emphasis => self.style.italic = false,
            TagEnd::Strong => self.style.bold = false,
            TagEnd::Strikethrough => self.style.strike = false,
            _ => {}
        }
    }

    /// Turns the text gathered for the open list item into an item.
    fn close_item(&mut self) {
        if !self.item_open {
            return;
        }
        self.item_open = false;
        let text = std::mem::take(&mut self.inlines);
        if text.is_empty() {
            return;
        }
        let depth = self.list_stack.len().saturating_sub(1);
        let marker = match self.list_stack.last_mut() {
            Some(Some(number)) => {
                let marker = format!("{number}.");
                *number += 1;
                marker
            }
            _ => "•".to_owned(),
        };
        self.list_items.push(ListItem {
            depth,
            marker,
            text,
        });
    }

    fn push_text(&mut self, text: &str, style: InlineStyle) {
        match self.inlines.last_mut() {
            Some(last) if last.style == style => last.text.push_str(text),
            _ => self.inlines.push(Inline {
                text: text.to_owned(),
                style,
            }),
        }
    }
}

/// The plain text of a run of inlines (for search and word counts).
pub fn plain(inlines: &[Inline]) -> String {
    inlines.iter().map(|i| i.text.as_str()).collect()
}

#[cfg(test)]
mod tests;

//! A chapter file: a TOML header between `+++` lines and a Markdown body.

use super::Problem;
use super::doc::{self, Block, Directive};
use super::toml_file::{self, at, check_text, check_version};
use serde::Deserialize;
use toml::Spanned;

/// One lesson chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chapter {
    /// Stable id, the same in every language.
    pub id: String,
    /// 1-based position in the course (from the file name prefix).
    pub number: usize,
    /// The title shown in the list and the reader.
    pub title: String,
    /// One line for the chapter list.
    pub summary: String,
    /// The parsed body.
    pub blocks: Vec<Block>,
    /// The file it came from, relative to the content root.
    pub path: String,
    /// Line of the `id` in the header (for cross-file messages).
    pub id_line: usize,
}

impl Chapter {
    /// The decision ids this chapter embeds, in order.
    pub fn decision_ids(&self) -> impl Iterator<Item = (&str, usize)> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Directive {
                directive: Directive::Decision(id),
                line,
            } => Some((id.as_str(), *line)),
            _ => None,
        })
    }

    /// The number of words in the body (for the closing notes and a sanity check).
    pub fn word_count(&self) -> usize {
        self.blocks
            .iter()
            .map(|block| match block {
                Block::Heading { text, .. } | Block::Paragraph(text) => words(&doc::plain(text)),
                Block::List(items) => items.iter().map(|i| words(&doc::plain(&i.text))).sum(),
                Block::Quote(paragraphs) => paragraphs.iter().map(|p| words(&doc::plain(p))).sum(),
                Block::Code { text, .. } => words(text),
                Block::Table { header, rows } => header
                    .iter()
                    .chain(rows.iter().flatten())
                    .map(|cell| words(&doc::plain(cell)))
                    .sum(),
                Block::Rule | Block::Directive { .. } => 0,
            })
            .sum()
    }
}

/// Reading speed the "read" rule assumes: a chapter counts as read after a fifth of its words at
/// this speed, and only once it was scrolled to the end.
pub const READING_WORDS_PER_MINUTE: usize = 200;
/// A chapter counts as read only after at least this share (1/N) of its reading time.
pub const MIN_READING_SHARE: usize = 5;

impl Chapter {
    /// Seconds a learner must have spent on the chapter before it may count as read: a fifth
    /// of its reading time at 200 words per minute, rounded up.
    pub fn min_reading_secs(&self) -> u64 {
        let per = READING_WORDS_PER_MINUTE * MIN_READING_SHARE;
        (self.word_count() * 60).div_ceil(per) as u64
    }
}

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    format_version: Spanned<u32>,
    id: Spanned<String>,
    title: Spanned<String>,
    summary: Spanned<String>,
}

const FENCE: &str = "+++";

/// Parses a chapter file named `NN-slug.md`.
pub fn parse(
    path: &str,
    file_name: &str,
    text: &str,
    problems: &mut Vec<Problem>,
) -> Option<Chapter> {
    let Some(number) = chapter_number(file_name) else {
        problems.push(Problem::file(
            path,
            "chapter file names start with a two-digit number, e.g. 03-flow-map.md",
        ));
        return None;
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(after_open) = text
        .strip_prefix(FENCE)
        .and_then(|t| t.strip_prefix('\n').or_else(|| t.strip_prefix("\r\n")))
    else {
        problems.push(Problem::file(
            path,
            "a chapter starts with a +++ line, then its TOML header, then +++",
        ));
        return None;
    };
    let Some(close) = find_closing_fence(after_open) else {
        problems.push(Problem::file(
            path,
            "the TOML header is not closed by a +++ line",
        ));
        return None;
    };
    let header_text = &after_open[..close];
    // The header starts on line 2; pad so toml errors report file lines.
    let padded = format!("\n{header_text}");
    let header: Header = match toml_file::parse(path, &padded) {
        Ok(h) => h,
        Err(problem) => {
            problems.push(problem);
            return None;
        }
    };
    let before = problems.len();
    check_version(path, &padded, &header.format_version, problems);
    toml_file::check_ids(path, &padded, "chapter", [&header.id], problems);
    check_text(path, &padded, "title", &header.title, problems);
    check_text(path, &padded, "summary", &header.summary, problems);
    let body_start = close + FENCE.len();
    let body = after_open[body_start..]
        .trim_start_matches(['\r'])
        .strip_prefix('\n')
        .unwrap_or(&after_open[body_start..]);
    let body_first_line = 3 + header_text.matches('\n').count();
    let blocks = doc::parse_body(path, body, body_first_line, problems);
    if blocks.is_empty() {
        problems.push(at(path, &padded, &header.id, "the chapter has no body"));
    }
    let id_line = super::problem::line_column(&padded, header.id.span().start).0;
    (problems.len() == before).then(|| Chapter {
        id: header.id.into_inner(),
        number,
        title: header.title.into_inner(),
        summary: header.summary.into_inner(),
        blocks,
        path: path.to_owned(),
        id_line,
    })
}

/// The byte offset (in `text`) of the line that closes the header.
fn find_closing_fence(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end() == FENCE {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

fn chapter_number(file_name: &str) -> Option<usize> {
    let stem = file_name.strip_suffix(".md")?;
    let (digits, slug) = stem.split_once('-')?;
    (digits.len() == 2 && !slug.is_empty())
        .then(|| digits.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "+++\nformat_version = 1\nid = \"flow-map\"\ntitle = \"Flow\"\nsummary = \"s\"\n+++\n\n## Map\n\nText.\n\n::: decision broker-down\n";

    #[test]
    fn parses_header_and_body() {
        let mut problems = Vec::new();
        let chapter = parse(
            "lessons/en/chapters/03-flow-map.md",
            "03-flow-map.md",
            GOOD,
            &mut problems,
        )
        .expect("chapter");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            (chapter.number, chapter.id.as_str(), chapter.id_line),
            (3, "flow-map", 3)
        );
        assert_eq!(
            chapter.decision_ids().collect::<Vec<_>>(),
            vec![("broker-down", 12)]
        );
        assert_eq!(chapter.word_count(), 2);
        // 2 words at 200 wpm are 0.6 s; a fifth of that rounds up to one second.
        assert_eq!(chapter.min_reading_secs(), 1);
        let long = GOOD.replace("Text.", &"word ".repeat(1000));
        let chapter = parse("x/03-a.md", "03-a.md", &long, &mut problems).expect("chapter");
        // 1001 words: 300.3 s of reading, a fifth is 60.06 s, rounded up.
        assert_eq!(chapter.min_reading_secs(), 61);
    }

    #[test]
    fn header_errors_point_at_file_lines() {
        let mut problems = Vec::new();
        let text = GOOD.replace("title = \"Flow\"", "title = 5");
        assert!(parse("x/03-a.md", "03-a.md", &text, &mut problems).is_none());
        assert_eq!(problems[0].line, 4, "{problems:?}");
    }

    #[test]
    fn rejects_bad_names_and_missing_fences() {
        let mut problems = Vec::new();
        assert!(parse("x/a.md", "a.md", GOOD, &mut problems).is_none());
        assert!(parse("x/01-a.md", "01-a.md", "no header", &mut problems).is_none());
        assert!(parse("x/01-a.md", "01-a.md", "+++\nid = 1\n", &mut problems).is_none());
        let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert!(messages[0].contains("two-digit"));
        assert!(messages[1].contains("starts with a +++"));
        assert!(messages[2].contains("not closed"));
    }
}

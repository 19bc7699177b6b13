//! Word wrapping of styled runs and table layout, measured in terminal cells.

use super::{DocLine, Span, Tone};
use unicode_width::UnicodeWidthChar;

/// A word: glued runs without whitespace between them (`**bold**,` stays one word).
#[derive(Default)]
struct Word {
    parts: Vec<(String, Tone)>,
    width: usize,
}

fn words(runs: &[(String, Tone)]) -> Vec<Word> {
    let mut words = Vec::new();
    let mut current: Option<Word> = None;
    for (text, tone) in runs {
        for ch in text.chars() {
            if ch.is_whitespace() {
                words.extend(current.take());
                continue;
            }
            let word = current.get_or_insert_with(Word::default);
            match word.parts.last_mut() {
                Some((t, last)) if last == tone => t.push(ch),
                _ => word.parts.push((ch.to_string(), *tone)),
            }
            word.width += ch.width().unwrap_or(0);
        }
    }
    words.extend(current);
    words
}

/// Width of a string in cells.
pub fn width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

fn spans_width(spans: &[Span]) -> usize {
    spans.iter().map(|s| width(&s.text)).sum()
}

/// Wraps runs into lines of at most `max` cells. The first line starts with `first`, the
/// following ones with `rest` (hanging indents for list markers and quote bars).
pub fn wrap(runs: &[(String, Tone)], max: usize, first: &[Span], rest: &[Span]) -> Vec<Vec<Span>> {
    let mut lines = Vec::new();
    let mut line: Vec<Span> = first.to_vec();
    let mut used = spans_width(first);
    let mut empty = true;
    for word in words(runs) {
        let space = usize::from(!empty);
        if !empty && used + space + word.width > max {
            lines.push(std::mem::replace(&mut line, rest.to_vec()));
            used = spans_width(rest);
            empty = true;
        }
        if !empty {
            push(&mut line, " ", word.parts[0].1);
            used += 1;
        }
        if used + word.width <= max || max <= used {
            for (text, tone) in &word.parts {
                push(&mut line, text, *tone);
            }
            used += word.width;
        } else {
            // A word longer than the line (a URL, a long identifier): split it by cells.
            for (text, tone) in &word.parts {
                for ch in text.chars() {
                    let w = ch.width().unwrap_or(0);
                    if used + w > max && !empty {
                        lines.push(std::mem::replace(&mut line, rest.to_vec()));
                        used = spans_width(rest);
                    }
                    push(&mut line, &ch.to_string(), *tone);
                    used += w;
                    empty = false;
                }
            }
        }
        empty = false;
    }
    if !empty || lines.is_empty() {
        lines.push(line);
    }
    lines
}

fn push(line: &mut Vec<Span>, text: &str, tone: Tone) {
    match line.last_mut() {
        Some(last) if last.tone == tone => last.text.push_str(text),
        _ => line.push(Span {
            text: text.to_owned(),
            tone,
        }),
    }
}

/// Hard-wraps one preformatted line (code) at `max` cells.
pub fn hard_wrap(text: &str, max: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut used = 0;
    for ch in text.chars() {
        let w = ch.width().unwrap_or(0);
        if used + w > max.max(1) {
            out.push(String::new());
            used = 0;
        }
        if let Some(last) = out.last_mut() {
            last.push(ch);
        }
        used += w;
    }
    out
}

/// Wraps a URL at `max` cells, breaking only after a `/` (`https://example.org/` + `lab`); a
/// single part longer than a line is the only thing cut elsewhere.
pub fn url_wrap(url: &str, max: usize) -> Vec<String> {
    let mut out: Vec<String> = vec![String::new()];
    for part in url.split_inclusive('/') {
        let used = out.last().map_or(0, |l| width(l));
        if used > 0 && used + width(part) > max {
            out.push(String::new());
        }
        if width(part) > max {
            let last = out.pop().unwrap_or_default();
            let mut pieces = hard_wrap(&format!("{last}{part}"), max);
            out.append(&mut pieces);
        } else if let Some(last) = out.last_mut() {
            last.push_str(part);
        }
    }
    out
}

/// Lays out a table in `max` cells: natural column widths when they fit, otherwise shrunk
/// columns with wrapped cells, and for very narrow widths one "header: value" line per cell.
pub fn table(
    header: &[Vec<(String, Tone)>],
    rows: &[Vec<Vec<(String, Tone)>>],
    max: usize,
    ascii: bool,
) -> Vec<DocLine> {
    let cols = rows
        .iter()
        .map(Vec::len)
        .chain([header.len()])
        .max()
        .unwrap_or(0);
    if cols == 0 {
        return Vec::new();
    }
    let sep_width = 3 * (cols - 1);
    let natural = natural_widths(header, rows, cols);
    let budget = max.saturating_sub(sep_width);
    if budget < 6 * cols {
        return stacked(header, rows, max);
    }
    let widths = fit_columns(&natural, budget);
    let (bar, cross, rule) = if ascii {
        (" | ", "-+-", '-')
    } else {
        (" │ ", "─┼─", '─')
    };
    let wraps = rows.iter().any(|row| {
        row.iter()
            .zip(&widths)
            .any(|(cell, w)| cell_width(cell) > *w)
    });
    let mut lines = row_lines(header, true, &widths, bar);
    let rule_line: String = widths
        .iter()
        .map(|w| rule.to_string().repeat(*w))
        .collect::<Vec<_>>()
        .join(cross);
    lines.push(DocLine::new(vec![Span {
        text: rule_line.clone(),
        tone: Tone::Border,
    }]));
    for (i, row) in rows.iter().enumerate() {
        if wraps && i > 0 {
            lines.push(DocLine::new(vec![Span {
                text: thin_rule(&rule_line, rule, ascii),
                tone: Tone::Border,
            }]));
        }
        lines.extend(row_lines(row, false, &widths, bar));
    }
    lines
}

/// The cells a cell's text takes on one line.
fn cell_width(cell: &[(String, Tone)]) -> usize {
    cell.iter().map(|(t, _)| width(t)).sum()
}

/// Each of the `cols` columns' widest cell on one line, at least 1.
fn natural_widths(
    header: &[Vec<(String, Tone)>],
    rows: &[Vec<Vec<(String, Tone)>>],
    cols: usize,
) -> Vec<usize> {
    (0..cols)
        .map(|c| {
            std::iter::once(header.get(c))
                .chain(rows.iter().map(|r| r.get(c)))
                .flatten()
                .map(|cell| cell_width(cell))
                .max()
                .unwrap_or(0)
                .max(1)
        })
        .collect()
}

/// One table row (the header bold), each cell wrapped to its column and padded, parted by `bar`.
fn row_lines(
    cells: &[Vec<(String, Tone)>],
    bold: bool,
    widths: &[usize],
    bar: &str,
) -> Vec<DocLine> {
    let cols = widths.len();
    let wrapped: Vec<Vec<Vec<Span>>> = (0..cols)
        .map(|c| {
            let runs: Vec<(String, Tone)> = cells
                .get(c)
                .map(|cell| {
                    cell.iter()
                        .map(|(t, tone)| (t.clone(), if bold { Tone::Bold } else { *tone }))
                        .collect()
                })
                .unwrap_or_default();
            wrap(&runs, widths[c], &[], &[])
        })
        .collect();
    let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
    let mut lines = Vec::new();
    for i in 0..height {
        let mut spans = Vec::new();
        for (c, cell) in wrapped.iter().enumerate() {
            if c > 0 {
                spans.push(Span {
                    text: bar.to_owned(),
                    tone: Tone::Border,
                });
            }
            let content = cell.get(i).cloned().unwrap_or_default();
            let pad = widths[c].saturating_sub(spans_width(&content));
            spans.extend(content);
            if c + 1 < cols {
                spans.push(Span {
                    text: " ".repeat(pad),
                    tone: Tone::Text,
                });
            }
        }
        lines.push(DocLine::new(spans));
    }
    lines
}

/// The header rule dotted, without crossings: it parts rows whose cells wrap and would run on.
fn thin_rule(rule_line: &str, rule: char, ascii: bool) -> String {
    rule_line
        .chars()
        .map(|c| {
            if c == rule {
                if ascii { '.' } else { '┄' }
            } else {
                ' '
            }
        })
        .collect()
}

/// Shares `budget` cells between columns: columns that fit keep their natural width, the rest
/// split what remains in proportion to their natural width.
fn fit_columns(natural: &[usize], budget: usize) -> Vec<usize> {
    if natural.iter().sum::<usize>() <= budget {
        return natural.to_vec();
    }
    let fair = budget / natural.len();
    let mut widths: Vec<usize> = natural.iter().map(|n| (*n).min(fair)).collect();
    let mut left = budget - widths.iter().sum::<usize>();
    let deficit: usize = natural.iter().zip(&widths).map(|(n, w)| n - w).sum();
    if deficit > 0 {
        for (w, n) in widths.iter_mut().zip(natural) {
            let extra = ((n - *w) * left).checked_div(deficit).unwrap_or(0);
            *w += extra;
        }
        left = budget - widths.iter().sum::<usize>();
        for (w, n) in widths.iter_mut().zip(natural) {
            if left > 0 && *w < *n {
                *w += 1;
                left -= 1;
            }
        }
    }
    widths
}

fn stacked(
    header: &[Vec<(String, Tone)>],
    rows: &[Vec<Vec<(String, Tone)>>],
    max: usize,
) -> Vec<DocLine> {
    let mut lines = Vec::new();
    for row in rows {
        for (c, cell) in row.iter().enumerate() {
            let mut runs: Vec<(String, Tone)> = header
                .get(c)
                .map(|h| h.iter().map(|(t, _)| (t.clone(), Tone::Bold)).collect())
                .unwrap_or_default();
            runs.push((": ".to_owned(), Tone::Bold));
            runs.extend(cell.iter().cloned());
            lines.extend(
                wrap(
                    &runs,
                    max,
                    &[],
                    &[Span {
                        text: "  ".to_owned(),
                        tone: Tone::Text,
                    }],
                )
                .into_iter()
                .map(DocLine::new),
            );
        }
        lines.push(DocLine::blank());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Vec<Span>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    #[test]
    fn wraps_words_with_hanging_indent() {
        let runs = vec![("one two three four".to_owned(), Tone::Text)];
        let first = [Span {
            text: "- ".into(),
            tone: Tone::Text,
        }];
        let rest = [Span {
            text: "  ".into(),
            tone: Tone::Text,
        }];
        assert_eq!(
            text(&wrap(&runs, 10, &first, &rest)),
            vec!["- one two", "  three", "  four"]
        );
    }

    #[test]
    fn glued_runs_stay_one_word_and_long_words_split() {
        let runs = vec![
            ("a ".into(), Tone::Text),
            ("bold".into(), Tone::Bold),
            (", c".into(), Tone::Text),
        ];
        assert_eq!(text(&wrap(&runs, 7, &[], &[])), vec!["a bold,", "c"]);
        let long = vec![("abcdefghij".to_owned(), Tone::Text)];
        assert_eq!(text(&wrap(&long, 4, &[], &[])), vec!["abcd", "efgh", "ij"]);
    }

    #[test]
    fn tables_fit_the_width() {
        let cell = |t: &str| vec![(t.to_owned(), Tone::Text)];
        let header = vec![cell("Need"), cell("Service Bus"), cell("SQS")];
        let rows = vec![vec![
            cell("Ordering within a group of messages"),
            cell("Sessions with SessionId"),
            cell("FIFO with MessageGroupId"),
        ]];
        for max in [30, 50, 80] {
            let lines = table(&header, &rows, max, false);
            for line in &lines {
                assert!(spans_width(&line.spans) <= max, "{max}: {:?}", line.spans);
            }
        }
        assert_eq!(hard_wrap("abcdef", 4), vec!["abcd", "ef"]);
        assert_eq!(
            url_wrap("https://example.org/queuelab-map", 30),
            vec!["https://example.org/", "queuelab-map"]
        );
        assert_eq!(url_wrap("https://a.b/c", 40), vec!["https://a.b/c"]);
    }
}

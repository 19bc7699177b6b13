//! Renders report blocks as plain text and as a small self-contained HTML document.

use super::Block;
use crate::domain::html::escape_html;
use std::fmt::Write;

/// Plain text: the title underlined, headings underlined, items with "- ".
pub fn text(title: &str, blocks: &[Block]) -> String {
    let mut out = format!("{title}\n{}\n", "=".repeat(title.chars().count()));
    let mut in_list = false;
    for block in blocks {
        match block {
            Block::Heading(h) => {
                let _ = write!(out, "\n{h}\n{}\n", "-".repeat(h.chars().count()));
                in_list = false;
            }
            Block::Para(p) => {
                let _ = write!(out, "\n{p}\n");
                in_list = false;
            }
            Block::Item(i) => {
                if !in_list {
                    out.push('\n');
                }
                let _ = writeln!(out, "- {i}");
                in_list = true;
            }
        }
    }
    out
}

/// HTML: a complete document; every text passes through [`escape_html`].
pub fn html(title: &str, blocks: &[Block], lang: &str) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head><meta charset=\"utf-8\"><title>{t}</title></head>\n<body style=\"font-family: sans-serif; max-width: 48em\">\n<h1>{t}</h1>\n",
        escape_html(lang),
        t = escape_html(title)
    );
    let mut in_list = false;
    for block in blocks {
        let is_item = matches!(block, Block::Item(_));
        if in_list && !is_item {
            out.push_str("</ul>\n");
        }
        if is_item && !in_list {
            out.push_str("<ul>\n");
        }
        in_list = is_item;
        let _ = match block {
            Block::Heading(h) => writeln!(out, "<h2>{}</h2>", escape_html(h)),
            Block::Para(p) => writeln!(out, "<p>{}</p>", escape_html(p)),
            Block::Item(i) => writeln!(out, "<li>{}</li>", escape_html(i)),
        };
    }
    if in_list {
        out.push_str("</ul>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_everything_and_closes_lists() {
        let blocks = vec![
            Block::Para("<script>alert('x')</script> & \"q\"".into()),
            Block::Item("a<b".into()),
            Block::Item("c".into()),
            Block::Heading("H&M".into()),
        ];
        let page = html("T<i>", &blocks, "en");
        assert!(!page.contains("<script>"));
        assert!(
            page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;")
        );
        assert!(page.contains("<title>T&lt;i&gt;</title>"));
        assert!(page.contains("<ul>\n<li>a&lt;b</li>\n<li>c</li>\n</ul>\n<h2>H&amp;M</h2>"));
        let plain = text("T", &blocks);
        assert!(plain.contains("\n- a<b\n- c\n"));
        assert!(plain.contains("H&M\n---\n"));
    }
}

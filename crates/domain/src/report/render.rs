//! Renders report blocks as plain text and as a small self-contained HTML document.

use super::Block;
use crate::html::escape_html;
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

/// System fonts only: nothing is fetched, and every mail client has one of them.
const FONT: &str =
    "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/// HTML: a complete document; every text passes through [`escape_html`]. Mail clients drop
/// `<style>` blocks and external sheets, so the style is inline on each element, and the layout
/// is a centred table of at most 600 px (the width mail clients handle well).
pub fn html(title: &str, blocks: &[Block], lang: &str) -> String {
    let text_style = format!("font-family: {FONT}; color: #1f2328;");
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n</head>\n\
         <body style=\"margin: 0; padding: 0; background-color: #f3f4f6;\">\n\
         <table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" style=\"background-color: #f3f4f6;\">\n\
         <tr><td align=\"center\" style=\"padding: 24px 12px;\">\n\
         <table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" style=\"max-width: 600px; background-color: #ffffff; border: 1px solid #d0d7de; border-radius: 6px;\">\n\
         <tr><td style=\"padding: 24px 28px; {text_style} font-size: 16px; line-height: 1.5;\">\n\
         <h1 style=\"margin: 0 0 16px 0; font-size: 22px; line-height: 1.3; {text_style}\">{t}</h1>\n",
        lang = escape_html(lang),
        t = escape_html(title)
    );
    let mut in_list = false;
    for block in blocks {
        let is_item = matches!(block, Block::Item(_));
        if in_list && !is_item {
            out.push_str("</ul>\n");
        }
        if is_item && !in_list {
            out.push_str("<ul style=\"margin: 0 0 12px 0; padding-left: 22px;\">\n");
        }
        in_list = is_item;
        let _ = match block {
            Block::Heading(h) => writeln!(
                out,
                "<h2 style=\"margin: 24px 0 8px 0; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; font-size: 18px; line-height: 1.3; {text_style}\">{}</h2>",
                escape_html(h)
            ),
            Block::Para(p) => writeln!(
                out,
                "<p style=\"margin: 0 0 12px 0;\">{}</p>",
                escape_html(p)
            ),
            Block::Item(i) => writeln!(
                out,
                "<li style=\"margin: 0 0 6px 0;\">{}</li>",
                escape_html(i)
            ),
        };
    }
    if in_list {
        out.push_str("</ul>\n");
    }
    out.push_str("</td></tr>\n</table>\n</td></tr>\n</table>\n</body>\n</html>\n");
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
        let list = page.find("<ul").expect("a list");
        let heading = page.find("<h2").expect("a heading");
        let closed = page[list..].find("</ul>").expect("the list is closed") + list;
        assert!(closed < heading, "the list closes before the heading");
        assert_eq!(page.matches("<li").count(), 2);
        assert!(page.contains(">a&lt;b</li>") && page.contains(">H&amp;M</h2>"));
        let plain = text("T", &blocks);
        assert!(plain.contains("\n- a<b\n- c\n"));
        assert!(plain.contains("H&M\n---\n"));
    }
}

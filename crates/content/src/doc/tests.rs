use super::*;

fn parse(text: &str) -> (Vec<Block>, Vec<Problem>) {
    let mut problems = Vec::new();
    let blocks = parse_body("c.md", text, 10, &mut problems);
    (blocks, problems)
}

#[test]
fn parses_the_supported_subset() {
    let text = "## Head\n\nSome **bold** and `code`.\n\n- one\n- two\n  1. nested\n\n> remember\n\n```sql\nSELECT 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    let (blocks, problems) = parse(text);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(matches!(&blocks[0], Block::Heading { level: 2, .. }));
    let Block::Paragraph(p) = &blocks[1] else {
        panic!("paragraph expected")
    };
    assert_eq!(plain(p), "Some bold and code.");
    assert!(p.iter().any(|i| i.style.bold && i.text == "bold"));
    let Block::List(items) = &blocks[2] else {
        panic!("list expected")
    };
    assert_eq!(items.len(), 3);
    assert_eq!((items[2].depth, items[2].marker.as_str()), (1, "1."));
    assert!(matches!(&blocks[3], Block::Quote(q) if plain(&q[0]) == "remember"));
    assert_eq!(
        blocks[4],
        Block::Code {
            lang: "sql".into(),
            text: "SELECT 1;".into()
        }
    );
    let Block::Table { header, rows } = &blocks[5] else {
        panic!("table expected")
    };
    assert_eq!((header.len(), rows.len()), (2, 1));
}

#[test]
fn directives_split_the_body_and_keep_their_line() {
    let (blocks, problems) = parse("Intro.\n\n::: decision broker-down\n\nOutro.\n");
    assert!(problems.is_empty());
    assert_eq!(
        blocks[1],
        Block::Directive {
            directive: Directive::Decision("broker-down".into()),
            line: 12
        }
    );
    assert_eq!(blocks.len(), 3);
}

#[test]
fn reports_unsupported_markdown_with_its_line() {
    let (_, problems) =
        parse("fine\n\n<b>html</b>\n\n![img](x.png)\n\n::: widget nope\n::: dance\n# Title\n");
    let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
    assert_eq!(lines, vec![12, 14, 16, 17, 18], "{problems:?}");
    assert!(problems[2].message.contains("unknown widget"));
    assert!(problems[3].message.contains("unknown directive"));
}

use super::*;
use content::{ContentSource, Lang, load};

#[test]
fn every_chapter_fits_its_width_in_both_languages() {
    let content = load(&ContentSource::Embedded).expect("valid content");
    for lang in Lang::ALL {
        let course = content.course(lang);
        let calc = CalcValues::from_defaults(&course.reference.calculator);
        let progress = Progress::default();
        for width in [40u16, 76, 96] {
            for chapter in &course.chapters {
                let ctx = DocContext {
                    course,
                    progress: &progress,
                    focus: Some(0),
                    calc: &calc,
                    calc_edit: None,
                    calc_error: None,
                    ascii: width == 40,
                    lang,
                    votes: None,
                };
                let lines = layout(chapter, &ctx, width);
                assert!(lines.len() > 10, "{lang} {}", chapter.id);
                for line in &lines {
                    let w = wrap::width(&line.text());
                    assert!(
                        w <= usize::from(width),
                        "{lang} {} at {width}: {w} cells: {:?}",
                        chapter.id,
                        line.text()
                    );
                }
                let target_count = targets(chapter, course).len();
                let max_target = lines.iter().filter_map(|l| l.target).max();
                assert_eq!(
                    max_target.map_or(0, |m| m + 1),
                    target_count,
                    "{lang} {}: every target laid out",
                    chapter.id
                );
            }
        }
    }
}

/// A code block shows its code, not its fence's language tag as a word above it.
#[test]
fn code_blocks_show_no_language_tag() {
    let content = load(&ContentSource::Embedded).expect("valid content");
    let course = content.course(Lang::En);
    let calc = CalcValues::from_defaults(&course.reference.calculator);
    let progress = Progress::default();
    let ctx = DocContext {
        course,
        progress: &progress,
        focus: None,
        calc: &calc,
        calc_edit: None,
        calc_error: None,
        ascii: false,
        lang: Lang::En,
        votes: None,
    };
    let mut tagged = 0;
    for chapter in &course.chapters {
        let tags: Vec<&str> = chapter
            .blocks
            .iter()
            .filter_map(|b| match b {
                content::doc::Block::Code { lang, .. } if !lang.is_empty() => Some(lang.as_str()),
                _ => None,
            })
            .collect();
        tagged += tags.len();
        let lines = layout(chapter, &ctx, 96);
        for line in &lines {
            let text = line.text();
            assert!(
                !tags.contains(&text.trim()),
                "{}: a tag line {text:?}",
                chapter.id
            );
        }
    }
    assert!(tagged > 5, "the chapters have tagged code blocks");
}

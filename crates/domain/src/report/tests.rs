use super::*;
use content::key;
use content::{ContentSource, load};
use std::collections::BTreeSet;

#[test]
fn report_holds_every_part_in_both_renderings_and_languages() {
    let content = load(&ContentSource::Embedded).expect("shipped content is valid");
    let scenarios: Vec<Scenario> = content
        .scenarios
        .iter()
        .filter(|s| s.id == "lost-ack")
        .cloned()
        .collect();
    assert_eq!(scenarios.len(), 1, "the shipped lost-ack scenario");
    for lang in [Lang::De, Lang::En] {
        let course = content.course(lang);
        let (attempt, drawn) = all_right_attempt(&course.quiz);
        let mut progress = Progress::default();
        let d = &course.decisions[0];
        progress
            .decisions
            .insert(d.id.clone(), d.options[0].id.clone());
        progress.ordering.solved = true;
        progress.ordering.attempts = 2;
        progress.scenarios_run.insert(scenarios[0].id.clone());
        let item = &course.reference.checklist[0];
        progress.checklist.insert(item.id.clone(), true);
        // Lab 1 solved after three checks, lab 2 checked twice and not solved, the rest new.
        let labs = &content.labs[..];
        let lab_results = lab_results(labs);
        let report = build(&ReportInput {
            course,
            scenarios: &scenarios,
            lang,
            workshop: "Lab <b>&</b>",
            date: "2026-11-30",
            progress: &progress,
            attempt: &attempt,
            learner: None,
            labs,
            lab_results: &lab_results,
        });
        assert_lab_lines(&report.text(), &course.strings, labs, lang);
        let text = report.text();
        let html = report.html();
        assert!(text.contains("2026-11-30"));
        assert!(text.contains("Lab <b>&</b>"));
        assert!(html.contains("Lab &lt;b&gt;&amp;&lt;/b&gt;"));
        assert!(!html.contains("<b>&</b>"));
        assert!(text.contains("10"), "score shown");
        for q in &course.quiz.questions {
            // The report is about the questions this attempt asked, not the whole bank.
            let asked = drawn.contains(&q.id);
            let plain = |t: &str| t.replace('`', "");
            assert_eq!(text.contains(&plain(&q.prompt)), asked, "{lang:?} {}", q.id);
            assert_eq!(
                text.contains(&plain(&q.explanation)),
                asked,
                "{lang:?} {}",
                q.id
            );
        }
        for d in &course.decisions {
            assert!(text.contains(&d.title));
        }
        assert!(text.contains(&d.options[0].text));
        let senior = course.quiz.level_for(10).expect("levels");
        for step in &senior.next_steps {
            // Shown without the Markdown backticks, before the question details.
            let plain = step.replace('`', "");
            assert!(text.contains(plain.as_str()));
            assert!(html.contains(&escape_html(&plain)));
            let first_question = &course.quiz.questions[0].prompt;
            assert!(text.find(plain.as_str()) < text.find(first_question.as_str()));
        }
        assert!(
            !text.contains('`'),
            "no Markdown backticks in the mail text"
        );
        assert!(text.contains(&item.question));
        assert!(text.contains(&scenarios[0].id));
        assert!(html.contains(&format!("lang=\"{}\"", lang.code())));
        assert!(report.subject.contains("Lab"));
    }
}

#[test]
fn iso_dates() {
    assert_eq!(iso_date(0), "1970-01-01");
    assert_eq!(iso_date(951_782_400), "2000-02-29");
    assert_eq!(iso_date(1_795_996_800), "2026-11-30");
    assert_eq!(iso_date(-86_400), "1969-12-31");
}

#[test]
fn the_display_name_is_checked_and_opens_the_report_and_its_subject() {
    assert_eq!(
        display_name("  Ada Lovelace "),
        Ok(Some("Ada Lovelace".into()))
    );
    assert_eq!(display_name("   "), Ok(None));
    assert_eq!(display_name("Ada\nBcc: x@y.z"), Err(NameError::Control));
    assert_eq!(
        display_name(&"é".repeat(MAX_NAME_CHARS)).map(|n| n.map(|n| n.chars().count())),
        Ok(Some(MAX_NAME_CHARS))
    );
    assert_eq!(
        display_name(&"é".repeat(MAX_NAME_CHARS + 1)),
        Err(NameError::TooLong)
    );
    let content = load(&ContentSource::Embedded).expect("shipped content is valid");
    for lang in [Lang::De, Lang::En] {
        let course = content.course(lang);
        let attempt = Attempt::new(&course.quiz, 5);
        let progress = Progress::default();
        let input = ReportInput {
            course,
            scenarios: &[],
            lang,
            workshop: "Lab",
            date: "2026-11-30",
            progress: &progress,
            attempt: &attempt,
            learner: Some("Ada <Lovelace>"),
            labs: &[],
            lab_results: &std::collections::BTreeMap::new(),
        };
        let report = build(&input);
        assert!(
            report.subject.contains("Ada <Lovelace>"),
            "{}",
            report.subject
        );
        assert!(report.subject.contains("Lab"));
        // Name, then score, then next steps; the date is among the details after them.
        let text = report.text();
        let name = text.find("Ada <Lovelace>").expect("name in the text");
        let score = text.find(&course.strings.fill(key::report::SCORE, &[("score", "0")])[..6]);
        let steps = text.find(course.strings.get(key::report::NEXT_STEPS));
        let date = text.find("2026-11-30");
        assert!(
            Some(name) < score && score < steps && steps < date,
            "{text}"
        );
        assert!(report.html().contains("Ada &lt;Lovelace&gt;"));
        let unnamed = build(&ReportInput {
            learner: None,
            ..input
        });
        assert!(!unnamed.text().contains("Lovelace"));
        assert_eq!(
            unnamed.subject,
            course
                .strings
                .fill(key::report::SUBJECT, &[("workshop", "Lab")])
        );
    }
}

#[test]
fn the_html_part_is_self_contained_and_laid_out_for_mail_clients() {
    let content = load(&ContentSource::Embedded).expect("shipped content is valid");
    let course = content.course(Lang::En);
    let attempt = Attempt::new(&course.quiz, 5);
    let progress = Progress::default();
    let html = build(&ReportInput {
        course,
        scenarios: &content.scenarios,
        lang: Lang::En,
        workshop: "Lab",
        date: "2026-11-30",
        progress: &progress,
        attempt: &attempt,
        learner: Some("Ada"),
        labs: &[],
        lab_results: &std::collections::BTreeMap::new(),
    })
    .html();
    for external in [
        "http:", "https:", "//", "src=", "<link", "<script", "url(", "@import",
    ] {
        // `//` would be a protocol-relative URL; the doctype and closing tags have none.
        assert!(!html.contains(external), "{external} in the HTML part");
    }
    assert!(
        !html.contains("<style"),
        "mail clients drop style blocks: inline only"
    );
    assert!(html.contains("max-width: 600px"));
    assert!(html.contains("role=\"presentation\""));
    assert!(html.contains("Segoe UI") && html.contains("sans-serif"));
    assert_eq!(
        html.matches("<table").count(),
        html.matches("</table>").count()
    );
}

#[test]
fn every_quiz_topic_has_a_next_step_and_an_unknown_one_has_none() {
    for topic in content::TOPICS {
        let step = step_key(topic).unwrap_or_else(|| panic!("{topic} has no step"));
        assert_eq!(step.name(), format!("report.step.{topic}"));
    }
    assert_eq!(step_key("kafka"), None);
}

/// An attempt with every drawn question answered right, and the drawn question ids.
fn all_right_attempt(quiz: &content::Quiz) -> (Attempt, Vec<String>) {
    let mut attempt = Attempt::new(quiz, 5);
    let drawn: Vec<String> = attempt
        .questions(quiz)
        .iter()
        .map(|q| q.id.clone())
        .collect();
    for q in quiz.questions.iter().filter(|q| drawn.contains(&q.id)) {
        let right: BTreeSet<String> = q
            .options
            .iter()
            .filter(|o| o.correct)
            .map(|o| o.id.clone())
            .collect();
        attempt.answer(&q.id, right);
    }
    (attempt, drawn)
}

/// Lab 1 solved after three checks with a hint, lab 2 checked twice and not solved.
fn lab_results(labs: &[content::Lab]) -> std::collections::BTreeMap<String, crate::LabResult> {
    std::collections::BTreeMap::from([
        (
            labs[0].id.clone(),
            crate::LabResult {
                attempts: 3,
                solved_at: Some(1),
                hints: 1,
            },
        ),
        (
            labs[1].id.clone(),
            crate::LabResult {
                attempts: 2,
                ..Default::default()
            },
        ),
    ])
}

/// The report's labs part: its heading and one line per lab, solved, open or new.
fn assert_lab_lines(text: &str, s: &content::Strings, labs: &[content::Lab], lang: Lang) {
    let lab_line = |key: content::Key, i: usize, checks: &str| {
        let title = s.fill(
            key::report::LAB_TITLE,
            &[
                ("n", &labs[i].number.to_string()),
                ("title", &labs[i].title[&lang]),
            ],
        );
        s.fill(key, &[("title", &title), ("checks", checks)])
    };
    assert!(text.contains(s.get(key::report::LABS)), "{text}");
    assert!(
        text.contains(&lab_line(key::report::LAB_SOLVED, 0, "3")),
        "{text}"
    );
    assert!(
        text.contains(&lab_line(key::report::LAB_OPEN, 1, "2")),
        "{text}"
    );
    assert!(
        text.contains(&lab_line(key::report::LAB_NEW, 2, "0")),
        "{text}"
    );
}

use super::*;
use crate::content::{ContentSource, load};
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
        let mut attempt = Attempt::new(&course.quiz, 5);
        let drawn: Vec<String> = attempt
            .questions(&course.quiz)
            .iter()
            .map(|q| q.id.clone())
            .collect();
        for q in course
            .quiz
            .questions
            .iter()
            .filter(|q| drawn.contains(&q.id))
        {
            let right: BTreeSet<String> = q
                .options
                .iter()
                .filter(|o| o.correct)
                .map(|o| o.id.clone())
                .collect();
            attempt.answer(&q.id, right);
        }
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
        let report = build(&ReportInput {
            course,
            scenarios: &scenarios,
            lang,
            workshop: "Lab <b>&</b>",
            date: "2026-11-30",
            progress: &progress,
            attempt: &attempt,
        });
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

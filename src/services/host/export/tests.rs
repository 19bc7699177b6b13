//! The export and the projector page: what they show, hide and escape.

use super::*;
use crate::content::{ContentSource, Lang};

fn texts(lang: Lang) -> RoomTexts {
    let content = crate::content::load(&ContentSource::Embedded).expect("embedded content");
    RoomTexts::of(&content, lang)
}

#[test]
fn csv_quotes_and_defuses_formulas() {
    assert_eq!(csv("Ada"), "Ada");
    assert_eq!(csv("a,b"), "\"a,b\"");
    assert_eq!(csv("=cmd()"), "'=cmd()");
    assert_eq!(csv("say \"hi\""), "\"say \"\"hi\"\"\"");
}

#[test]
fn the_projector_shows_a_distribution_only_once_revealed() {
    let mut view = SummaryView::default();
    for d in ["broker-down", "big-payload"] {
        view.decisions
            .insert(d.into(), [("a".to_owned(), 3), ("b".to_owned(), 1)].into());
    }
    view.revealed = vec!["big-payload".into()];
    let html = dashboard_page(&view, &texts(Lang::En));
    assert_eq!(html.matches("class=\"bar\"").count(), 2, "{html}");
    assert!(html.contains("4 answers, hidden until the instructor reveals them"));
    let export = page("summary", &view, &texts(Lang::En), true);
    assert_eq!(export.matches("class=\"bar\"").count(), 4, "{export}");
}

#[test]
fn after_the_reveal_the_projector_marks_the_right_option_and_keeps_every_count() {
    let label = |id: &str, number, text: &str, correct| OptionLabel {
        id: id.into(),
        number,
        text: text.into(),
        correct,
    };
    let mut view = SummaryView::default();
    view.options.insert(
        "big-payload".into(),
        vec![
            label("inline", 1, "Inline it", false),
            label("claim-check", 2, "Claim check", true),
            label("compress", 3, "Compress", false),
            label("split", 4, "Split it", false),
        ],
    );
    view.decisions.insert(
        "big-payload".into(),
        [("inline".to_owned(), 3), ("claim-check".to_owned(), 2)].into(),
    );
    let hidden = dashboard_page(&view, &texts(Lang::En));
    assert!(!hidden.contains('\u{2713}') && !hidden.contains("class=\"right\""));
    assert!(
        !hidden.contains("Claim check"),
        "nothing of a hidden vote: {hidden}"
    );
    view.revealed = vec!["big-payload".into()];
    let shown = dashboard_page(&view, &texts(Lang::En));
    assert!(
        shown.contains("<tr class=\"right\"><td>2. Claim check \u{2713}</td>"),
        "{shown}"
    );
    assert_eq!(
        shown.matches('\u{2713}').count(),
        1,
        "only the right one: {shown}"
    );
    for count in ["3/5", "2/5", "0/5"] {
        assert!(shown.contains(count), "{count}: {shown}");
    }
    assert_eq!(shown.matches("0/5").count(), 2, "options 3 and 4 stay at 0");
}

#[test]
fn options_are_numbered_with_their_text_and_zero_where_nobody_chose_them() {
    use crate::domain::workshop::summary::{OrderingTally, QuizTally, TraineeView};
    let label = |id: &str, number, text: &str| OptionLabel {
        id: id.into(),
        number,
        text: text.into(),
        correct: false,
    };
    let mut view = SummaryView::default();
    view.options.insert(
        "big-payload".into(),
        vec![
            label("inline", 1, "Inline it"),
            label("claim-check", 2, "Claim check"),
        ],
    );
    view.decisions
        .insert("big-payload".into(), [("claim-check".to_owned(), 3)].into());
    view.trainees.push(TraineeView {
        id: "t".into(),
        name: "Ada".into(),
        chapters_read: 0,
        decisions: [("big-payload".to_owned(), "claim-check".to_owned())].into(),
        quiz: QuizTally::default(),
        ordering: OrderingTally::default(),
        scenarios: Vec::new(),
        stuck: false,
        stuck_screen: None,
        stuck_text: None,
        last_seen_ms: 0,
        stuck_since_ms: None,
        stuck_acknowledged: false,
        screen: None,
        level: None,
    });
    let export = page("summary", &view, &texts(Lang::En), true);
    assert!(
        export.contains(
            "<td>1. Inline it</td><td><span class=\"bar\" style=\"width:0px\"></span> 0/3</td>"
        ),
        "{export}"
    );
    assert!(export.contains("<td>2. Claim check</td>"), "{export}");
    assert!(
        trainees_csv(&view).contains(",2. Claim check\n"),
        "{}",
        trainees_csv(&view)
    );
}

#[test]
fn pages_escape_names() {
    let view = SummaryView {
        session: "<b>room</b>".into(),
        ..SummaryView::default()
    };
    let html = dashboard_page(&view, &texts(Lang::En));
    assert!(html.contains("&lt;b&gt;room"), "{html}");
    assert!(html.contains("http-equiv=\"refresh\""), "{html}");
    assert!(
        !html.contains("<script") && !html.contains("://"),
        "self-contained"
    );
}

#[test]
fn the_projector_page_speaks_the_session_language_and_names_nobody() {
    let de = texts(Lang::De);
    let content = crate::content::load(&ContentSource::Embedded).expect("embedded content");
    let course = content.course(Lang::De);
    let decision = &course.decisions[0];
    let question = &course.quiz.questions[0];
    let mut view = SummaryView {
        session: "Raum 4".into(),
        ..SummaryView::default()
    };
    view.decisions.insert(
        decision.id.clone(),
        [(decision.options[0].id.clone(), 2)].into(),
    );
    view.quiz.insert(
        question.id.clone(),
        crate::domain::workshop::summary::QuizTally {
            answered: 2,
            correct: 1,
        },
    );
    let scenario = content.scenarios.iter().next().expect("a scenario");
    view.scenarios.insert(scenario.id.clone(), 1);
    view.trainees
        .push(crate::domain::workshop::summary::TraineeView {
            id: "t".into(),
            name: "Grace".into(),
            chapters_read: 0,
            decisions: std::collections::BTreeMap::new(),
            quiz: crate::domain::workshop::summary::QuizTally::default(),
            ordering: crate::domain::workshop::summary::OrderingTally::default(),
            scenarios: Vec::new(),
            stuck: true,
            stuck_screen: None,
            stuck_text: None,
            last_seen_ms: 0,
            stuck_since_ms: None,
            stuck_acknowledged: false,
            screen: None,
            level: None,
        });
    let html = dashboard_page(&view, &de);
    assert!(html.contains("<html lang=\"de\">"), "{html}");
    // Titles and texts, never ids; German words for every heading.
    for shown in [
        decision.title.as_str(),
        question.prompt.as_str(),
        scenario.text(Lang::De).expect("German").title.as_str(),
    ] {
        assert!(html.contains(&esc(shown)), "{shown}: {html}");
    }
    for id in [&decision.id, &question.id, &scenario.id] {
        assert!(!html.contains(&format!(">{id}<")), "{id}: {html}");
    }
    for english in [
        "Trainees",
        "Stuck",
        "Decisions",
        "answers, hidden",
        "Quiz: share",
    ] {
        assert!(!html.contains(english), "{english}: {html}");
    }
    assert!(html.contains("Entscheidungen"), "{html}");
    // A stuck trainee is a count on the projector, never a name.
    assert!(!html.contains("Grace"), "{html}");
    assert!(html.contains("(1)"), "{html}");
    // The export of the same session in German, with the names.
    let export = page("x", &view, &de, true);
    assert!(
        export.contains("Grace") && export.contains("<td>ja</td>"),
        "{export}"
    );
    assert!(!export.contains(">yes<"), "{export}");
}

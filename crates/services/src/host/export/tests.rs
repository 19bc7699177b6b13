//! The export: what it shows and escapes.

use super::*;
use content::{ContentSource, Lang};

fn texts(lang: Lang) -> RoomTexts {
    let content = content::load(&ContentSource::Embedded).expect("embedded content");
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
fn the_export_shows_every_distribution_in_the_courses_order() {
    let mut view = SummaryView::default();
    for d in ["broker-down", "big-payload"] {
        view.decisions
            .insert(d.into(), [("a".to_owned(), 3), ("b".to_owned(), 1)].into());
    }
    view.revealed = vec!["big-payload".into()];
    let en = texts(Lang::En);
    let export = page("summary", &view, &en);
    assert_eq!(export.matches("class=\"bar\"").count(), 4, "{export}");
    let order = en.in_decision_order(view.decisions.keys());
    let at = |id: &str| export.find(&esc(&en.decision(id).title)).expect(id);
    assert!(at(order[0]) < at(order[1]), "{order:?}: {export}");
    assert!(export.contains("3/4 · 75 %"), "{export}");
}

#[test]
fn options_are_numbered_with_their_text_and_zero_where_nobody_chose_them() {
    use domain::workshop::summary::TraineeView;
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
        decisions: [("big-payload".to_owned(), "claim-check".to_owned())].into(),
        ..TraineeView::default()
    });
    let export = page("summary", &view, &texts(Lang::En));
    assert!(
        export.contains(
            "<td>1. Inline it</td><td><span class=\"bar\" style=\"width:0px\"></span> 0/3 · 0 %</td>"
        ),
        "{export}"
    );
    assert!(export.contains("<td>2. Claim check</td>"), "{export}");
    assert!(
        trainees_csv(&view, &texts(Lang::En)).contains(",2. Claim check\n"),
        "{}",
        trainees_csv(&view, &texts(Lang::En))
    );
}

#[test]
fn the_export_speaks_the_session_language_with_the_names() {
    let de = texts(Lang::De);
    let mut view = SummaryView {
        session: "Raum 4".into(),
        ..SummaryView::default()
    };
    view.trainees.push(domain::workshop::summary::TraineeView {
        id: "t".into(),
        name: "Grace".into(),
        stuck: true,
        ..domain::workshop::summary::TraineeView::default()
    });
    let export = page("x", &view, &de);
    assert!(export.contains("<html lang=\"de\">"), "{export}");
    assert!(
        export.contains("Grace") && export.contains("<td>ja</td>"),
        "{export}"
    );
    assert!(!export.contains(">yes<"), "{export}");
}

#[test]
fn the_export_names_the_labs_each_trainee_solved() {
    use domain::workshop::summary::TraineeView;
    let mut view = SummaryView::default();
    view.trainees.push(TraineeView {
        id: "t".into(),
        name: "Ada".into(),
        labs_solved: vec!["01-inbox".into(), "02-outbox".into()],
        ..TraineeView::default()
    });
    let csv = trainees_csv(&view, &texts(Lang::De));
    let (head, row) = csv.split_once('\n').expect("two lines");
    let column = head.split(',').position(|c| c == "labs_solved");
    assert_eq!(
        column.and_then(|i| row.split(',').nth(i)),
        Some("01-inbox 02-outbox"),
        "{csv}"
    );
    let export = page("summary", &view, &texts(Lang::De));
    assert!(export.contains("<th>Labs</th>"), "{export}");
    assert!(
        export.contains("<td>Ada</td><td>0</td><td>0</td><td>0/0</td><td>2</td>"),
        "{export}"
    );
}

#[test]
fn a_distributions_percents_add_up_to_100_by_the_largest_remainder() {
    use super::shares;
    let rows = |values: &[u32]| -> Vec<super::BarRow> {
        let total = values.iter().sum();
        values
            .iter()
            .map(|v| (String::new(), *v, total, false))
            .collect()
    };
    // 3 + 3 + 1 + 1 of 8: 37.5, 37.5, 12.5, 12.5 would round to 38 + 38 + 13 + 13 = 102.
    let got = shares(&rows(&[3, 3, 1, 1]));
    assert_eq!(got.iter().sum::<u32>(), 100, "{got:?}");
    assert_eq!(
        got,
        [38, 38, 12, 12],
        "equal remainders: the earlier options"
    );
    assert_eq!(shares(&rows(&[1, 1, 1])), [34, 33, 33]);
    assert_eq!(shares(&rows(&[0, 0])), [0, 0], "nobody answered");
    assert_eq!(shares(&rows(&[2, 0, 0, 0])), [100, 0, 0, 0]);
    // Rows of their own totals (the quiz's hard questions) are each rounded alone.
    let own = vec![(String::new(), 1, 3, false), (String::new(), 1, 2, false)];
    assert_eq!(shares(&own), [33, 50]);
}

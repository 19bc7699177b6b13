//! The projector page: one decision in focus, what it hides until the reveal, the hard quiz
//! questions, the session's language, and nobody's name.

use super::*;
use content::{ContentSource, Lang};
use domain::workshop::summary::{OptionLabel, QuizTally, TraineeView};
use domain::workshop::{Pace, PaceKind};

fn texts(lang: Lang) -> RoomTexts {
    let content = content::load(&ContentSource::Embedded).expect("embedded content");
    RoomTexts::of(&content, lang)
}

/// The decision in focus, with the course's order sorted as `page` sorts it.
fn focus_of<'a>(view: &'a SummaryView, texts: &RoomTexts) -> Option<&'a str> {
    focus(view, &texts.in_decision_order(view.decisions.keys()))
}

fn trainee(name: &str, stuck: bool) -> TraineeView {
    TraineeView {
        id: name.to_lowercase(),
        name: name.into(),
        stuck,
        ..TraineeView::default()
    }
}

/// A room of `n` trainees that answered every decision of the course (option 1 by all).
fn room(texts: &RoomTexts, n: u32) -> SummaryView {
    let content = content::load(&ContentSource::Embedded).expect("embedded content");
    let mut view = SummaryView {
        session: "Room 1".into(),
        ..SummaryView::default()
    };
    for d in &content.course(texts.lang).decisions {
        view.decisions
            .insert(d.id.clone(), [(d.options[0].id.clone(), n)].into());
        let labels = d
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| OptionLabel {
                id: o.id.clone(),
                number: i as u32 + 1,
                text: o.text.clone(),
                correct: o.correct,
            })
            .collect();
        view.options.insert(d.id.clone(), labels);
    }
    for i in 0..n {
        view.trainees.push(trainee(&format!("T{i}"), false));
    }
    view
}

fn reveal(view: &mut SummaryView, decision: &str) {
    view.revealed.push(decision.to_owned());
    view.last_pace = Some(Pace {
        id: view.revealed.len() as u64,
        at_ms: 0,
        kind: PaceKind::RevealDecision {
            decision: decision.to_owned(),
        },
    });
}

#[test]
fn before_any_reveal_the_first_decision_is_in_focus_and_its_votes_are_hidden() {
    let en = texts(Lang::En);
    let view = room(&en, 3);
    let first = &en.in_decision_order(view.decisions.keys())[0].to_owned();
    assert_eq!(focus_of(&view, &en), Some(first.as_str()));
    let html = page(&view, &en, None);
    assert!(
        html.contains("3 answers, hidden until the instructor reveals them"),
        "{html}"
    );
    assert_eq!(html.matches("class=\"bar\"").count(), 0, "{html}");
    let focus_at = html.find("id=\"focus\"").expect("focus");
    let title_at = html.find(&esc(&en.decision(first).title)).expect("title");
    assert!(title_at > focus_at, "{html}");
    // The options are there to argue about, numbered, none marked right.
    for label in &view.options[first] {
        let item = format!("<li value=\"{}\">{}</li>", label.number, esc(&label.text));
        assert!(html.contains(&item), "{item}: {html}");
    }
    assert!(
        !html.contains('\u{2713}'),
        "no right marker before the reveal: {html}"
    );
    assert!(!html.contains("class=\"right\""), "{html}");
}

#[test]
fn a_reveal_brings_its_decision_into_focus_with_every_option_and_the_right_one_marked() {
    let en = texts(Lang::En);
    let mut view = room(&en, 4);
    let order: Vec<String> = en
        .in_decision_order(view.decisions.keys())
        .into_iter()
        .map(str::to_owned)
        .collect();
    let third = &order[2];
    reveal(&mut view, third);
    assert_eq!(focus_of(&view, &en), Some(third.as_str()));
    let html = page(&view, &en, None);
    let options = &view.options[third];
    assert_eq!(
        html.matches("class=\"bar\"").count(),
        options.len(),
        "every option, 0 included: {html}"
    );
    assert!(html.contains("4/4 · 100 %"), "{html}");
    assert!(html.contains("0/4 · 0 %"), "{html}");
    let right = options.iter().find(|o| o.correct).expect("a right option");
    assert!(
        html.contains(&format!(
            "<tr class=\"right\"><td>{} \u{2713}",
            esc(&right.label())
        )),
        "{html}"
    );
    // The others stand below, a line each, the revealed one marked as such.
    let others = &html[html.find("class=\"others\"").expect("others")..];
    assert_eq!(others.matches("<tr>").count(), order.len() - 1, "{others}");
    assert!(!others.contains(&esc(&en.decision(third).title)));
}

#[test]
fn after_a_reveal_the_next_open_decision_with_answers_comes_into_focus_once_the_pace_moves_on() {
    let en = texts(Lang::En);
    let mut view = room(&en, 2);
    let order: Vec<String> = en
        .in_decision_order(view.decisions.keys())
        .into_iter()
        .map(str::to_owned)
        .collect();
    reveal(&mut view, &order[0]);
    // A pacing command that is not a reveal (a chapter opened) ends the reveal's focus.
    view.last_pace = Some(Pace {
        id: 9,
        at_ms: 0,
        kind: PaceKind::OpenChapter {
            chapter: "outbox".into(),
        },
    });
    assert_eq!(focus_of(&view, &en), Some(order[1].as_str()));
    for id in &order {
        view.revealed.push(id.clone());
    }
    assert_eq!(focus_of(&view, &en), order.last().map(String::as_str));
    assert_eq!(focus_of(&SummaryView::default(), &en), None);
}

#[test]
fn the_quiz_shows_only_the_hardest_questions_worst_first() {
    let en = texts(Lang::En);
    let content = content::load(&ContentSource::Embedded).expect("embedded content");
    let questions = &content.course(Lang::En).quiz.questions;
    let mut view = room(&en, 4);
    let html = page(&view, &en, None);
    assert!(html.contains("No quiz answers yet."), "{html}");
    let tallies = [(4, 4), (4, 1), (4, 3), (4, 0), (4, 2)];
    for (q, (answered, correct)) in questions.iter().zip(tallies) {
        view.quiz
            .insert(q.id.clone(), QuizTally { answered, correct });
    }
    let html = page(&view, &en, None);
    let quiz = &html[html.find("class=\"quiz\"").expect("quiz")..];
    assert_eq!(
        quiz.matches("class=\"bar\"").count(),
        HARD_QUESTIONS,
        "{quiz}"
    );
    let at = |i: usize| quiz.find(&esc(&questions[i].prompt));
    assert!(
        at(3) < at(1) && at(1) < at(4),
        "0 %, then 25 %, then 50 %: {quiz}"
    );
    assert!(at(0).is_none() && at(2).is_none(), "{quiz}");
    view.quiz.clear();
    view.quiz.insert(
        questions[0].id.clone(),
        QuizTally {
            answered: 3,
            correct: 3,
        },
    );
    assert!(page(&view, &en, None).contains("Every quiz answer so far is right."));
}

#[test]
fn the_page_speaks_the_session_language_names_nobody_and_is_self_contained() {
    let de = texts(Lang::De);
    let mut view = room(&de, 2);
    view.session = "<b>Raum 4</b>".into();
    view.trainees.push(trainee("Grace", true));
    let html = page(&view, &de, None);
    assert!(html.contains("<html lang=\"de\">"), "{html}");
    assert!(html.contains("&lt;b&gt;Raum 4"), "{html}");
    // A browser without script reloads; one with script runs the host's own, nothing else.
    assert!(
        html.contains("<noscript><meta http-equiv=\"refresh\""),
        "{html}"
    );
    assert_eq!(html.matches("<script").count(), 1, "{html}");
    assert!(
        html.contains(&format!("<script src=\"{SCRIPT_PATH}\" defer></script>")),
        "{html}"
    );
    assert!(html.contains("Stecken fest (1)"), "{html}");
    assert!(html.contains("Weitere Entscheidungen"), "{html}");
    assert!(
        !html.contains("Grace"),
        "a stuck trainee is a count: {html}"
    );
    for english in [
        "Trainees",
        "Stuck",
        "answers, hidden",
        "Other decisions",
        "Quiz questions",
    ] {
        assert!(!html.contains(english), "{english}: {html}");
    }
    for id in view.decisions.keys() {
        assert!(!html.contains(&format!(">{id}<")), "{id}: {html}");
    }
    assert!(!html.contains("://"), "nothing from elsewhere: {html}");
    // The live part is the page's main element, word for word.
    assert!(
        html.contains(&format!(
            "<main id=\"live\" data-src=\"{LIVE_PATH}\">{}</main>",
            live(&view, &de)
        )),
        "{html}"
    );
}

#[test]
fn the_room_reads_how_to_join_the_code_alone_when_advertised_and_never_the_key() {
    let view = SummaryView::default();
    let mut join = JoinLines {
        url: domain::workshop::JoinUrl::parse(&format!(
            "https://192.168.1.5:8740/join?code=K7Q2M9X&fp={}",
            "ab".repeat(32)
        ))
        .expect("url"),
        discovery: Some("Room <2>".into()),
        digits: "1234 5678 9012".into(),
    };
    let digits = join.digits.clone();
    let html = page(&view, &texts(Lang::En), Some(&join));
    assert!(
        html.contains("<p>Join code</p><p id=\"code\">K7Q2M9X</p><svg class=\"qr\""),
        "the code large, the QR code under it: {html}"
    );
    assert!(
        html.contains(&format!("<p>Join (type this):</p><p id=\"join-command\"><b>queuelab join K7Q2M9X</b></p><p>Check digits (trainees compare them): <b>{digits}</b></p>")),
        "{html}"
    );
    // The QR code carries the whole join URL (its label is the URL, escaped), no key.
    let svg = &html[html.find("<svg").expect("svg")..html.find("</svg>").expect("svg end")];
    assert!(svg.contains(&esc(&join.url.to_string())), "{svg}");
    let matrix = QrMatrix::encode(&join.url.to_string()).expect("encodes");
    assert_eq!(
        svg,
        qr_image::svg(&matrix, &join.url.to_string(), false).trim_end_matches("</svg>")
    );
    assert!(
        html.contains("advertised on this network as “Room &lt;2&gt;”; where the network blocks multicast: queuelab join 192.168.1.5:8740 K7Q2M9X"),
        "{html}"
    );
    join.discovery = None;
    let html = page(&view, &texts(Lang::De), Some(&join));
    assert!(
        html.contains("<b>queuelab join 192.168.1.5:8740 K7Q2M9X</b>"),
        "{html}"
    );
    assert!(!html.contains("id=\"join-fallback\""), "{html}");
}

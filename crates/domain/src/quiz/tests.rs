use super::*;
use content::{ContentSource, Lang, load};

fn quiz() -> Quiz {
    quiz_in(Lang::En)
}

fn quiz_in(lang: Lang) -> Quiz {
    load(&ContentSource::Embedded)
        .expect("shipped content is valid")
        .course(lang)
        .quiz
        .clone()
}

#[test]
fn same_seed_same_order_and_every_option_kept() {
    let quiz = quiz();
    let a = Attempt::new(&quiz, 7);
    let b = Attempt::new(&quiz, 7);
    assert_eq!(a.order, b.order);
    for q in &quiz.questions {
        let mut shown: Vec<&str> = a.options(q).iter().map(|o| o.id.as_str()).collect();
        shown.sort_unstable();
        let mut file: Vec<&str> = q.options.iter().map(|o| o.id.as_str()).collect();
        file.sort_unstable();
        assert_eq!(shown, file, "{}", q.id);
    }
}

#[test]
fn different_seeds_shuffle_differently() {
    let quiz = quiz();
    let file_order: BTreeMap<String, Vec<String>> = quiz
        .questions
        .iter()
        .map(|q| {
            (
                q.id.clone(),
                q.options.iter().map(|o| o.id.clone()).collect(),
            )
        })
        .collect();
    let orders: BTreeSet<_> = (0..20).map(|s| shuffled_order(&quiz, s)).collect();
    assert!(orders.len() > 15, "only {} distinct orders", orders.len());
    assert!(orders.iter().any(|o| *o != file_order));
}

#[test]
fn multi_select_needs_all_and_only_the_correct_options() {
    let quiz = quiz();
    let q = quiz
        .questions
        .iter()
        .find(|q| q.multi)
        .expect("the quiz has a multi-select question");
    let all = right_options(q);
    assert!(is_correct(q, &all));
    let mut partial = all.clone();
    let first = partial.iter().next().cloned().expect("two correct");
    partial.remove(&first);
    assert!(!is_correct(q, &partial), "a subset is not enough");
    let mut extra = all.clone();
    extra.extend(one_wrong_option(q));
    assert!(!is_correct(q, &extra), "a wrong extra option spoils it");
    assert!(!is_correct(q, &BTreeSet::new()));
}

#[test]
fn score_level_and_review() {
    let quiz = quiz();
    let mut attempt = Attempt::new(&quiz, 1);
    assert_eq!(attempt.position(&quiz), 0);
    let drawn = attempt.questions(&quiz);
    for (i, q) in drawn.iter().enumerate() {
        let chosen = if i < 6 {
            right_options(q)
        } else {
            one_wrong_option(q)
        };
        attempt.answer(&q.id, chosen);
    }
    assert!(attempt.is_complete(&quiz));
    let score = attempt.score(&quiz);
    assert_eq!((score.correct, score.total), (6, 10));
    assert_eq!(
        score.level.map(|l| l.id.as_str()),
        quiz.level_for(6).map(|l| l.id.as_str())
    );
    let review = attempt.review(&quiz);
    assert_eq!(review.len(), 4);
    assert_eq!(review[0].question.id, drawn[6].id);
    assert!(review.iter().all(|r| r.chosen.iter().all(|o| !o.correct)));
    assert!(review.iter().all(|r| r.correct.iter().all(|o| o.correct)));
}

#[test]
fn resume_continues_at_the_first_unanswered_question() {
    let quiz = quiz();
    let mut attempt = Attempt::new(&quiz, 3);
    let drawn = attempt.questions(&quiz);
    attempt.answer(&drawn[0].id, right_options(drawn[0]));
    attempt.answer(&drawn[1].id, one_wrong_option(drawn[1]));
    assert_eq!(attempt.position(&quiz), 2);
    assert_eq!(
        attempt.last_answered(&quiz).map(|q| q.id.as_str()),
        Some(drawn[1].id.as_str())
    );
    assert_eq!(
        attempt.next_question(&quiz).map(|q| q.id.as_str()),
        Some(drawn[2].id.as_str())
    );
    assert!(!attempt.is_complete(&quiz));
}

#[test]
fn unknown_order_falls_back_to_file_order() {
    let quiz = quiz();
    let attempt = Attempt::default();
    let q = &quiz.questions[0];
    let ids: Vec<&str> = attempt.options(q).iter().map(|o| o.id.as_str()).collect();
    let file: Vec<&str> = q.options.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, file);
}

#[test]
fn every_seed_draws_ten_questions_one_per_announced_topic() {
    for lang in [Lang::De, Lang::En] {
        let quiz = quiz_in(lang);
        let mut sets = BTreeSet::new();
        for seed in 0..500 {
            let attempt = Attempt::new(&quiz, seed);
            let drawn = attempt.questions(&quiz);
            assert_eq!(drawn.len(), content::QUESTION_COUNT, "seed {seed}");
            assert_eq!(attempt.total(&quiz), 10);
            let topics: Vec<&str> = drawn.iter().map(|q| q.topic.as_str()).collect();
            let mut sorted = topics.clone();
            sorted.sort_unstable();
            let mut announced = content::TOPICS.to_vec();
            announced.sort_unstable();
            assert_eq!(sorted, announced, "seed {seed}: {topics:?}");
            assert_eq!(attempt.order.len(), 10, "only drawn questions are stored");
            sets.insert(drawn.iter().map(|q| q.id.clone()).collect::<Vec<_>>());
        }
        // Three or more questions per topic: a retake almost always asks something else.
        assert!(
            sets.len() > 450,
            "{lang}: only {} distinct draws",
            sets.len()
        );
        let asked: BTreeSet<&str> = sets.iter().flatten().map(String::as_str).collect();
        assert_eq!(
            asked.len(),
            quiz.questions.len(),
            "every bank question gets drawn"
        );
    }
}

#[test]
fn an_attempt_stored_before_the_bank_asks_the_whole_file() {
    let quiz = quiz();
    let attempt = Attempt {
        order: BTreeMap::from([("retired-question".to_owned(), vec!["a".to_owned()])]),
        ..Attempt::default()
    };
    assert_eq!(attempt.total(&quiz), quiz.questions.len());
}

#[test]
fn marks_tell_picked_from_missed_in_a_multi_select_answer() {
    let quiz = quiz();
    let q = quiz
        .questions
        .iter()
        .find(|q| q.multi)
        .expect("the bank has a multi-select question");
    let mut attempt = Attempt::new(&quiz, 4);
    let one_right: BTreeSet<String> = right_options(q).into_iter().take(1).collect();
    let mut chosen = one_right.clone();
    chosen.extend(one_wrong_option(q));
    attempt.answer(&q.id, chosen);
    let marks = attempt.marks(q);
    assert_eq!(marks.len(), q.options.len());
    assert_eq!(marks.iter().filter(|m| m.picked && m.correct).count(), 1);
    assert_eq!(marks.iter().filter(|m| m.wrongly_picked()).count(), 1);
    assert_eq!(
        marks.iter().filter(|m| m.missed()).count(),
        right_options(q).len() - 1
    );
    let shown: Vec<&str> = attempt.options(q).iter().map(|o| o.id.as_str()).collect();
    let marked: Vec<&str> = marks.iter().map(|m| m.option.id.as_str()).collect();
    assert_eq!(shown, marked, "marks follow the attempt's option order");
}

/// The pairs of questions that ask one fact, as the shipped bank declares them.
fn declared_pairs(quiz: &Quiz) -> BTreeSet<(String, String)> {
    quiz.questions
        .iter()
        .flat_map(|q| {
            same_fact_partners(quiz, q).into_iter().map(|other| {
                let (a, b) = (q.id.clone(), other.to_owned());
                if a < b { (a, b) } else { (b, a) }
            })
        })
        .collect()
}

#[test]
fn the_bank_declares_its_same_fact_pairs_in_both_languages() {
    let content = load(&ContentSource::Embedded).expect("shipped content is valid");
    let expected: BTreeSet<(String, String)> = [
        ("asb-dlq-reason", "dlq-sqs-reason"),
        ("asb-sessions", "ordering-group-key"),
        ("idempotency-meaning", "sqs-fifo-dedup"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_owned(), b.to_owned()))
    .collect();
    for lang in [Lang::De, Lang::En] {
        assert_eq!(
            declared_pairs(&content.course(lang).quiz),
            expected,
            "{lang}"
        );
    }
    // retry-backoff and retry-jitter share their topic: one attempt never asks both anyway.
    let quiz = quiz();
    let topic = |id: &str| {
        quiz.questions
            .iter()
            .find(|q| q.id == id)
            .map(|q| q.topic.clone())
    };
    assert_eq!(topic("retry-backoff"), topic("retry-jitter"));
}

#[test]
fn no_attempt_asks_both_questions_of_a_same_fact_pair() {
    for lang in [Lang::De, Lang::En] {
        let quiz = quiz_in(lang);
        let pairs = declared_pairs(&quiz);
        let mut asked: BTreeMap<String, u32> = BTreeMap::new();
        for seed in 0..3000 {
            let attempt = Attempt::new(&quiz, seed);
            let drawn: BTreeSet<&str> = attempt.order.keys().map(String::as_str).collect();
            assert_eq!(drawn.len(), 10, "{lang} seed {seed}");
            for (a, b) in &pairs {
                assert!(
                    !(drawn.contains(a.as_str()) && drawn.contains(b.as_str())),
                    "{lang} seed {seed} asks both {a} and {b}"
                );
            }
            for id in drawn {
                *asked.entry(id.to_owned()).or_default() += 1;
            }
        }
        // Each side of a pair is still asked, and not starved: at least a tenth of the
        // draws an unpaired question of a three-question topic would get.
        for (a, b) in &pairs {
            for id in [a, b] {
                let n = asked.get(id).copied().unwrap_or(0);
                assert!(
                    n > 100,
                    "{lang}: {id} asked only {n} times in 3000 attempts"
                );
            }
        }
    }
}

/// A bank of one question per topic where the dlq question shares a fact with the service-bus
/// one: the draw cannot keep them apart and must still ask ten questions.
#[test]
fn a_topic_left_with_only_paired_questions_is_still_asked() {
    let mut quiz = Quiz::default();
    for topic in content::TOPICS {
        quiz.questions.push(Question {
            id: format!("{topic}-q"),
            topic: topic.to_owned(),
            prompt: "p".into(),
            multi: false,
            explanation: "e".into(),
            options: vec![QuestionOption {
                id: "a".into(),
                text: "t".into(),
                correct: true,
                why: "w".into(),
            }],
            shares_fact_with: if topic == "dlq" {
                vec!["service-bus-q".into()]
            } else {
                Vec::new()
            },
            id_line: 1,
        });
    }
    let attempt = Attempt::new(&quiz, 11);
    assert_eq!(attempt.order.len(), 10);
    assert!(attempt.order.contains_key("dlq-q"));
}

//! Honest votes (issue 25): the room counts each trainee's first answer to a decision, a later
//! change (the TUI lets a learner change after the feedback) does not move the distribution,
//! options nobody chose are there with 0, and `decide --plain` continues where the trainee
//! stopped without overwriting an answer.

use crate::support::{Host, free_port, run};
use queuelab::content::{ContentSource, Lang};
use queuelab::domain::Fact;

#[test]
fn the_room_counts_first_answers_and_decide_plain_never_overwrites() {
    let content = queuelab::content::load(&ContentSource::Embedded).expect("content");
    let decisions = &content.course(Lang::En).decisions;
    let (first, second) = (&decisions[0], &decisions[1]);
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let data = dir.path().join("t");
    let out = run(&data, &["join", &host.url, "--name", "Ada"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Decision 1 answered with option 1, then the input ends.
    let out = run(&data, &["decide", "--plain"], "1\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The second run starts at decision 2: option 2 goes to decision 2, not to decision 1.
    let out = run(&data, &["decide", "--plain"], "2\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("Already answered: 1. {}", first.options[0].text)),
        "{text}"
    );
    assert!(text.contains("Decision 2 of"), "{text}");
    // The learner changes decision 1 after seeing the feedback (as the reader allows).
    let (mut store, _) = queuelab::services::Store::open(&data.join("progress.db")).expect("store");
    store
        .save(&Fact::DecisionAnswered {
            decision: first.id.clone(),
            option: first.options[1].id.clone(),
        })
        .expect("saved");
    drop(store);
    let out = run(&data, &["join"], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("waiting: 0"));
    let view = host.status(dir.path());
    let ada = &view["trainees"][0];
    assert_eq!(
        ada["decisions"][&first.id],
        first.options[0].id.as_str(),
        "{view}"
    );
    assert_eq!(
        ada["decisions"][&second.id],
        second.options[1].id.as_str(),
        "{view}"
    );
    let room = &view["decisions"][&first.id];
    assert_eq!(
        room[&first.options[0].id], 1,
        "the first answer is the vote: {view}"
    );
    for option in &first.options[1..] {
        assert_eq!(
            room[&option.id], 0,
            "every option shown, 0 when not chosen: {view}"
        );
    }
    assert_eq!(view["options"][&first.id][0]["number"], 1, "{view}");
    assert_eq!(
        view["options"][&first.id][0]["text"],
        first.options[0].text.as_str()
    );
}

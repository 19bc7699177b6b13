//! Honest votes: the room counts each trainee's first answer to a decision, a later change (the TUI
//! lets a learner change after the feedback) does not move the distribution, options nobody chose
//! are there with 0, and `decide --plain` continues where the trainee stopped without overwriting
//! an answer. A second vote is counted apart from the first, first answer of the round, and reaches
//! the poll, the status and the export.

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

#[test]
fn a_second_vote_is_counted_beside_the_first_and_shown_everywhere() {
    let content = queuelab::content::load(&ContentSource::Embedded).expect("content");
    let d = &content.course(Lang::En).decisions[0];
    let dir = tempfile::tempdir().expect("tempdir");
    let host_dir = dir.path().join("host");
    let host = Host::start(&host_dir, free_port(), &[]);
    let (ada, bob) = (dir.path().join("ada"), dir.path().join("bob"));
    for (data, name) in [(&ada, "Ada"), (&bob, "Bob")] {
        let out = run(data, &["join", &host.url, "--name", name], "");
        assert!(out.status.success());
        // The first round: both choose option 1.
        let out = run(data, &["decide", "--plain"], "1\n");
        assert!(out.status.success());
    }
    let _ = host.pace(dir.path(), "second-vote", "1");
    // Ada votes again, option 2, then changes to option 3 within the round; Bob does not
    // vote again.
    let (mut store, _) = queuelab::services::Store::open(&ada.join("progress.db")).expect("store");
    for option in [1, 2] {
        store
            .save(&Fact::SecondVote {
                decision: d.id.clone(),
                option: d.options[option].id.clone(),
            })
            .expect("saved");
    }
    let member = store.membership().expect("read").expect("joined");
    drop(store);
    for data in [&ada, &bob] {
        let out = run(data, &["join"], "");
        assert!(String::from_utf8_lossy(&out.stdout).contains("waiting: 0"));
    }
    let view = host.status(dir.path());
    assert_eq!(view["decisions"][&d.id][&d.options[0].id], 2, "{view}");
    let second = &view["second_votes"][&d.id];
    assert_eq!(second[&d.options[1].id], 1, "first of the round: {view}");
    assert_eq!(second[&d.options[2].id], 0, "{view}");
    assert_eq!(second[&d.options[0].id], 0, "{view}");
    assert_eq!(
        view["trainees"][0]["second_votes"][&d.id],
        d.options[1].id.as_str()
    );
    // The trainee's poll: the vote is open, Ada's is counted, nothing revealed yet.
    let poll = |m: &queuelab::services::store::Membership| {
        queuelab::services::trainee::poll_paces(
            m,
            0,
            queuelab::services::trainee::client::deadline_in(5_000),
        )
        .expect("poll")
    };
    let reply = poll(&member);
    assert_eq!(reply.second_votes, std::slice::from_ref(&d.id));
    assert_eq!(reply.second_given, std::slice::from_ref(&d.id));
    assert!(reply.second_distributions.is_empty(), "not revealed yet");
    let _ = host.pace(dir.path(), "reveal", "1");
    let reply = poll(&member);
    assert_eq!(reply.distributions[&d.id][&d.options[0].id], 2);
    assert_eq!(reply.second_distributions[&d.id][&d.options[1].id], 1);
    host.kill();
    export_shows_both_rounds(&host_dir, dir.path(), &content, d);
}

/// The export after the session: the second vote in the CSV's last column, the decisions by
/// their titles, both rounds side by side in the HTML.
fn export_shows_both_rounds(
    host_dir: &std::path::Path,
    dir: &std::path::Path,
    content: &queuelab::content::Content,
    d: &queuelab::content::Decision,
) {
    let out_dir = dir.join("export");
    let out = run(
        host_dir,
        &["host", "export", "--out", out_dir.to_str().expect("utf8")],
        "",
    );
    assert!(out.status.success());
    let csv = std::fs::read_to_string(out_dir.join("summary.csv")).expect("summary.csv");
    let header = csv.lines().next().expect("a header");
    assert!(
        header.ends_with(&format!("Second vote: {}", d.title)),
        "{csv}"
    );
    // The decisions in the course's order, by their titles (which carry the number).
    let course = content.course(Lang::En);
    let titles: Vec<String> = course.decisions.iter().map(|d| d.title.clone()).collect();
    assert!(header.contains(&titles.join(",")), "{csv}");
    let ada_row = csv.lines().find(|l| l.starts_with("Ada")).expect("Ada");
    assert!(
        ada_row.ends_with(&format!("2. {}", d.options[1].text))
            || ada_row.ends_with(&format!("\"2. {}\"", d.options[1].text)),
        "{csv}"
    );
    let html = std::fs::read_to_string(out_dir.join("summary.html")).expect("summary.html");
    assert!(
        html.contains("<th>First vote</th><th>Second vote</th>"),
        "both rounds side by side: {html}"
    );
}

//! Ids in one normal form, names that hide nothing and are unique in the room, stuck texts cleaned
//! at the door, event ids unique per trainee.

use super::*;

fn stuck(id: &str, text: &str) -> Event {
    Event {
        id: id.into(),
        n: 1,
        at_ms: 5,
        kind: EventKind::Stuck {
            screen: "home".into(),
            text: text.into(),
        },
    }
}

fn receipt(response: &ApiResponse) -> BatchReply {
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    serde_json::from_slice(&response.body).expect("receipt")
}

/// An instructor command naming a trainee (`POST /api/kick`, `/api/remove`), with `key` if any.
fn name_trainee(state: &HostState, path: &str, who: &str, key: Option<&str>) -> ApiResponse {
    let body = serde_json::json!({ "who": who }).to_string();
    call(state, "POST", path, "", key, body.as_bytes())
}

/// A session with trainee "a" and trainee `other`, one answer each to decision e1.
fn two_trainees(dir: &Path, content: &Content, other: &str) -> (HostState, EventBatch) {
    let state = HostState::open(dir, None, content).expect("opens");
    receipt(&post(
        &state,
        &batch(&state, "a", vec![decision(content, "e1", 1)]),
    ));
    let second = batch(&state, other, vec![decision(content, "e1", 1)]);
    receipt(&post(&state, &second));
    (state, second)
}

fn view(state: &HostState) -> SummaryView {
    serde_json::from_slice(&summary(state, Some(&state.key)).body).expect("summary")
}

#[test]
fn a_leaked_event_id_does_not_swallow_another_trainees_event() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let a = receipt(&post(
        &state,
        &batch(&state, "a", vec![decision(&content, "e1", 1)]),
    ));
    let b = receipt(&post(
        &state,
        &batch(&state, "b", vec![decision(&content, "e1", 1)]),
    ));
    assert_eq!((a.stored, b.stored, b.duplicates), (1, 1, 0));
    let again = receipt(&post(
        &state,
        &batch(&state, "b", vec![decision(&content, "e1", 1)]),
    ));
    assert_eq!((again.stored, again.duplicates), (0, 1));
}

#[test]
fn ids_are_normalised_names_checked_and_made_unique_stuck_text_cleaned() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    receipt(&post(&state, &batch(&state, "a", vec![])));
    // The same trainee with its id in capitals is not a second trainee.
    let mut upper = batch(&state, "a", vec![]);
    upper.trainee = upper.trainee.to_ascii_uppercase();
    receipt(&post(&state, &upper));
    assert_eq!(view(&state).trainees.len(), 1);

    for bad in ["Eve\u{202E}txt", "\u{2066}Eve", "E\u{200B}ve", "\u{FF25}ve"] {
        let mut b = batch(&state, "c", vec![]);
        b.name = bad.into();
        let answer = post(&state, &b);
        let text = String::from_utf8_lossy(&answer.body);
        assert_eq!(answer.status, 422, "{bad:?}: {text}");
        assert!(
            text.contains("invisible") && text.contains("unsichtbare"),
            "both languages: {text}"
        );
    }

    // Two trainees named alike: the second gets a suffix.
    let mut b = batch(
        &state,
        "b",
        vec![stuck("s1", "help\u{1b}[2J\0 me\r\u{85}now")],
    );
    b.name = "trainee A".into();
    receipt(&post(&state, &b));
    let names: Vec<String> = view(&state)
        .trainees
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert!(names.contains(&"Trainee a".to_owned()), "{names:?}");
    assert!(names.contains(&"trainee A (2)".to_owned()), "{names:?}");
    let stuck_text = view(&state)
        .trainees
        .iter()
        .find_map(|t| t.stuck_text.clone())
        .expect("stuck text");
    assert_eq!(stuck_text, "help[2J menow");
}

#[test]
fn a_full_disk_is_named_as_such() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    receipt(&post(&state, &batch(&state, "a", vec![])));
    let pages: u32 = 1;
    lock(&state.db).limit_pages(pages).expect("pragma");
    let events = (0..200)
        .map(|n| stuck(&format!("s{n}"), &"x".repeat(100)))
        .collect();
    let answer = post(&state, &batch(&state, "a", events));
    let text = String::from_utf8_lossy(&answer.body);
    assert_eq!(answer.status, 503, "{text}");
    assert!(text.starts_with("host disk full"), "{text}");
}

#[test]
fn one_address_cannot_fill_the_room_and_one_trainee_cannot_grow_storage_without_bound() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let fake = |i: usize| {
        let mut b = batch(&state, "f", vec![]);
        b.trainee = format!("{i:032x}");
        b.name = format!("Fake {i}");
        b
    };
    // The event quota: what is over it is refused by name, nothing more is stored.
    let quota = MAX_EVENTS_PER_TRAINEE as usize;
    for start in (0..quota).step_by(200) {
        let events = (start..start + 200)
            .map(|n| stuck(&format!("q{n}"), ""))
            .collect();
        receipt(&post(&state, &batch(&state, "a", events)));
    }
    let over = receipt(&post(&state, &batch(&state, "a", vec![stuck("over", "")])));
    assert_eq!(over.stored, 0);
    assert!(over.rejected[0].reason.contains("quota"), "{over:?}");
    // Trainee a took one registration of this address; 59 fakes get in, then no more.
    let statuses: Vec<u16> = (0..70).map(|i| post(&state, &fake(i)).status).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        59,
        "{statuses:?}"
    );
    assert_eq!(statuses[69], 429);
    // A real trainee on another address still joins.
    let body = serde_json::to_vec(&batch(&state, "b", vec![])).expect("json");
    let other = state.handle(
        &ApiRequest {
            method: "POST",
            path: "/api/events",
            query: "",
            bearer: None,
            cookie: None,
            body: &body,
            peer: IpAddr::V4(Ipv4Addr::new(192, 168, 1, 7)),
        },
        1,
    );
    assert_eq!(other.status, 200);
}

#[test]
fn names_are_compared_in_one_normal_form() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    // The same name typed precomposed, decomposed and with a ligature: one name, suffixed.
    for (trainee, name) in [
        ("a", "Zoë Fiona"),
        ("b", "Zoe\u{0308} Fiona"),
        ("c", "Zoë \u{FB01}ona"),
    ] {
        let mut b = batch(&state, trainee, vec![]);
        b.name = name.into();
        receipt(&post(&state, &b));
    }
    let mut names: Vec<String> = view(&state)
        .trainees
        .iter()
        .map(|t| t.name.clone())
        .collect();
    names.sort();
    assert_eq!(names, ["Zoë Fiona", "Zoë Fiona (2)", "Zoë fiona (3)"]);
}

#[test]
fn the_instructor_removes_a_trainee_who_stays_removed_across_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let (state, fake) = two_trainees(dir.path(), &content, "f");
    let kick = |state: &HostState, who: &str, key: Option<&str>| {
        name_trainee(state, "/api/kick", who, key)
    };
    assert_eq!(kick(&state, "Trainee f", None).status, 401);
    assert_eq!(kick(&state, "Trainee f", Some("wrong")).status, 403);
    assert_eq!(kick(&state, "nobody", Some(&state.key)).status, 404);
    assert_eq!(
        call(&state, "POST", "/api/kick", "", Some(&state.key), b"{}").status,
        400
    );
    // By name in another case; the trainee's events leave the summary and its distributions.
    let answer = kick(&state, "TRAINEE F", Some(&state.key));
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    let kicked: Kicked = serde_json::from_slice(&answer.body).expect("kicked");
    assert_eq!((kicked.name.as_str(), kicked.events), ("Trainee f", 1));
    let after = view(&state);
    assert_eq!(after.trainees.len(), 1);
    assert_eq!(after.events, 1);
    let counted: u32 = after.decisions.values().flat_map(|d| d.values()).sum();
    assert_eq!(counted, 1, "{:?}", after.decisions);
    // The removed client delivering again is refused by name, and stays removed.
    let again = post(&state, &fake);
    assert_eq!(again.status, 403);
    assert!(String::from_utf8_lossy(&again.body).contains("removed"));
    assert_eq!(kick(&state, "Trainee f", Some(&state.key)).status, 404);
    drop(state);
    let state = HostState::open(dir.path(), None, &content).expect("reopens");
    assert_eq!(view(&state).trainees.len(), 1);
    assert_eq!(post(&state, &fake).status, 403);
    // By id (in capitals) too.
    let id = "a".repeat(32).to_ascii_uppercase();
    assert_eq!(kick(&state, &id, Some(&state.key)).status, 200);
    assert!(view(&state).trainees.is_empty());
}

#[test]
fn removing_a_row_takes_it_off_the_room_without_refusing_the_client() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let (state, _) = two_trainees(dir.path(), &content, "b");
    let remove = |state: &HostState, who: &str, key: Option<&str>| {
        name_trainee(state, "/api/remove", who, key)
    };
    assert_eq!(remove(&state, "Trainee b", None).status, 401);
    assert_eq!(remove(&state, "Trainee b", Some("wrong")).status, 403);
    assert_eq!(remove(&state, "nobody", Some(&state.key)).status, 404);
    assert_eq!(
        call(&state, "GET", "/api/remove", "", Some(&state.key), b"").status,
        405
    );
    let answer = remove(&state, "trainee B", Some(&state.key));
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    let removed: Kicked = serde_json::from_slice(&answer.body).expect("removed");
    assert_eq!((removed.name.as_str(), removed.events), ("Trainee b", 1));
    let after = view(&state);
    assert_eq!(after.trainees.len(), 1, "one row left");
    let counted: u32 = after.decisions.values().flat_map(|d| d.values()).sum();
    assert_eq!(counted, 1, "the removed row's vote left the distribution");
    // Unlike a kick, the same client may deliver again: it is one new row, with its old name.
    let again = batch(&state, "b", vec![decision(&content, "e2", 2)]);
    assert_eq!(receipt(&post(&state, &again)).stored, 1);
    let names: Vec<String> = view(&state).trainees.into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["Trainee a", "Trainee b"]);
}

#[test]
fn a_stuck_signal_shows_since_when_is_acknowledged_for_the_trainee_and_clears_when_solved() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let ack = |state: &HostState, who: &str, key: Option<&str>| {
        let body = serde_json::json!({ "who": who }).to_string();
        call(state, "POST", "/api/ack", "", key, body.as_bytes())
    };
    let poll = |state: &HostState, trainee: &str| -> domain::workshop::pace::PaceReply {
        let query = format!("after=0&trainee={trainee}");
        let bearer = format!("{}:{}", state.code, batch(state, "c", Vec::new()).token);
        let reply = call(state, "GET", "/api/pace", &query, Some(&bearer), b"");
        serde_json::from_slice(&reply.body).expect("pace reply")
    };
    let id = "c".repeat(32);
    receipt(&post(
        &state,
        &batch(&state, "c", vec![decision(&content, "e1", 1)]),
    ));
    assert_eq!(
        ack(&state, "Trainee c", Some(&state.key)).status,
        409,
        "not stuck"
    );
    assert_eq!(poll(&state, &id).stuck, None);
    let mut signal = stuck("s1", "lock token?");
    signal.n = 2;
    // "Stuck since 1970": the host's clock decides when a stuck signal began.
    signal.at_ms = 1_000;
    receipt(&post(&state, &batch(&state, "c", vec![signal])));
    let t = view(&state).trainees.remove(0);
    assert!(t.stuck && !t.stuck_acknowledged);
    assert_eq!(
        t.stuck_since_ms,
        Some(1),
        "the host's clock at arrival (1 ms in `post`)"
    );
    assert_eq!(poll(&state, &id).stuck, Some(false), "stuck, not yet seen");
    assert_eq!(ack(&state, "Trainee c", None).status, 401);
    assert_eq!(ack(&state, "nobody", Some(&state.key)).status, 404);
    assert_eq!(ack(&state, "TRAINEE C", Some(&state.key)).status, 200);
    assert!(view(&state).trainees[0].stuck_acknowledged);
    assert_eq!(
        poll(&state, &id).stuck,
        Some(true),
        "the trainee learns it was seen"
    );
    // The acknowledgement survives a restart.
    drop(state);
    let state = HostState::open(dir.path(), None, &content).expect("reopens");
    assert!(view(&state).trainees[0].stuck_acknowledged);
    // "Solved" clears it; a new signal later is open and not acknowledged.
    let solved = Event {
        id: "s2".into(),
        n: 3,
        at_ms: 2_000,
        kind: EventKind::Solved,
    };
    receipt(&post(&state, &batch(&state, "c", vec![solved])));
    let t = view(&state).trainees.remove(0);
    assert!(!t.stuck && t.stuck_since_ms.is_none());
    assert_eq!(poll(&state, &id).stuck, None);
    let mut again = stuck("s3", "");
    again.n = 4;
    receipt(&post(&state, &batch(&state, "c", vec![again])));
    assert_eq!(poll(&state, &id).stuck, Some(false));
}

#[test]
fn another_trainees_pace_answers_need_that_trainees_token() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let mut signal = stuck("s1", "help");
    signal.n = 1;
    receipt(&post(&state, &batch(&state, "c", vec![signal])));
    let id = "c".repeat(32);
    let query = format!("after=0&trainee={id}");
    // The join code alone (anyone in the room), or a wrong token: refused, nothing said.
    for bearer in [
        state.code.clone(),
        format!("{}:wrong-token-0000000", state.code),
    ] {
        let reply = call(&state, "GET", "/api/pace", &query, Some(&bearer), b"");
        assert_eq!(reply.status, 403, "{bearer}");
        assert!(!String::from_utf8_lossy(&reply.body).contains("stuck"));
    }
    // Without a trainee, the join code still reads the room's pacing.
    let reply = call(
        &state,
        "GET",
        "/api/pace",
        "after=0",
        Some(&state.code),
        b"",
    );
    assert_eq!(reply.status, 200);
    // The trainee's own client, with its token.
    let own = format!("{}:{}", state.code, batch(&state, "c", Vec::new()).token);
    let reply = call(&state, "GET", "/api/pace", &query, Some(&own), b"");
    assert_eq!(reply.status, 200);
    let pace: domain::workshop::pace::PaceReply =
        serde_json::from_slice(&reply.body).expect("pace reply");
    assert_eq!(pace.stuck, Some(false));
}

#[test]
fn event_times_are_held_to_the_hosts_clock() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let mut future = decision(&content, "e1", 1);
    future.at_ms = i64::MAX / 2;
    receipt(&post(&state, &batch(&state, "a", vec![future])));
    // `post` hands the host a clock of 1 ms.
    assert_eq!(view(&state).trainees.remove(0).last_seen_ms, 1);
    // Long before the session: held to a day before arrival.
    let mut ancient = decision(&content, "e2", 2);
    ancient.at_ms = -1_000_000_000_000;
    receipt(&post(&state, &batch(&state, "b", vec![ancient])));
    let b = view(&state)
        .trainees
        .into_iter()
        .find(|t| t.name == "Trainee b");
    let seen = b.map(|t| t.last_seen_ms).expect("trainee b");
    assert!(seen >= 1 - 24 * 60 * 60 * 1000, "{seen}");
}

#[test]
fn look_alike_names_are_flagged_in_the_summary() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    for (trainee, name) in [
        ("a", "Alice"),
        ("b", "\u{410}lice"),
        ("c", "Bob"),
        ("d", "Carol"),
    ] {
        let mut registration = batch(&state, trainee, Vec::new());
        registration.name = name.to_owned();
        receipt(&post(&state, &registration));
    }
    assert_eq!(
        view(&state).lookalikes,
        [vec!["Alice".to_owned(), "\u{410}lice".to_owned()]],
        "the Cyrillic A next to the Latin one"
    );
}

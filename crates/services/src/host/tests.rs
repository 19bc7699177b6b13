use super::api::{ApiRequest, ApiResponse};
use super::*;
use content::{ContentSource, Lang};
use domain::workshop::wire::{BatchReply, EventBatch};
use domain::workshop::{Event, EventKind, SummaryView};
use std::net::{IpAddr, Ipv4Addr};

fn content() -> Content {
    content::load(&ContentSource::Embedded).expect("embedded content loads")
}

fn post(state: &HostState, batch: &EventBatch) -> ApiResponse {
    let body = serde_json::to_vec(batch).expect("encodes");
    state.handle(
        &ApiRequest {
            method: "POST",
            path: "/api/events",
            query: "",
            bearer: None,
            cookie: None,
            body: &body,
            peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
        },
        1,
    )
}

fn summary(state: &HostState, key: Option<&str>) -> ApiResponse {
    state.handle(
        &ApiRequest {
            method: "GET",
            path: "/api/summary",
            query: "",
            bearer: key,
            cookie: None,
            body: b"",
            peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
        },
        1,
    )
}

fn batch(state: &HostState, trainee: &str, events: Vec<Event>) -> EventBatch {
    EventBatch {
        code: state.code.clone(),
        trainee: trainee.repeat(32 / trainee.len()),
        token: format!("{trainee}-token-0123456789"),
        name: format!("Trainee {trainee}"),
        events,
    }
}

fn decision(content: &Content, id: &str, n: u64) -> Event {
    let d = &content.course(Lang::En).decisions[0];
    Event {
        id: id.into(),
        n,
        at_ms: 5,
        kind: EventKind::Decision {
            decision: d.id.clone(),
            option: d.options[0].id.clone(),
        },
    }
}

#[test]
fn duplicates_are_recognised_and_counted_once_across_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), Some("Room 1"), &content).expect("opens");
    let b = batch(&state, "a", vec![decision(&content, "e1", 1)]);
    let first: BatchReply = serde_json::from_slice(&post(&state, &b).body).expect("receipt");
    assert_eq!((first.stored, first.duplicates), (1, 0));
    let again: BatchReply = serde_json::from_slice(&post(&state, &b).body).expect("receipt");
    assert_eq!((again.stored, again.duplicates), (0, 1));
    let (code, key) = (state.code.clone(), state.key.clone());
    drop(state);
    let state = HostState::open(dir.path(), None, &content).expect("reopens");
    assert_eq!(
        (state.code.as_str(), state.key.as_str()),
        (code.as_str(), key.as_str())
    );
    let reply: BatchReply = serde_json::from_slice(&post(&state, &b).body).expect("receipt");
    assert_eq!(
        (reply.stored, reply.duplicates, reply.session.as_str()),
        (0, 1, "Room 1")
    );
    let view: SummaryView =
        serde_json::from_slice(&summary(&state, Some(&key)).body).expect("json");
    assert_eq!(
        (view.events, view.duplicates, view.trainees.len()),
        (1, 2, 1)
    );
    let d = &content.course(Lang::En).decisions[0];
    assert_eq!(view.decisions[&d.id][&d.options[0].id], 1);
}

#[test]
fn acknowledging_a_trainee_who_is_not_stuck_is_a_conflict_not_a_database_failure() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), Some("Room 1"), &content).expect("opens");
    post(
        &state,
        &batch(&state, "a", vec![decision(&content, "e1", 1)]),
    );
    let refused = state.acknowledge("Trainee a").expect_err("not stuck");
    assert!(
        matches!(&refused, AckError::NotStuck { name } if name == "Trainee a"),
        "{refused:?}"
    );
    assert_eq!(state.acknowledge("nobody").expect("no error"), None);
    let key = state.key.clone();
    let answer = call(
        &state,
        "POST",
        "/api/ack",
        "",
        Some(&key),
        br#"{"who":"Trainee a"}"#,
    );
    assert_eq!(
        (
            answer.status,
            String::from_utf8_lossy(&answer.body).as_ref()
        ),
        (409, "Trainee a is not stuck\n")
    );
}

#[test]
fn only_the_owner_writes_and_only_the_instructor_reads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    assert_eq!(post(&state, &batch(&state, "a", vec![])).status, 200);
    let mut thief = batch(&state, "a", vec![decision(&content, "x1", 1)]);
    thief.token = "someone-else-0123456789".into();
    assert_eq!(post(&state, &thief).status, 403);
    let mut wrong_code = batch(&state, "b", vec![]);
    wrong_code.code = "WRONGCODE1".into();
    assert_eq!(post(&state, &wrong_code).status, 403);
    assert_eq!(summary(&state, None).status, 401);
    assert_eq!(summary(&state, Some("guess")).status, 403);
    assert_eq!(summary(&state, Some(&state.key.clone())).status, 200);
}

#[test]
fn events_are_checked_against_the_content() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let mut bad = decision(&content, "e2", 2);
    bad.kind = EventKind::ChapterRead {
        chapter: "no-such-chapter".into(),
    };
    let reply: BatchReply = serde_json::from_slice(
        &post(
            &state,
            &batch(&state, "c", vec![decision(&content, "e1", 1), bad]),
        )
        .body,
    )
    .expect("receipt");
    assert_eq!(reply.stored, 1);
    assert_eq!(reply.rejected.len(), 1);
    assert!(reply.rejected[0].reason.contains("no-such-chapter"));
    let garbage = state.handle(
        &ApiRequest {
            method: "POST",
            path: "/api/events",
            query: "",
            bearer: None,
            cookie: None,
            body: b"{not json",
            peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
        },
        1,
    );
    assert_eq!(garbage.status, 400);
    assert!(String::from_utf8_lossy(&garbage.body).contains("not an event batch"));
}

fn call(
    state: &HostState,
    method: &str,
    path: &str,
    query: &str,
    bearer: Option<&str>,
    body: &[u8],
) -> ApiResponse {
    state.handle(
        &ApiRequest {
            method,
            path,
            query,
            bearer,
            cookie: None,
            body,
            peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
        },
        7,
    )
}

/// A pace without a key, with a wrong key, or naming an unknown chapter is refused.
fn assert_pace_refused_without_the_key(state: &HostState, reveal: &str) {
    let chapter = r#"{"kind":"open-chapter","chapter":"no-such-chapter"}"#;
    assert_eq!(
        call(state, "POST", "/api/pace", "", None, reveal.as_bytes()).status,
        401
    );
    assert_eq!(
        call(
            state,
            "POST",
            "/api/pace",
            "",
            Some("nope"),
            reveal.as_bytes()
        )
        .status,
        403
    );
    let bad = call(
        state,
        "POST",
        "/api/pace",
        "",
        Some(&state.key),
        chapter.as_bytes(),
    );
    assert_eq!(bad.status, 422, "content ids are checked");
    assert!(String::from_utf8_lossy(&bad.body).contains("no-such-chapter"));
}

#[test]
fn pacing_needs_the_key_to_send_the_code_to_read_and_survives_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let decision = content.course(Lang::En).decisions[1].id.clone();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let reveal = format!(r#"{{"kind":"reveal-decision","decision":"{decision}"}}"#);
    assert_pace_refused_without_the_key(&state, &reveal);
    let key = state.key.clone();
    for _ in 0..2 {
        let sent = call(
            &state,
            "POST",
            "/api/pace",
            "",
            Some(&key),
            reveal.as_bytes(),
        );
        assert_eq!(sent.status, 200, "{}", String::from_utf8_lossy(&sent.body));
    }
    assert_eq!(
        call(&state, "GET", "/api/pace", "after=0", Some(&key), b"").status,
        403,
        "the key is not the code"
    );
    let poll = call(
        &state,
        "GET",
        "/api/pace",
        "after=1",
        Some(&state.code),
        b"",
    );
    let reply: domain::workshop::pace::PaceReply =
        serde_json::from_slice(&poll.body).expect("a pace reply");
    assert_eq!(
        reply.paces.iter().map(|p| p.id).collect::<Vec<_>>(),
        [2],
        "only newer ones"
    );
    assert_eq!(
        reply.revealed,
        std::slice::from_ref(&decision),
        "revealed once, listed once"
    );
    assert_eq!(
        call(
            &state,
            "GET",
            "/api/pace",
            "after=x",
            Some(&state.code),
            b""
        )
        .status,
        400
    );
    drop(state);
    let again = HostState::open(dir.path(), None, &content).expect("reopens");
    let view = again.summary().expect("summary");
    assert_eq!(view.revealed, [decision]);
    assert_eq!(view.last_pace.map(|p| p.id), Some(2));
}

mod hardening;

#[test]
fn the_pace_poll_tells_trainees_that_feedback_waits_for_the_reveal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let code = state.code.clone();
    let reply = call(&state, "GET", "/api/pace", "after=0", Some(&code), b"");
    let reply: domain::workshop::pace::PaceReply =
        serde_json::from_slice(&reply.body).expect("pace reply");
    assert!(
        reply.hold_feedback,
        "a session holds right/wrong by default"
    );
    let open = state.with_hold_feedback(false);
    assert!(!open.paces_after(0).hold_feedback);
}

#[test]
fn the_feedback_setting_survives_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    assert!(state.hold_feedback(), "held by default");
    let state = state.set_hold_feedback(false).expect("set");
    assert!(!state.paces_after(0).hold_feedback);
    drop(state);
    let again = HostState::open(dir.path(), None, &content).expect("reopens");
    assert!(!again.hold_feedback(), "a restart keeps immediate feedback");
    let again = again.set_hold_feedback(true).expect("set");
    drop(again);
    let third = HostState::open(dir.path(), None, &content).expect("reopens");
    assert!(third.paces_after(0).hold_feedback);
}

#[test]
fn the_projector_script_is_public_and_its_live_part_needs_the_page_s_login() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let get = |path: &str, cookie: Option<&str>| {
        state.handle(
            &ApiRequest {
                method: "GET",
                path,
                query: "",
                bearer: None,
                cookie,
                body: b"",
                peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
            },
            7,
        )
    };
    assert_eq!(get(projector::LIVE_PATH, None).status, 401);
    assert_eq!(get(projector::LIVE_PATH, Some("stale")).status, 403);
    let live = get(projector::LIVE_PATH, Some(&state.key));
    assert_eq!((live.status, live.content_type), (200, "application/json"));
    let json: serde_json::Value = serde_json::from_slice(&live.body).expect("json");
    let view = state.summary().expect("summary");
    assert_eq!(json["html"], projector::live(&view, state.texts()));
    assert_eq!(
        json.as_object().map(serde_json::Map::len),
        Some(1),
        "{json}"
    );

    let script = get(projector::SCRIPT_PATH, None);
    assert_eq!(script.status, 200);
    assert!(script.content_type.starts_with("text/javascript"));
    assert_eq!(script.body, projector::SCRIPT.as_bytes());
    // The page, and only the page, may run it and fetch from its own host.
    let page = get("/dashboard", Some(&state.key));
    assert_eq!(
        page.headers,
        vec![("content-security-policy", projector::CSP.to_owned())]
    );
    assert!(
        get("/dashboard", None).headers.is_empty(),
        "the login form runs no script"
    );
    for path in [projector::LIVE_PATH, projector::SCRIPT_PATH] {
        assert_eq!(
            call(&state, "POST", path, "", None, b"").status,
            405,
            "{path}"
        );
    }
}

#[test]
fn the_projector_page_takes_the_key_from_the_login_cookie_never_from_the_query() {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = content();
    let state = HostState::open(dir.path(), None, &content).expect("opens");
    let page = |query: &str, cookie: Option<&str>| {
        state.handle(
            &ApiRequest {
                method: "GET",
                path: "/dashboard",
                query,
                bearer: None,
                cookie,
                body: b"",
                peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
            },
            7,
        )
    };
    let key_query = format!("key={}", state.key);
    let in_query = page(&key_query, None);
    assert_eq!(in_query.status, 401);
    assert!(String::from_utf8_lossy(&in_query.body).contains("action=\"/login\""));
    assert_eq!(page("", Some("stale")).status, 403);
    let shown = page("", Some(&state.key));
    assert_eq!(shown.status, 200);
    assert!(String::from_utf8_lossy(&shown.body).contains("Projector"));

    let login = call(
        &state,
        "POST",
        "/login",
        "",
        None,
        format!("key={}", state.key).as_bytes(),
    );
    assert_eq!(login.status, 303);
    assert!(
        login
            .headers
            .iter()
            .any(|(name, value)| *name == "set-cookie" && value.contains(&state.key))
    );
    assert_eq!(
        call(&state, "POST", "/login", "", None, b"key=wrong").status,
        403
    );
    assert_eq!(
        call(&state, "POST", "/login", "", None, b"nothing").status,
        400
    );
    assert_eq!(call(&state, "GET", "/login", "", None, b"").status, 405);
}

//! The host client against real hosts on loopback over TLS: this build's host, which answers
//! every route at the path the wire module defines, and a host of another protocol, which
//! both sides refuse.

use super::*;
use crate::host::{HostState, server};
use crate::http::{Handler, Request, Response, Server};
use crate::tls::Identity;
use crate::trainee::client::send_as;
use content::{ContentSource, Lang};
use domain::workshop::JoinRefusal;
use domain::workshop::wire::{PROTOCOL, VersionRefusal};
use std::net::SocketAddr;
use std::sync::Arc;

fn content() -> content::Content {
    content::load(&ContentSource::Embedded).expect("embedded content loads")
}

/// A TLS server on a free loopback port with a new certificate, and the join URL pinned to it.
fn serve(
    dir: &std::path::Path,
    code: &str,
    start: impl FnOnce(SocketAddr, Arc<rustls::ServerConfig>) -> Server,
) -> (Server, JoinUrl) {
    let identity = Identity::load_or_create(&dir.join("host.cert")).expect("identity");
    let config = identity.server_config().expect("TLS config");
    let server = start(SocketAddr::from(([127, 0, 0, 1], 0)), config);
    let url = JoinUrl {
        host: "127.0.0.1".into(),
        port: server.local_addr().port(),
        code: code.to_owned(),
        fingerprint: identity.fingerprint(),
    };
    (server, url)
}

/// This build's host, serving a new session in `dir`.
fn real_host(dir: &std::path::Path) -> (Server, JoinUrl, Arc<HostState>) {
    let state = Arc::new(HostState::open(dir, Some("Room 1"), &content()).expect("opens"));
    let (server, url) = serve(dir, &state.code, |addr, tls| {
        server::start(addr, Arc::clone(&state), tls).expect("serves")
    });
    (server, url, state)
}

fn deadline() -> Instant {
    deadline_in(10_000)
}

fn batch(url: &JoinUrl, n: u8, name: &str) -> EventBatch {
    EventBatch {
        code: url.code.clone(),
        trainee: format!("{n:032x}"),
        token: format!("token-of-trainee-{n:04}"),
        name: name.to_owned(),
        events: Vec::new(),
    }
}

/// Calls `route` on the host with what it needs; Ok(()) for any answer of the route itself,
/// a refusal included (a session without mail settings refuses the relay's routes).
fn call(host: &HostClient, key: &str, route: Route) -> Result<(), HostError> {
    let ada = batch(host.url(), 1, "Ada");
    let caller = domain::workshop::wire::Caller {
        code: ada.code.clone(),
        trainee: ada.trainee.clone(),
        token: ada.token.clone(),
    };
    let chapter = content().course(Lang::En).chapters[0].id.clone();
    let answered = match route {
        Route::Hello => host.hello(deadline()).map(drop),
        Route::Events => host.deliver(&ada, deadline()).map(drop),
        Route::PacePoll => host
            .poll_paces(&ada.trainee, &ada.token, 0, deadline())
            .map(drop),
        Route::Pace => host.pace(key, &PaceKind::OpenChapter { chapter }).map(drop),
        Route::Summary => host.summary(key).map(drop),
        Route::Kick => host.kick(key, "Bo", true).map(drop),
        Route::Remove => host.kick(key, "Cy", false).map(drop),
        Route::Ack => host.acknowledge(key, "Ada").map(drop),
        Route::Lock => host.set_locked(key, true).map(drop),
        Route::Unlock => host.set_locked(key, false).map(drop),
        Route::CountSilent => host.count_silent(key).map(drop),
        Route::RemoveSilent => host.remove_silent(key).map(drop),
        Route::ReportCode => host
            .request_code(&CodeRequest {
                caller,
                address: "ada@example.org".into(),
                lang: Lang::En,
            })
            .map(drop),
        Route::ReportSend => host
            .submit_report(&ReportSubmit {
                caller,
                address: "ada@example.org".into(),
                typed: "123456".into(),
                report: domain::report::Report {
                    subject: "Report".into(),
                    lang: Lang::En,
                    blocks: Vec::new(),
                },
                instructor_copy: false,
            })
            .map(drop),
    };
    match answered {
        Err(HostError::Refused {
            status: 404 | 405, ..
        }) => answered,
        Err(HostError::Refused { status, .. }) if status != 200 => Ok(()),
        other => other,
    }
}

#[test]
fn each_route_answers_at_the_path_the_wire_module_defines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_server, url, state) = real_host(dir.path());
    let host = HostClient::new(url.clone());
    for (n, name) in [(1, "Ada"), (2, "Bo"), (3, "Cy")] {
        host.deliver(&batch(&url, n, name), deadline())
            .expect("registers");
    }
    for route in Route::ALL {
        assert_eq!(
            call(&host, &state.key, route),
            Ok(()),
            "{}",
            route.spelled()
        );
    }
    let hello = host.hello(deadline()).expect("hello");
    assert_eq!(
        (hello.session.as_str(), hello.protocol),
        ("Room 1", PROTOCOL)
    );
}

#[test]
fn the_host_refuses_a_client_of_another_protocol_and_names_its_version() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_server, url, state) = real_host(dir.path());
    let ada = serde_json::to_vec(&batch(&url, 1, "Ada")).expect("json");
    for (route, body) in [(Route::Hello, &[][..]), (Route::Events, &ada[..])] {
        let reply = send_as(
            &url,
            PROTOCOL + 1,
            route.method(),
            route.path(),
            Some(&url.code),
            body,
            deadline(),
        )
        .expect("the host answers");
        assert_eq!(reply.status, VERSION_STATUS, "{}", reply.text());
        let refusal: VersionRefusal = serde_json::from_slice(&reply.body).expect("a refusal");
        assert_eq!(refusal, VersionRefusal::this_build());
    }
    let (view, _) = HostClient::new(url).summary(&state.key).expect("summary");
    assert!(
        view.trainees.is_empty(),
        "nothing of the refused batch is stored"
    );
}

/// A host of the next protocol: its hello names it, and it refuses this build's requests as
/// this build's host refuses another protocol's.
struct NewerHost;

const NEWER: &str = "99.0.0";

impl Handler for NewerHost {
    async fn handle(&self, request: Request, _peer: SocketAddr) -> Response {
        let newer = VersionRefusal {
            protocol: PROTOCOL + 1,
            queuelab: NEWER.into(),
        };
        let (status, body) = if request.uri().path() == Route::Hello.path() {
            let hello = Hello {
                session: "Room 1".into(),
                protocol: newer.protocol,
                queuelab: newer.queuelab,
            };
            (200, serde_json::to_vec(&hello))
        } else {
            (VERSION_STATUS, serde_json::to_vec(&newer))
        };
        let mut response = Response::new(body.expect("json").into());
        *response.status_mut() = hyper::StatusCode::from_u16(status).expect("status");
        response
    }
}

fn newer_host(dir: &std::path::Path) -> (Server, JoinUrl) {
    serve(dir, "K7Q2M9X", |addr, tls| {
        Server::start_with(
            addr,
            crate::http::Limits::default(),
            server::TlsAccept(tokio_rustls::TlsAcceptor::from(tls)),
            NewerHost,
        )
        .expect("serves")
    })
}

#[test]
fn a_client_refuses_a_host_of_another_protocol_in_its_users_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_server, url) = newer_host(dir.path());
    let refusal = crate::trainee::join::hello(&url, deadline()).expect_err("refused");
    let JoinRefusal::Version(version) = &refusal else {
        panic!("not a version refusal: {refusal:?}");
    };
    assert_eq!(
        (version.protocol, version.queuelab.as_str()),
        (PROTOCOL + 1, NEWER)
    );
    let content = content();
    let en = refusal.message(&content.course(Lang::En).strings);
    let de = refusal.message(&content.course(Lang::De).strings);
    assert!(en.contains("Update queuelab to version 99.0.0"), "{en}");
    assert!(
        de.contains("Aktualisiere queuelab auf Version 99.0.0"),
        "{de}"
    );
    // A trainee who joined before: the next delivery is refused with the same version.
    let host = HostClient::new(url.clone());
    let delivered = host.deliver(&batch(&url, 1, "Ada"), deadline());
    assert!(
        matches!(&delivered, Err(HostError::Version(v)) if v == version),
        "{delivered:?}"
    );
}

#[test]
fn joining_a_host_of_another_protocol_records_no_membership() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_server, url) = newer_host(dir.path());
    let (mut store, _) = crate::Store::open(&dir.path().join("progress.db")).expect("store");
    let joined = crate::trainee::join::join(&mut store, &url, "Ada", deadline());
    assert!(matches!(joined, Err(JoinRefusal::Version(_))), "{joined:?}");
    assert_eq!(store.membership().expect("reads"), None);
}

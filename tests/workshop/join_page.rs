//! The QR code on the projector encodes the join URL; a phone that opens it gets a page from the
//! host (how to join, the check digits, and the quick reference once the decisions the room votes
//! on are revealed) in the session's language, not an API error. Fetched with curl, a real HTTP client that knows nothing of queuelab.

use crate::support::{Host, free_port};
use std::process::Command;

/// (status, body) of a GET that accepts the host's self-signed certificate, as a phone's
/// browser does after its warning.
fn get(url: &str) -> (u16, String) {
    let out = Command::new("curl")
        .args(["-sk", "--max-time", "20", "-w", "\n%{http_code}", url])
        .output()
        .expect("curl runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (body, status) = text.rsplit_once('\n').expect("status line");
    (status.trim().parse().expect("status"), body.to_owned())
}

#[test]
fn the_join_url_opens_the_room_page_in_the_sessions_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (lang, title, digits_word) in [
        ("en", "Join the workshop", "check digits"),
        ("de", "Dem Workshop beitreten", "Prüfziffern"),
    ] {
        let host = Host::start_in(lang, &dir.path().join(lang), free_port(), &[]);
        let (status, page) = get(&host.url);
        assert_eq!(status, 200, "{page}");
        assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
        assert!(page.contains(&format!("<html lang=\"{lang}\"")), "{lang}");
        assert!(page.contains(title), "{lang}: {page}");
        assert!(
            page.contains(&format!("queuelab join {} --name NAME", host.short)),
            "{page}"
        );
        assert!(
            page.contains(digits_word) && page.contains(&host.digits),
            "{page}"
        );
        // Feedback is held by default: the map's checklist would answer the decisions the room
        // is voting on, so the page offers it only once they are revealed.
        assert!(!page.contains("id=\"checklist\""), "{page}");
        assert!(page.contains("<p class=\"lead\">"), "{page}");
        assert!(!page.contains(&host.key), "never the instructor key");
        let decisions = queuelab::content::load(&queuelab::content::ContentSource::Embedded)
            .expect("content")
            .course(queuelab::content::Lang::En)
            .decisions
            .len();
        for k in 1..=decisions {
            host.pace(dir.path(), "reveal", &k.to_string());
        }
        let (_, page) = get(&host.url);
        assert!(
            page.contains("id=\"checklist\"") && page.contains("id=\"runbook\""),
            "every decision revealed: the quick reference follows: {page}"
        );
        // Without the right code there is no join line to copy.
        let wrong = host.url.replace("code=", "code=X");
        let (status, _) = get(&wrong);
        assert_eq!(status, 403);
    }
}

#[test]
fn with_immediate_feedback_the_map_is_on_the_join_page_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(
        &dir.path().join("h"),
        free_port(),
        &["--feedback", "immediate"],
    );
    let (status, page) = get(&host.url);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("id=\"checklist\""), "{page}");
}

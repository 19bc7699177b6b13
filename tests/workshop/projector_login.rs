//! The projector page's key lives in a cookie after one login, never in a URL that is projected,
//! logged or kept in a history. Driven with curl and its cookie jar, a real HTTP client that knows
//! nothing of queuelab.

use crate::support::{Host, free_port};
use std::path::Path;
use std::process::Command;

/// An answer as curl saw it: status, the `Location` and `Set-Cookie` headers, the body.
struct Answer {
    status: u16,
    location: Option<String>,
    set_cookie: Option<String>,
    body: String,
}

/// One request with the cookie jar `jar` (read and written), accepting the host's self-signed
/// certificate as a browser does after its warning; `form` makes it a form POST.
fn request(url: &str, jar: &Path, form: Option<&str>) -> Answer {
    let mut curl = Command::new("curl");
    curl.args(["-sk", "--max-time", "20", "-D", "-", "-w", "\n%{http_code}"])
        .arg("-b")
        .arg(jar)
        .arg("-c")
        .arg(jar);
    if let Some(form) = form {
        curl.args(["--data-raw", form]);
    }
    let out = curl.arg(url).output().expect("curl runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (rest, status) = text.rsplit_once('\n').expect("status line");
    let (head, body) = rest.split_once("\r\n\r\n").expect("headers, then body");
    let header = |name: &str| {
        head.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    };
    Answer {
        status: status.trim().parse().expect("status"),
        location: header("location"),
        set_cookie: header("set-cookie"),
        body: body.to_owned(),
    }
}

#[test]
fn the_projector_page_asks_for_the_key_once_and_keeps_it_in_a_cookie() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (lang, login_title, wrong_text, page_title) in [
        (
            "de",
            "Anmeldung der Kursleitung",
            "Falscher Schlüssel",
            "Beamer: Room 1",
        ),
        (
            "en",
            "instructor login",
            "Wrong instructor key",
            "Projector: Room 1",
        ),
    ] {
        let host = Host::start_in(lang, &dir.path().join(lang), free_port(), &[]);
        let authority = host.url.split('/').nth(2).expect("authority").to_owned();
        let page = format!("https://{authority}/dashboard");
        let login = format!("https://{authority}/login");
        let jar = dir.path().join(format!("{lang}.jar"));

        // A browser without the cookie gets the login form in the session's language.
        let first = request(&page, &jar, None);
        assert_eq!(first.status, 401, "{}", first.body);
        assert!(first.body.contains(login_title), "{lang}: {}", first.body);
        assert!(first.body.contains(&format!("<html lang=\"{lang}\"")));
        assert!(first.body.contains("action=\"/login\""), "{}", first.body);
        assert!(!first.body.contains(&host.key), "never the key itself");
        assert!(!first.body.contains(page_title), "nothing of the room yet");

        // The key in the address is not a way in: it would be projected and logged.
        let in_query = request(&format!("{page}?key={}", host.key), &jar, None);
        assert_eq!(in_query.status, 401, "{}", in_query.body);
        assert!(!in_query.body.contains(page_title));

        // A wrong key: refused in the session's language, no cookie.
        let wrong = request(&login, &jar, Some("key=NOTTHEKEY"));
        assert_eq!(wrong.status, 403);
        assert!(wrong.body.contains(wrong_text), "{lang}: {}", wrong.body);
        assert!(wrong.set_cookie.is_none());

        // The right key (as pasted from a terminal, with a space) sets the cookie and leads to
        // the page, whose address carries nothing secret.
        let right = request(&login, &jar, Some(&format!("key=+{}", host.key)));
        assert_eq!(right.status, 303, "{}", right.body);
        assert_eq!(right.location.as_deref(), Some("/dashboard"));
        let cookie = right.set_cookie.expect("a cookie is set");
        for part in ["Secure", "HttpOnly", "SameSite=Strict"] {
            assert!(cookie.contains(part), "{cookie}");
        }
        let shown = request(&page, &jar, None);
        assert_eq!(shown.status, 200, "{}", shown.body);
        assert!(shown.body.contains(page_title), "{lang}: {}", shown.body);
        assert!(
            !shown.body.contains(&host.key),
            "the page never prints the key"
        );

        // A cookie with a stale key (an earlier session's) shows the form with the refusal.
        let stale = dir.path().join(format!("{lang}-stale.jar"));
        std::fs::write(
            &stale,
            "127.0.0.1\tFALSE\t/\tTRUE\t0\tqueuelab_instructor\tOLDKEY\n",
        )
        .expect("jar");
        let old = request(&page, &stale, None);
        assert_eq!(old.status, 403, "{}", old.body);
        assert!(old.body.contains(wrong_text), "{}", old.body);
    }
}

//! The projector page in a real headless browser (Debian's `chromium`). Ignored by default
//! because CI does not install a browser; run it with
//! `cargo test --test workshop -- --ignored projector` after `apt-get install chromium`.

use crate::support::{Host, free_port, run};
use std::process::Command;

#[test]
#[ignore = "needs Debian's chromium; see the README, Workshop sessions"]
fn projector_page_renders_the_rooms_answers_in_headless_chromium() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    for (i, answer) in ["1", "2", "1"].iter().enumerate() {
        let data = dir.path().join(format!("t{i}"));
        let out = run(
            &data,
            &["join", &host.url, "--name", &format!("Trainee <{i}>")],
            "",
        );
        assert!(out.status.success());
        let out = run(
            &data,
            &["decide", "--plain"],
            &format!("{answer}\n").repeat(4),
        );
        assert!(out.status.success());
    }
    let out = run(&dir.path().join("t1"), &["stuck"], "");
    assert!(out.status.success());
    // The room sees a distribution once the instructor reveals it.
    for k in ["1", "2", "3", "4"] {
        let out = run(
            &dir.path().join("t0"),
            &[
                "host", "pace", "--url", &host.url, "--key", &host.key, "reveal", k,
            ],
            "",
        );
        assert!(out.status.success(), "{out:?}");
    }
    let authority = host.url.split('/').nth(2).expect("authority").to_owned();
    let page = format!("https://{authority}/dashboard?key={}", host.key);
    let profile = dir.path().join("chromium-profile");
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            // The browser cannot pin the fingerprint the way the trainee client does.
            "--ignore-certificate-errors",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(&page)
        .output()
        .expect("chromium runs (apt-get install chromium)");
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("Trainees: 3"), "{dom}");
    assert!(
        dom.contains("Stuck: Trainee &lt;1&gt;"),
        "names escaped, stuck shown: {dom}"
    );
    assert!(dom.contains("broker-down"), "decision charts: {dom}");
    assert!(
        dom.matches("class=\"bar\"").count() >= 8,
        "bars drawn: {dom}"
    );
    assert!(
        !dom.contains("<script") && !dom.contains("://"),
        "self-contained: {dom}"
    );
    let wrong = format!("https://{authority}/dashboard?key=nope");
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--ignore-certificate-errors",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(&wrong)
        .output()
        .expect("chromium runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains("wrong instructor key"));
}

//! The projector page in a real headless browser: Debian's `chromium`, driven over the `WebDriver`
//! protocol by `chromedriver` (both installed by `.ci/run`), with curl as the `WebDriver` client.
//! The browser logs in through the form as an instructor would, the page renders the room's
//! answers in the session's language, and a screenshot at 1280x720 per language lands in the
//! test artefacts (`target/tmp/projector-LANG-1280x720.png`).
//!
//! Without the two programs the test says so and passes on a developer's machine; under CI
//! (`CI` set) their absence fails it.

use crate::support::{Host, free_port, run};
use base64::Engine as _;
use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The `WebDriver` key of an element reference (W3C `WebDriver`, "Elements").
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A running `chromedriver` on a loopback port, stopped on drop.
struct Driver {
    child: Child,
    base: String,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        // A deadline for a loaded machine, not a speed claim.
        let deadline = Instant::now() + Duration::from_mins(1);
        while driver.call("GET", "/status", None)["value"]["ready"] != true {
            assert!(Instant::now() < deadline, "chromedriver never got ready");
            std::thread::sleep(Duration::from_millis(200));
        }
        driver
    }

    /// One `WebDriver` command; the answer's JSON (an error answer too, so the caller's
    /// assertion shows it).
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let mut curl = Command::new("curl");
        curl.args(["-s", "--max-time", "60", "-X", method])
            .arg(format!("{}{path}", self.base));
        if let Some(body) = body {
            curl.args(["-H", "Content-Type: application/json", "--data-raw"])
                .arg(body.to_string());
        }
        let out = curl.output().expect("curl runs");
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser session of `driver`, ended on drop.
struct Browser<'a> {
    driver: &'a Driver,
    session: String,
}

impl<'a> Browser<'a> {
    fn open(driver: &'a Driver, profile: &Path) -> Browser<'a> {
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            // The machine's network is closed: no background fetches to wait for.
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,720",
            "--hide-scrollbars",
        ]
        .map(str::to_owned)
        .into_iter()
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let answer = driver.call(
            "POST",
            "/session",
            Some(&json!({ "capabilities": { "alwaysMatch": {
                "browserName": "chrome",
                // The host's certificate is its own; the trainee client pins it, a browser
                // can only be told to accept it.
                "acceptInsecureCerts": true,
                "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
            }}})),
        );
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("a browser session: {answer}"))
            .to_owned();
        let browser = Browser { driver, session };
        // A beamer's 1280x720 as the page's viewport, whatever the headless window's frame
        // takes (Chrome DevTools Protocol, Emulation.setDeviceMetricsOverride).
        browser.call(
            "POST",
            "/goog/cdp/execute",
            Some(&json!({
                "cmd": "Emulation.setDeviceMetricsOverride",
                "params": { "width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": false },
            })),
        );
        browser
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let answer = self
            .driver
            .call(method, &format!("/session/{}{path}", self.session), body);
        assert!(
            answer["value"].get("error").is_none(),
            "{method} {path}: {answer}"
        );
        answer["value"].clone()
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(&json!({ "url": url })));
    }

    fn element(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            Some(&json!({ "using": "css selector", "value": css })),
        );
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("element {css}: {found}"))
            .to_owned()
    }

    fn text_of_page(&self) -> String {
        self.call("GET", "/source", None)
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    fn screenshot(&self, to: &Path) -> (u32, u32) {
        let data = self.call("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap_or_default())
            .expect("a base64 PNG");
        std::fs::write(to, &png).expect("screenshot written");
        let image = image::load_from_memory(&png).expect("a PNG");
        (image.width(), image.height())
    }
}

impl Drop for Browser<'_> {
    fn drop(&mut self) {
        self.driver
            .call("DELETE", &format!("/session/{}", self.session), None);
    }
}

/// Three trainees answer the decisions, one is stuck, the instructor reveals them all (the
/// last after a second vote).
fn fill_the_room(dir: &Path, host: &Host) {
    for (i, answer) in ["1", "2", "1"].iter().enumerate() {
        let data = dir.join(format!("t{i}"));
        let out = run(
            &data,
            &["join", &host.url, "--name", &format!("Trainee <{i}>")],
            "",
        );
        assert!(out.status.success(), "{out:?}");
        let out = run(
            &data,
            &["decide", "--plain"],
            &format!("{answer}\n").repeat(4),
        );
        assert!(out.status.success(), "{out:?}");
    }
    let out = run(&dir.join("t1"), &["stuck"], "");
    assert!(out.status.success(), "{out:?}");
    let pace = |what: &str, k: &str| {
        let out = run(
            &dir.join("t0"),
            &[
                "host", "pace", "--url", &host.url, "--key", &host.key, what, k,
            ],
            "",
        );
        assert!(out.status.success(), "{out:?}");
    };
    for k in ["1", "2", "3"] {
        pace("reveal", k);
    }
    // Decision 4 goes through peer instruction's second round: after the discussion two
    // trainees answer again, then the instructor reveals both rounds.
    pace("second-vote", "4");
    let content =
        queuelab::content::load(&queuelab::content::ContentSource::Embedded).expect("content");
    let d = &content.course(queuelab::content::Lang::En).decisions[3];
    for i in 0..2 {
        let data = dir.join(format!("t{i}"));
        let (mut store, _) =
            queuelab::services::Store::open(&data.join("progress.db")).expect("store");
        store
            .save(&queuelab::domain::Fact::SecondVote {
                decision: d.id.clone(),
                option: d.options[1].id.clone(),
            })
            .expect("saved");
        drop(store);
        let out = run(&data, &["join"], "");
        assert!(out.status.success(), "{out:?}");
    }
    pace("reveal", "4");
}

#[test]
fn projector_page_logs_in_and_renders_the_room_in_headless_chromium() {
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI installs chromium and chromium-driver (.ci/run); they are missing"
        );
        eprintln!("skipped: apt-get install chromium chromium-driver to run the browser test");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let driver = Driver::start();
    let artefacts = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for (lang, title, stuck, others, focus_title) in [
        (
            "de",
            "Beamer: Room 1",
            "Stecken fest (1)",
            "Weitere Entscheidungen",
            "Entscheidung 4",
        ),
        (
            "en",
            "Projector: Room 1",
            "Stuck (1)",
            "Other decisions",
            "Decision 4",
        ),
    ] {
        let room = dir.path().join(lang);
        let host = Host::start_in(lang, &room.join("host"), free_port(), &[]);
        fill_the_room(&room, &host);
        let authority = host.url.split('/').nth(2).expect("authority").to_owned();
        let browser = Browser::open(&driver, &room.join("profile"));
        browser.go(&format!("https://{authority}/dashboard"));
        // The login form: the key is typed, never part of an address.
        let field = browser.element("#key");
        browser.call(
            "POST",
            &format!("/element/{field}/value"),
            Some(&json!({ "text": host.key })),
        );
        let button = browser.element("button[type=submit]");
        browser.call(
            "POST",
            &format!("/element/{button}/click"),
            Some(&json!({})),
        );
        let url = browser.call("GET", "/url", None);
        assert_eq!(
            url.as_str(),
            Some(format!("https://{authority}/dashboard").as_str())
        );
        let dom = browser.text_of_page();
        assert!(dom.contains(title), "{lang}: {dom}");
        assert!(dom.contains(&format!("<html lang=\"{lang}\"")), "{dom}");
        assert!(dom.contains(stuck), "{lang}: stuck as a count: {dom}");
        assert!(dom.contains(others), "{lang}: {dom}");
        assert!(!dom.contains("Trainee &lt;1&gt;"), "no stuck names: {dom}");
        // The newest reveal (decision 4) is in focus: its options as bars, the others a line each.
        let focus = &dom[dom.find("id=\"focus\"").expect("a decision in focus")..];
        assert!(focus.contains(focus_title), "{lang}: {focus}");
        assert!(
            focus.contains("id=\"second-vote\"") && focus.contains("class=\"chart paired\""),
            "{lang}: both rounds side by side: {focus}"
        );
        assert!(
            dom.matches("class=\"bar\"").count() >= 3,
            "bars drawn: {dom}"
        );
        assert!(
            dom.contains("class=\"right\""),
            "the right option marked: {dom}"
        );
        assert!(!dom.contains(&host.key), "the key is never on the page");
        // How to join: the code alone (the host advertises itself) and the digits to compare.
        let code = host.short.split(' ').nth(1).expect("HOST:PORT CODE");
        assert!(
            dom.contains(&format!("queuelab join {code}</b>")) && dom.contains(&host.digits),
            "{lang}: the join line: {dom}"
        );
        assert!(
            !dom.contains("<script") && !dom.contains("http://"),
            "self-contained: {dom}"
        );
        let shot = artefacts.join(format!("projector-{lang}-1280x720.png"));
        let (width, height) = browser.screenshot(&shot);
        assert_eq!((width, height), (1280, 720), "{}", shot.display());
        eprintln!("screenshot: {}", shot.display());
    }
}

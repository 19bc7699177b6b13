//! The projector page in a real headless browser: Debian's `chromium`, driven over the `WebDriver`
//! protocol by `chromedriver` (both installed by `.ci/run`), with curl as the `WebDriver` client.
//! The browser logs in through the form as an instructor would and the page renders the room
//! in the session's language at a beamer's 1280x720 and at 1920x1080: while the room votes the
//! options without the right one marked, after the reveal (swapped in by the page's script,
//! without a reload) the distribution adding up to 100 %, and a QR code that zbar reads as the
//! join URL. The screenshots land in the test artefacts
//! (`target/tmp/projector-LANG-WIDTHxHEIGHT-STAGE.png`).
//!
//! Without the programs the test says so and passes on a developer's machine; under CI (`CI`
//! set) their absence fails it.

use crate::support::{Host, free_port, run};
use base64::Engine as _;
use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const ZBARIMG: &str = "/usr/bin/zbarimg";

/// The sizes the page is checked at: a beamer's and a full-HD screen's.
const SIZES: [(u32, u32); 2] = [(1280, 720), (1920, 1080)];

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
            "--window-size=1920,1080",
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
        Browser { driver, session }
    }

    /// `width`x`height` as the page's viewport, whatever the headless window's frame takes
    /// (Chrome `DevTools` Protocol, `Emulation.setDeviceMetricsOverride`).
    fn resize(&self, (width, height): (u32, u32)) {
        self.call(
            "POST",
            "/goog/cdp/execute",
            Some(&json!({
                "cmd": "Emulation.setDeviceMetricsOverride",
                "params": { "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false },
            })),
        );
    }

    /// The value of `expression` evaluated in the page.
    fn eval(&self, expression: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(&json!({ "script": format!("return {expression};"), "args": [] })),
        )
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

/// Three trainees join and answer every decision (the first vote); one says they are stuck.
fn answer_the_room(dir: &Path, host: &Host) {
    for (i, answer) in ["1", "2", "1"].iter().enumerate() {
        let data = dir.join(format!("t{i}"));
        let out = run(
            &data,
            &["join", &host.url, "--name", &format!("Trainee <{i}>")],
            "",
        );
        assert!(out.status.success(), "{out:?}");
        for decision in 1..=4 {
            let out = run(
                &data,
                &["decide", "--plain", &decision.to_string()],
                &format!("{answer}\n"),
            );
            assert!(out.status.success(), "{out:?}");
        }
    }
    let out = run(&dir.join("t1"), &["stuck"], "");
    assert!(out.status.success(), "{out:?}");
}

/// The instructor reveals the decisions, the last after a second vote of two trainees.
fn reveal_all(dir: &Path, host: &Host) {
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
    pace("second-vote", "4");
    for i in 0..2 {
        let out = run(
            &dir.join(format!("t{i}")),
            &["decide", "--plain", "4"],
            "2\n",
        );
        assert!(out.status.success(), "{out:?}");
    }
    pace("reveal", "4");
}

/// The whole percents of each column of the focus decision's chart ("v/t · N %" cells).
fn percent_columns(focus: &str) -> Vec<Vec<u32>> {
    let chart = &focus[focus.find("class=\"chart").expect("a chart")..];
    let chart = &chart[..chart.find("</table>").expect("the chart's end")];
    let mut columns: Vec<Vec<u32>> = Vec::new();
    for row in chart.split("<tr").skip(1) {
        let shares: Vec<u32> = row
            .split(" %")
            .filter_map(|before| before.rsplit("· ").next()?.trim().parse().ok())
            .collect();
        for (i, share) in shares.into_iter().enumerate() {
            if columns.len() <= i {
                columns.push(Vec::new());
            }
            columns[i].push(share);
        }
    }
    columns
}

/// What zbar reads from the QR code in `png`.
fn qr_text(png: &Path) -> String {
    let out = Command::new(ZBARIMG)
        .args(["--raw", "-q", "-Sdisable", "-Sqrcode.enable"])
        .arg(png)
        .output()
        .expect("zbarimg runs");
    assert!(
        out.status.success(),
        "zbar finds no QR code in {}: {out:?}",
        png.display()
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The page's source, once `done` holds for it (the script swaps the live part in about once
/// a second; the deadline is for a loaded machine, not a speed claim).
fn source_once(browser: &Browser<'_>, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_mins(1);
    loop {
        let dom = browser.text_of_page();
        if done(&dom) {
            return dom;
        }
        assert!(Instant::now() < deadline, "the page never changed: {dom}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Logs in through the form as an instructor would: the key is typed, never part of an address.
fn log_in(browser: &Browser<'_>, authority: &str, key: &str) {
    browser.go(&format!("https://{authority}/dashboard"));
    let field = browser.element("#key");
    browser.call(
        "POST",
        &format!("/element/{field}/value"),
        Some(&json!({ "text": key })),
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
}

/// The page while the room votes: its title and language, the stuck as a count, the first
/// decision's options, none marked, no counts, never the key, and the join box.
fn assert_voting_page(dom: &str, lang: &str, labels: [&str; 4], host: &Host) {
    let [title, stuck, others, first_title] = labels;
    assert!(dom.contains(title), "{lang}: {dom}");
    assert!(dom.contains(&format!("<html lang=\"{lang}\"")), "{dom}");
    assert!(dom.contains(stuck), "{lang}: stuck as a count: {dom}");
    assert!(dom.contains(others), "{lang}: {dom}");
    assert!(!dom.contains("Trainee &lt;1&gt;"), "no stuck names: {dom}");
    let focus = &dom[dom.find("id=\"focus\"").expect("a decision in focus")..];
    assert!(focus.contains(first_title), "{lang}: {focus}");
    assert!(
        focus.contains("<ol class=\"options\">") && focus.matches("<li").count() >= 3,
        "{lang}: the options while voting: {focus}"
    );
    assert!(
        !dom.contains("class=\"right\"") && !dom.contains('\u{2713}'),
        "{lang}: {dom}"
    );
    assert!(
        !dom.contains("class=\"bar\""),
        "{lang}: no counts before the reveal"
    );
    assert!(!dom.contains(&host.key), "the key is never on the page");
    let code = host.short.split(' ').nth(1).expect("HOST:PORT CODE");
    assert!(
        dom.contains(&format!("id=\"code\">{code}<"))
            && dom.contains(&format!("queuelab join {code}</b>"))
            && dom.contains(&host.digits),
        "{lang}: the join box: {dom}"
    );
}

/// The page after the reveal: the last decision in focus with both rounds, each summing to
/// 100 %, and nothing loaded from elsewhere.
fn assert_revealed_page(dom: &str, lang: &str, focus_title: &str) {
    let focus = &dom[dom.find("id=\"focus\"").expect("a decision in focus")..];
    assert!(focus.contains(focus_title), "{lang}: {focus}");
    assert!(
        focus.contains("class=\"chart paired\""),
        "{lang}: both rounds: {focus}"
    );
    let columns = percent_columns(focus);
    assert_eq!(columns.len(), 2, "{lang}: two rounds: {focus}");
    for column in &columns {
        assert_eq!(
            column.iter().sum::<u32>(),
            100,
            "{lang}: {columns:?} in {focus}"
        );
    }
    assert!(
        !dom.contains("<script>") && !dom.contains("http://"),
        "self-contained: {dom}"
    );
}

#[test]
fn projector_page_in_headless_chromium_shows_the_options_while_voting_the_reveal_live_and_a_readable_qr_code()
 {
    let programs = [CHROMIUM, CHROMEDRIVER, ZBARIMG];
    if programs.iter().any(|p| !Path::new(p).exists()) {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI installs chromium, chromium-driver and zbar-tools (.ci/run); one is missing"
        );
        eprintln!(
            "skipped: apt-get install chromium chromium-driver zbar-tools to run the browser test"
        );
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let driver = Driver::start();
    let artefacts = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for (lang, title, stuck, others, first_title, focus_title) in [
        (
            "de",
            "Beamer: Room 1",
            "Stecken fest (1)",
            "Weitere Entscheidungen",
            "Entscheidung 1",
            "Entscheidung 4",
        ),
        (
            "en",
            "Projector: Room 1",
            "Stuck (1)",
            "Other decisions",
            "Decision 1",
            "Decision 4",
        ),
    ] {
        let room = dir.path().join(lang);
        let host = Host::start_in(lang, &room.join("host"), free_port(), &[]);
        answer_the_room(&room, &host);
        let authority = host.url.split('/').nth(2).expect("authority").to_owned();
        let browser = Browser::open(&driver, &room.join("profile"));
        log_in(&browser, &authority, &host.key);
        let shot = |size: (u32, u32), stage: &str| {
            browser.resize(size);
            let path = artefacts.join(format!(
                "projector-{lang}-{}x{}-{stage}.png",
                size.0, size.1
            ));
            assert_eq!(browser.screenshot(&path), size, "{}", path.display());
            eprintln!("screenshot: {}", path.display());
            path
        };

        // While the room votes: the first decision's options, none marked, no counts.
        let dom = browser.text_of_page();
        assert_voting_page(&dom, lang, [title, stuck, others, first_title], &host);
        for size in SIZES {
            let path = shot(size, "voting");
            assert_eq!(qr_text(&path), host.url, "{}", path.display());
        }

        // The reveal reaches the open page through its script: the page is the same document
        // (a reload would drop the mark set here), and the right option is marked.
        browser.eval("window.notReloaded = true");
        reveal_all(&room, &host);
        let dom = source_once(&browser, |dom| {
            dom.contains("id=\"second-vote\"") && dom.contains("class=\"right\"")
        });
        assert_eq!(
            browser.eval("window.notReloaded === true"),
            Value::Bool(true)
        );
        assert_revealed_page(&dom, lang, focus_title);
        for size in SIZES {
            let path = shot(size, "revealed");
            assert_eq!(qr_text(&path), host.url, "{}", path.display());
        }
    }
}

//! A trainee's client that sends terminal escapes, C1 controls, bidirectional overrides and
//! zero-width characters in every field it fills: the name is refused, the stuck text and the
//! screen are made safe at the host's door, and none of it reaches the dashboard, `host status`,
//! the export files or the projector page, in this session or after a restart on rows an older
//! version stored raw.

use crate::support::{Host, command, free_port, run};
use queuelab::app::dashboard::{Access, DashMsg, Dashboard};
use queuelab::app::input::Key;
use queuelab::content::{ContentSource, Lang};
use queuelab::domain::workshop::wire::EventBatch;
use queuelab::domain::workshop::{Event, EventKind, JoinUrl, SummaryView};
use queuelab::services::host::login::PROJECTOR_PATH;
use queuelab::services::trainee::client;
use queuelab::ui::dashboard::draw;
use queuelab::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::Path;
use std::sync::Arc;

/// One of each class: C0 (ESC with an OSC title and a clear screen, BEL, NUL, CR), DEL, C1
/// (CSI), bidirectional override and isolate, zero-width space and joiner, byte-order mark.
const HOSTILE: [(&str, char); 11] = [
    ("ESC", '\u{1b}'),
    ("BEL", '\u{7}'),
    ("NUL", '\u{0}'),
    ("CR", '\r'),
    ("DEL", '\u{7f}'),
    ("C1 CSI", '\u{9b}'),
    ("RIGHT-TO-LEFT OVERRIDE", '\u{202e}'),
    ("LEFT-TO-RIGHT ISOLATE", '\u{2066}'),
    ("ZERO WIDTH SPACE", '\u{200b}'),
    ("ZERO WIDTH JOINER", '\u{200d}'),
    ("BYTE ORDER MARK", '\u{feff}'),
];

fn hostile_text(c: char) -> String {
    format!("\u{1b}]0;PWNED\u{7}\u{1b}[2J help{c}me")
}

fn stuck(n: u64, screen: String, text: String) -> Event {
    Event {
        id: format!("evt-{n}"),
        n,
        at_ms: 1_700_000_000_000,
        kind: EventKind::Stuck { screen, text },
    }
}

fn post(url: &JoinUrl, trainee: &str, name: &str, events: Vec<Event>) -> client::Reply {
    let batch = EventBatch {
        code: url.code.clone(),
        trainee: trainee.to_owned(),
        token: format!("token-of-{trainee}"),
        name: name.to_owned(),
        events,
    };
    let body = serde_json::to_vec(&batch).expect("json");
    client::send(
        url,
        "POST",
        "/api/events",
        None,
        &body,
        client::deadline_in(10_000),
    )
    .expect("the host answers")
}

/// Which hostile characters `output` holds, by name.
fn found_in(output: &str) -> Vec<&'static str> {
    HOSTILE
        .iter()
        .filter(|(_, c)| output.contains(*c))
        .map(|(name, _)| *name)
        .collect()
}

/// Every section of the instructor's dashboard, drawn from the host's summary.
fn dashboard_text(summary: SummaryView) -> String {
    let content = Arc::new(queuelab::content::load(&ContentSource::Embedded).expect("content"));
    let access = Access {
        join_url: String::new(),
        projector_url: String::new(),
        key: String::new(),
        discovery: None,
        check_digits: String::new(),
    };
    let mut dash = Dashboard::new(content, Lang::En, access, false);
    dash.update(DashMsg::Resized {
        width: 120,
        height: 40,
    });
    dash.update(DashMsg::Refreshed {
        summary: Box::new(summary),
        now_ms: 1_700_000_060_000,
    });
    let mut all = String::new();
    for section in ['1', '2', '3'] {
        dash.update(DashMsg::Key(Key::char(section)));
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
        terminal
            .draw(|frame| draw(frame, &dash, &Theme::new(false)))
            .expect("draws");
        let buffer = terminal.backend().buffer();
        for cell in buffer.content() {
            all.push_str(cell.symbol());
        }
    }
    all
}

/// Every output a trainee's strings reach while the host runs: `host status` as text and as
/// JSON, the projector page, the dashboard.
fn live_outputs(host: &Host, url: &JoinUrl, dir: &Path) -> Vec<(&'static str, String)> {
    let status = run(
        dir,
        &["host", "status", "--url", &host.url, "--key", &host.key],
        "",
    );
    assert!(status.status.success(), "{status:?}");
    let json = run(
        dir,
        &[
            "host", "status", "--url", &host.url, "--key", &host.key, "--json",
        ],
        "",
    );
    let deadline = client::deadline_in(10_000);
    let projector = client::send(url, "GET", PROJECTOR_PATH, Some(&host.key), b"", deadline)
        .expect("projector page");
    assert_eq!(projector.status, 200, "{}", projector.text());
    let summary =
        client::send(url, "GET", "/api/summary", Some(&host.key), b"", deadline).expect("summary");
    let view: SummaryView = serde_json::from_slice(&summary.body).expect("summary json");
    vec![
        (
            "host status",
            String::from_utf8_lossy(&status.stdout).into_owned(),
        ),
        (
            "host status --json",
            String::from_utf8_lossy(&json.stdout).into_owned(),
        ),
        ("projector", projector.text()),
        ("dashboard", dashboard_text(view)),
    ]
}

/// The export files of the stopped session.
fn export_outputs(data: &Path, out: &Path) -> Vec<(&'static str, String)> {
    let done = command(
        data,
        &["host", "export", "--out", out.to_str().expect("utf8")],
    )
    .output()
    .expect("export runs");
    assert!(done.status.success(), "{done:?}");
    ["summary.csv", "summary.html", "summary.json"]
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(out.join(file)).expect("export file");
            (file, text)
        })
        .collect()
}

/// No hostile character in any output; each one that names trainees (the projector shows a
/// count only) shows `must_show`.
fn assert_clean(outputs: &[(&str, String)], must_show: &str) {
    for (output, text) in outputs {
        assert_eq!(found_in(text), Vec::<&str>::new(), "{output}: {text:?}");
        assert!(
            *output == "projector" || text.contains(must_show),
            "{output} shows the stuck trainee: {text:?}"
        );
    }
}

#[test]
fn every_control_class_in_every_field_is_refused_or_cleaned_before_any_output() {
    let _serial = super::one_attack_at_a_time();
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("host");
    let port = free_port();
    let host = Host::start(&data, port, &[]);
    let url = JoinUrl::parse(&host.url).expect("url");

    for (i, (class, c)) in HOSTILE.iter().enumerate() {
        // The name: refused as a whole, with the reason.
        let trainee = format!("{:032x}", 0xA000 + i);
        let refused = post(&url, &trainee, &format!("Mal{c}lory"), Vec::new());
        assert_eq!(refused.status, 422, "{class} in a name: {}", refused.text());
        // The stuck text and the screen: kept, made safe.
        let trainee = format!("{:032x}", 0xB000 + i);
        let name = format!("Mallory {i}");
        let screen = format!("quiz{}", hostile_text(*c));
        let taken = post(
            &url,
            &trainee,
            &name,
            vec![stuck(1, screen, hostile_text(*c))],
        );
        assert_eq!(taken.status, 200, "{class}: {}", taken.text());
        assert!(
            taken.text().contains("\"stored\":1"),
            "{class}: {}",
            taken.text()
        );
    }
    let outputs = live_outputs(&host, &url, &dir.path().join("instructor"));
    assert_clean(&outputs, "Mallory 10");
    for (output, text) in &outputs {
        assert!(
            !text.contains("quiz\u{1b}"),
            "{output}: the screen is a known kind"
        );
    }
    host.kill();

    // A row an older version stored raw, and a name with a hidden character: cleaned when the
    // continued session reads them.
    {
        let db = rusqlite::Connection::open(data.join("host.db")).expect("db");
        let raw = serde_json::to_string(&stuck(2, "\u{1b}[2Jx".into(), hostile_text('\u{9b}')))
            .expect("json");
        let trainee = format!("{:032x}", 0xB000);
        db.execute(
            "UPDATE event SET body = ?1 WHERE trainee_id = ?2",
            rusqlite::params![raw, trainee],
        )
        .expect("raw row");
        db.execute(
            "UPDATE trainee SET name = ?1 WHERE id = ?2",
            rusqlite::params!["Old\u{202e}name", trainee],
        )
        .expect("raw name");
    }
    let host = Host::start(&data, port, &[]);
    let outputs = live_outputs(&host, &url, &dir.path().join("instructor"));
    assert_clean(&outputs, "Oldname");
    host.kill();
    assert_clean(
        &export_outputs(&data, &dir.path().join("export")),
        "Oldname",
    );
}

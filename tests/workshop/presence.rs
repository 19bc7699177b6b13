//! One rule for presence, in two words: "in the room" (joined, neither left nor removed; a
//! command-line trainee stays in the room between commands) and "active" (the host heard from
//! their client lately). `host status` (JSON and text), the export and the projector count it
//! alike; it survives a host restart; removing one trainee touches no other; `leave` means
//! gone and joining again means back.

use crate::support::{Host, command, free_port, run};
use std::path::Path;

/// (in the room, active) as `host status` prints them, and the JSON.
fn status(host: &Host, dir: &Path) -> (String, serde_json::Value) {
    let out = run(
        dir,
        &["host", "status", "--url", &host.url, "--key", &host.key],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        host.status(dir),
    )
}

/// Whether the trainee called `name` left, by the JSON.
fn left(view: &serde_json::Value, name: &str) -> bool {
    view["trainees"]
        .as_array()
        .expect("trainees")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {view}"))["left"]
        == true
}

fn join(data: &Path, url: &str, name: &str) {
    let out = run(data, &["join", url, "--name", name], "");
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn in_the_room_and_active_agree_everywhere_and_survive_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host_dir = dir.path().join("host");
    let port = free_port();
    let host = Host::start(&host_dir, port, &[]);
    let [ada, bob, cleo] = ["ada", "bob", "cleo"].map(|n| dir.path().join(n));
    for (data, name) in [(&ada, "Ada"), (&bob, "Bob"), (&cleo, "Cleo")] {
        join(data, &host.url, name);
    }
    let (text, view) = status(&host, dir.path());
    assert!(
        text.contains("trainees: 3 (3 in the room · 3 active)"),
        "{text}"
    );
    assert!(!left(&view, "Ada"), "{view}");
    assert!(
        text.lines().filter(|l| l.contains("  active  ")).count() == 3,
        "each row says active: {text}"
    );

    // Ada leaves: gone from the room, her row stays (her answers count), marked left.
    let out = run(&ada, &["leave"], "");
    assert!(out.status.success(), "{out:?}");
    let (text, view) = status(&host, dir.path());
    assert!(left(&view, "Ada"), "{view}");
    assert!(
        text.contains("trainees: 3 (2 in the room · 2 active)"),
        "{text}"
    );
    let ada_line = text.lines().find(|l| l.contains("Ada")).expect("Ada's row");
    assert!(ada_line.contains("  left  "), "{text}");

    // Removing Cleo touches nobody else.
    let out = command(dir.path(), &["host", "kick", "--url", &host.url, "cleo"])
        .env("QUEUELAB_INSTRUCTOR_KEY", &host.key)
        .output()
        .expect("kick runs");
    assert!(out.status.success(), "{out:?}");
    let (text, _) = status(&host, dir.path());
    assert!(
        text.contains("trainees: 2 (1 in the room · 1 active)"),
        "{text}"
    );

    // A restart keeps who is in the room and who was active.
    host.kill();
    let host = Host::start(&host_dir, port, &[]);
    let (text, view) = status(&host, dir.path());
    assert!(
        text.contains("trainees: 2 (1 in the room · 1 active)"),
        "{text}"
    );
    assert!(left(&view, "Ada") && !left(&view, "Bob"), "{view}");

    // Ada joins again: back in the room, one row.
    join(&ada, &host.url, "Ada");
    let (text, view) = status(&host, dir.path());
    assert!(
        text.contains("trainees: 2 (2 in the room · 2 active)"),
        "{text}"
    );
    assert!(!left(&view, "Ada"), "{view}");

    // The export says the same words.
    host.kill();
    let out_dir = dir.path().join("export");
    let out = run(
        &host_dir,
        &["host", "export", "--out", out_dir.to_str().expect("utf8")],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let csv = std::fs::read_to_string(out_dir.join("summary.csv")).expect("csv");
    let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
    let column = header
        .iter()
        .position(|h| *h == "presence")
        .expect("a presence column");
    for line in csv.lines().skip(1) {
        let cell = line.split(',').nth(column).expect("the presence cell");
        assert!(
            ["active", "in-the-room"].contains(&cell),
            "both in the room: {csv}"
        );
    }
    let html = std::fs::read_to_string(out_dir.join("summary.html")).expect("html");
    assert!(html.contains("<th>Presence</th>"), "{html}");
}

#[test]
fn a_trainee_is_told_the_name_the_room_shows_and_a_rejoin_renames_the_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Host::start(&dir.path().join("host"), free_port(), &[]);
    let (first, second) = (dir.path().join("ada1"), dir.path().join("ada2"));
    join(&first, &host.url, "Ada");
    let out = run(&second, &["join", &host.url, "--name", "Ada"], "");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("as Ada (2)."), "{said}");
    let out = run(&second, &["join"], "");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Ada (2)"),
        "the status names the room's name too"
    );
    // The second Ada leaves and comes back under her full name: one row, renamed.
    assert!(run(&second, &["leave"], "").status.success());
    let out = run(&second, &["join", &host.url, "--name", "Ada Lovelace"], "");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("as Ada Lovelace."),
        "{out:?}"
    );
    let view = host.status(dir.path());
    let names: Vec<&str> = view["trainees"]
        .as_array()
        .expect("trainees")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["Ada", "Ada Lovelace"], "{view}");
    // The first Ada renames herself without leaving.
    join(&first, &host.url, "Ada Byron");
    let view = host.status(dir.path());
    assert_eq!(view["trainees"][0]["name"], "Ada Byron", "{view}");
    assert_eq!(view["trainees"].as_array().map(Vec::len), Some(2), "{view}");
}

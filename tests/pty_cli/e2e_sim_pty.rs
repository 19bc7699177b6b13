//! The real binary in a pseudo-terminal: the ordering game's result survives a restart; a
//! simulator run is started, paused, stepped back, broken by a fault, and left cleanly. An
//! ignored test measures CPU time while the simulator is paused (no wake-ups) and playing.

use crate::support::pty;

use pty::Session;
use queuelab::app::OrderingState;
use std::time::Duration;

const LEFT: &str = "\x1b[D";

#[test]
fn the_solved_ordering_game_survives_a_restart() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
    s.wait_for("Ordering game: not solved yet");
    s.send("4");
    s.wait_for("Progress 0/7");
    // The first deal of a fresh learner is seeded by (attempts 0, round 0).
    let deal = OrderingState::new(7, 0, 0);
    let deck = deal.game.deck();
    for step in 0..7 {
        let pos = deck.iter().position(|d| *d == step).expect("dealt");
        s.send(&(pos + 1).to_string());
    }
    s.wait_for("Progress 7/7");
    s.wait_for("attempts 1, mistakes in this deal 0");
    s.send("q");
    s.wait_for("Ordering game: solved");
    s.send("q");
    assert!(s.wait_exit(), "clean exit");

    let mut s = Session::start(data.path(), &["--lang", "en"], 80, 24);
    s.wait_for("Ordering game: solved");
    s.send("4");
    s.wait_for("attempts 1, mistakes in this deal 0");
    s.send("\x03");
    assert!(s.wait_exit());
}

fn open_twin_consumers(s: &mut Session) {
    s.wait_for("Incident simulator");
    s.send("5");
    s.wait_for("Run files (sqlite3)");
    s.send("c");
    s.wait_for("Choose a scenario");
    for _ in 0..5 {
        s.send("j");
    }
    s.send("\r");
    s.wait_for("Twin consumers · safe");
}

#[test]
fn start_pause_step_back_inject_and_quit_cleanly() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 100, 30);
    open_twin_consumers(&mut s);
    s.send("++++");
    // Pause at moments off: this test drives play and pause itself.
    s.send("p");
    s.send(" ");
    s.wait_for("playing");
    s.wait_for("event ");
    s.send(".");
    s.wait_for("paused");
    s.send(LEFT);
    s.wait_for("history");
    s.send("i");
    s.wait_for("Inject a fault");
    s.send("j\r");
    s.wait_for("Fault Broker down (10 s) armed");
    s.send("l");
    s.send("l");
    s.wait_for("DOWN");
    s.send("q");
    s.wait_for(&scenarios_run_one());
    s.send("q");
    assert!(s.wait_exit(), "clean exit");
    let raw = String::from_utf8_lossy(&s.raw()).into_owned();
    assert!(
        raw.ends_with("\x1b[?1049l\x1b[?25h") || raw.contains("\x1b[?1049l"),
        "left the alternate screen"
    );
    let runs = std::fs::read_dir(data.path().join("sim-runs"))
        .expect("run directory")
        .count();
    assert_eq!(
        runs, 1,
        "the last run stays for sqlite3; replaced runs were removed"
    );
}

/// Jiffies of user + system time of a process (Linux `/proc/PID/stat` fields 14 and 15).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("proc stat");
    let after = stat
        .rsplit_once(") ")
        .map(|(_, rest)| rest)
        .expect("stat format");
    let fields: Vec<&str> = after.split_whitespace().collect();
    fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime")
}

#[test]
#[ignore = "measurement: run with --ignored --nocapture"]
fn cpu_while_paused_and_while_playing() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = Session::start(data.path(), &["--lang", "en"], 200, 60);
    open_twin_consumers(&mut s);
    s.send("l");
    s.wait_for("event 1");
    std::thread::sleep(Duration::from_secs(1));
    let before = cpu_ticks(s.pid());
    std::thread::sleep(Duration::from_secs(10));
    let paused = cpu_ticks(s.pid()) - before;
    s.send(" ");
    s.wait_for("playing");
    let before = cpu_ticks(s.pid());
    std::thread::sleep(Duration::from_secs(10));
    let playing = cpu_ticks(s.pid()) - before;
    // 100 ticks per second on Linux: ticks / 10 s / 100 = share of one core.
    println!(
        "paused: {paused} ticks in 10 s ({:.2}% of a core); playing at 30 frames/s: {playing} ticks ({:.2}% of a core)",
        paused as f64 / 10.0,
        playing as f64 / 10.0
    );
    s.send("\x03");
    assert!(s.wait_exit());
    assert!(paused <= 2, "paused must not wake up: {paused} ticks");
}

/// Home's simulator line after one scenario was run, out of every scenario the content has.
fn scenarios_run_one() -> String {
    let content =
        queuelab::content::load(&queuelab::content::ContentSource::Embedded).expect("content");
    format!("Simulator scenarios run: 1/{}", content.scenarios.len())
}

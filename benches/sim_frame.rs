//! Simulator screen budget (animation <= 5% of one core at 30 frames/s; no wake-ups while idle).
//! Prints:
//! - the mean render time of one simulator frame at 200x60 (mid-run, playing, all tabs), with
//!   the floor of a minimal one-paragraph ratatui frame measured in the same run, and the share
//!   of one core that 30 such frames per second cost;
//! - CPU time of the real binary in a pseudo-terminal over 10 s paused and 10 s playing, read
//!   from `/proc/PID/stat` (`QUEUELAB_BENCH_SKIP_PTY=1` skips this part).

#[path = "../tests/screens/support/sim_harness.rs"]
#[allow(dead_code)] // the screen tests' harness: the benchmark drives a part of it
mod harness;
#[path = "../tests/pty_cli/support/pty.rs"]
#[allow(dead_code)]
mod pty;

use harness::Harness;
use queuelab::app::{Options, Screen};
use queuelab::content::Lang;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::widgets::Paragraph;
use std::hint::black_box;
use std::time::{Duration, Instant};

const FRAMES: u32 = 300;
const SIZE: (u16, u16) = (200, 60);

fn mean_frame<F: FnMut(&mut ratatui::Frame<'_>)>(mut draw: F) -> Duration {
    let mut terminal = Terminal::new(TestBackend::new(SIZE.0, SIZE.1)).expect("terminal");
    for _ in 0..20 {
        terminal.draw(&mut draw).expect("warm-up");
    }
    let start = Instant::now();
    for _ in 0..FRAMES {
        black_box(terminal.draw(&mut draw).expect("draw"));
    }
    start.elapsed() / FRAMES
}

fn main() {
    let mut h = Harness::new(Lang::En, SIZE.0, SIZE.1, Options::default());
    h.keys("5c");
    h.repeat('j', 5);
    h.keys("\n");
    h.repeat('>', 40);
    h.keys(" ");
    assert!(matches!(h.app.screen, Screen::Simulator(_)));
    let floor = mean_frame(|f| f.render_widget(Paragraph::new("queuelab"), f.area()));
    println!(
        "floor (one paragraph, {}x{}): {:?}/frame",
        SIZE.0, SIZE.1, floor
    );
    for tab in ["log", "tables", "metrics", "dlq"] {
        let app = &h.app;
        let frame = mean_frame(|f| queuelab::ui::draw(f, app));
        let core = frame.as_secs_f64() * 30.0 * 100.0;
        println!(
            "simulator frame, {tab} tab: {frame:?}/frame = {:.1}x floor; 30 frames/s = {core:.2}% of one core (budget 5%)",
            frame.as_secs_f64() / floor.as_secs_f64().max(1e-9)
        );
        h.keys("\t");
    }
    if std::env::var_os("QUEUELAB_BENCH_SKIP_PTY").is_none() {
        process_cpu();
    }
}

fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("proc stat");
    let after = stat
        .rsplit_once(") ")
        .map(|(_, rest)| rest)
        .expect("stat format");
    let f: Vec<&str> = after.split_whitespace().collect();
    f[11].parse::<u64>().expect("utime") + f[12].parse::<u64>().expect("stime")
}

fn process_cpu() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut s = pty::Session::start(data.path(), &["--lang", "en"], SIZE.0, SIZE.1);
    s.wait_for("Incident simulator");
    s.send("5");
    s.wait_for("Run files (sqlite3)");
    s.send("l");
    s.wait_for("event 1");
    std::thread::sleep(Duration::from_secs(1));
    let measure = |s: &pty::Session| {
        let before = cpu_ticks(s.pid());
        std::thread::sleep(Duration::from_secs(10));
        cpu_ticks(s.pid()) - before
    };
    let paused = measure(&s);
    s.send(" ");
    s.wait_for("playing");
    let playing = measure(&s);
    // Linux counts 100 ticks per second per core, so ticks over 10 s / 10 = % of one core.
    println!(
        "real binary in a pty at {}x{}: paused 10 s = {paused} ticks ({:.1}% of a core); playing 10 s at 30 frames/s = {playing} ticks ({:.1}% of a core)",
        SIZE.0,
        SIZE.1,
        paused as f64 / 10.0,
        playing as f64 / 10.0
    );
    s.send("\x03");
    let _ = s.wait_exit();
}

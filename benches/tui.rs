//! Measures the TUI against its bars, each against a floor measured in the same run, and prints the
//! figures (`cargo bench --bench tui`):
//! - start-up: process start to the first complete frame, vs a minimal ratatui program;
//! - idle: CPU time and context switches (wake-ups) over 10 s on Home and in the reader;
//! - memory: peak resident set (`VmHWM`) after a scripted session.
//!
//! With `QUEUELAB_BENCH_AGAINST=PATH` (a queuelab binary built from another revision, e.g. by
//! `cargo build --release` in a clone of it), the start-up figures also sample that program in
//! the same turns and print both against each other: two builds compared in one run, which a
//! busy phase moves alike.
//!
//! Linux only (reads /proc). Not part of `cargo test`.

#[path = "../tests/pty_cli/support/pty.rs"]
#[allow(dead_code)]
mod pty;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Samples per start-up figure (each program): medians of fewer moved by ±0.1 ms between runs.
const RUNS: usize = 101;

/// `target/release`, where cargo put this benchmark and the programs it times.
fn release_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("bench path");
    // target/release/deps/tui-HASH -> target/release/
    exe.parent()
        .and_then(Path::parent)
        .expect("target dir")
        .to_owned()
}

fn binary(name: &str) -> PathBuf {
    release_dir().join(name)
}

/// Builds the floor, then queuelab on its own: built together with an example, queuelab would
/// get the features the dev-dependencies switch on (a second TLS back end among them) and be
/// a different binary from the one `cargo run --release` and `cargo install` give a learner.
///
/// Both are timed from copies in `dir`. A file the linker has just written sits in the page
/// cache as it wrote it (in small pieces, through a memory map), and every start of a large
/// program then pays more for its page faults: about 0.3 ms for queuelab, against the same
/// file read from disk or copied as `cargo install` does. Copying both programs times them
/// as they start on any later day, and on the same footing.
fn build_programs(dir: &Path) -> (PathBuf, PathBuf) {
    for target in [["--example", "minimal_frame"], ["--bin", "queuelab"]] {
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release"])
            .args(target)
            .status()
            .expect("cargo runs");
        assert!(status.success());
    }
    let copy = |built: PathBuf| {
        let to = dir.join(built.file_name().expect("a file name"));
        std::fs::copy(&built, &to).expect("copy the program");
        to
    };
    (
        copy(binary("examples/minimal_frame")),
        copy(binary("queuelab")),
    )
}

/// How a program is started for one sample, given its data folder.
type Start<'a> = &'a dyn Fn(&Path) -> pty::Session;

/// One sample: time from spawn until `marker` is on the pty screen.
fn sample(start_program: Start, data: &Path, marker: &str) -> Duration {
    let start = Instant::now();
    let session = start_program(data);
    session.wait_for_polling(marker, Duration::from_millis(5));
    start.elapsed()
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Medians of start-up, sampled in turns (floor, queuelab, the other queuelab if any, floor,
/// ...) so that a machine getting busier or quieter moves all alike: queuelab's, the floor's
/// and the other's. `warm` reuses one data folder per queuelab (a returning learner);
/// otherwise every sample starts with a new one (first start).
fn start_up(
    queuelab: Start,
    floor: Start,
    other: Option<Start>,
    warm: bool,
) -> (Duration, Duration, Option<Duration>) {
    let (shared, shared_other) = (tempdir(), tempdir());
    let (mut ours, mut base, mut theirs) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let (fresh, fresh_other) = (tempdir(), tempdir());
        let (data, data_other) = if warm {
            (&shared, &shared_other)
        } else {
            (&fresh, &fresh_other)
        };
        base.push(sample(floor, tempdir().path(), "minimal frame ready"));
        ours.push(sample(queuelab, data.path(), "Start with chapter 1"));
        if let Some(other) = other {
            theirs.push(sample(other, data_other.path(), "Start with chapter 1"));
        }
    }
    let theirs = (!theirs.is_empty()).then(|| median(theirs));
    (median(ours), median(base), theirs)
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// The program named by `QUEUELAB_BENCH_AGAINST`, copied beside the others (see
/// `build_programs`), or `None` when the variable is not set.
fn other_program(dir: &Path) -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os("QUEUELAB_BENCH_AGAINST")?);
    let to = dir.join("queuelab-against");
    if let Err(e) = std::fs::copy(&path, &to) {
        panic!(
            "QUEUELAB_BENCH_AGAINST={}: cannot copy it: {e}",
            path.display()
        );
    }
    Some(to)
}

fn proc_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    // After the ")" : state is field 0; utime and stime are fields 11 and 12.
    fields
        .get(11)
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0)
        + fields
            .get(12)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
}

fn context_switches(pid: u32) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .map(|task| {
            let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
            status
                .lines()
                .filter(|l| {
                    l.starts_with("voluntary_ctxt_switches")
                        || l.starts_with("nonvoluntary_ctxt_switches")
                })
                .filter_map(|l| l.split_whitespace().last()?.parse::<u64>().ok())
                .sum::<u64>()
        })
        .sum()
}

fn vm_hwm_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

fn idle(program: &Path, keys: &str, wait: &str, label: &str) {
    let data = tempdir();
    let mut s = pty::Session::start_program(program, data.path(), &["--lang", "en"], 100, 30);
    s.wait_for("Start with chapter 1");
    if !keys.is_empty() {
        s.send(keys);
    }
    s.wait_for(wait);
    std::thread::sleep(Duration::from_secs(1));
    let pid = s.pid();
    let (cpu0, cs0) = (proc_ticks(pid), context_switches(pid));
    std::thread::sleep(Duration::from_secs(10));
    let (cpu1, cs1) = (proc_ticks(pid), context_switches(pid));
    let ticks_per_sec = 100.0; // USER_HZ on Linux
    let cpu_ms = (cpu1 - cpu0) as f64 / ticks_per_sec * 1000.0;
    println!(
        "idle {label:<8} 10 s: cpu {cpu_ms:.0} ms ({:.2}% of a core), wake-ups (context switches) {}  [bar: no periodic wake-ups]",
        cpu_ms / 100.0,
        cs1 - cs0
    );
    s.send("\x03");
}

fn main() {
    // Beside the build, not in /tmp: that may be a memory file system, or mounted noexec.
    let programs = tempfile::tempdir_in(release_dir()).expect("tempdir");
    let (floor, queuelab) = build_programs(programs.path());
    let against = other_program(programs.path());
    let minimal = |data: &Path| pty::Session::start_program(&floor, data, &[], 80, 24);
    let with_flags = |program: &Path| {
        let program = program.to_owned();
        move |data: &Path| pty::Session::start_program(&program, data, &["--lang", "en"], 80, 24)
    };
    let no_arguments = |program: &Path| {
        let program = program.to_owned();
        move |home: &Path| pty::Session::start_bare(&program, home, 80, 24)
    };
    let (ours_flags, ours_bare) = (with_flags(&queuelab), no_arguments(&queuelab));
    let theirs = against.as_deref().map(|p| (with_flags(p), no_arguments(p)));
    let starts: [(&str, Start, Option<Start>); 2] = [
        (
            "queuelab --data-dir DIR --lang en",
            &ours_flags,
            theirs.as_ref().map(|t| &t.0 as Start),
        ),
        (
            "queuelab",
            &ours_bare,
            theirs.as_ref().map(|t| &t.1 as Start),
        ),
    ];
    for (command, start, other) in starts {
        for (label, warm) in [("first start", false), ("later start", true)] {
            let (ours, base, theirs) = start_up(start, &minimal, other, warm);
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            println!(
                "start-up to first frame, `{command}`, {label} (medians of {RUNS}): {:.2} ms, minimal ratatui {:.2} ms, ratio {:.2}  [bar: <= 1.30]",
                ms(ours),
                ms(base),
                ours.as_secs_f64() / base.as_secs_f64()
            );
            if let Some(theirs) = theirs {
                println!(
                    "    the same turns, QUEUELAB_BENCH_AGAINST: {:.2} ms, ratio {:.2}; this build {:+.1}% against it",
                    ms(theirs),
                    theirs.as_secs_f64() / base.as_secs_f64(),
                    (ours.as_secs_f64() / theirs.as_secs_f64() - 1.0) * 100.0
                );
            }
        }
    }

    idle(&queuelab, "", "Start with chapter 1", "home");
    idle(&queuelab, "\r", "Chapter 1 of 16", "reader");

    let data = tempdir();
    let mut s = pty::Session::start_program(&queuelab, data.path(), &["--lang", "en"], 120, 40);
    s.wait_for("Start with chapter 1");
    s.send("2");
    s.wait_for("[new]");
    for _ in 0..16 {
        s.send("\r");
        s.send("G");
        s.send("q");
        s.send("j");
    }
    s.send("q");
    s.send("8");
    s.send("l");
    s.send("q");
    std::thread::sleep(Duration::from_millis(500));
    let peak = vm_hwm_kb(s.pid());
    println!(
        "peak memory of a session reading all 16 chapters: {:.1} MB  [bar: <= 30 MB]",
        peak as f64 / 1024.0
    );
    s.send("\x03");
}

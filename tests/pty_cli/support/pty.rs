//! Runs the real binary in a pseudo-terminal and reads its screen through a terminal emulator.

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long to wait for a screen to appear before the test fails (generous: CI is shared).
pub const WAIT: Duration = Duration::from_secs(30);
/// Longest wait for the program to draw after a key (keys that change nothing draw nothing).
const KEY_ANSWER: Duration = Duration::from_secs(2);
/// Output silence that marks a finished frame.
const QUIET: Duration = Duration::from_millis(30);
/// Longest wait for that silence (an animation never falls silent).
const QUIET_MAX: Duration = Duration::from_millis(300);

/// The environment that makes queuelab wait on its terminal with `select(2)`, as it does on
/// macOS, where `poll(2)` refuses terminals (`src/platform/terminal_wait.rs`). Without it,
/// Linux waits with `poll(2)`. Tests that run under both waits take their names from here.
pub const WAITS: [(&str, &[(&str, &str)]); 2] = [
    ("poll", &[]),
    ("select", &[("QUEUELAB_DEBUG_TERMINAL_WAIT", "select")]),
];
/// The `select(2)` wait alone, for a test that covers the macOS wait while its twin covers
/// `poll(2)`.
pub const SELECT_WAIT: &[(&str, &str)] = WAITS[1].1;

/// A running queuelab in a pseudo-terminal.
pub struct Session {
    parser: Arc<Mutex<vt100::Parser>>,
    /// Everything read so far, and a signal for each new chunk (after the parser has it).
    raw: Arc<(Mutex<Vec<u8>>, Condvar)>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
}

impl Session {
    /// Starts `queuelab ARGS` with its data in `data_dir`.
    pub fn start(data_dir: &Path, args: &[&str], cols: u16, rows: u16) -> Session {
        Session::start_program(
            Path::new(env!("CARGO_BIN_EXE_queuelab")),
            data_dir,
            args,
            cols,
            rows,
        )
    }

    /// Starts `queuelab ARGS` with extra environment variables.
    pub fn start_with_env(
        data_dir: &Path,
        args: &[&str],
        env: &[(&str, &str)],
        cols: u16,
        rows: u16,
    ) -> Session {
        let program = Path::new(env!("CARGO_BIN_EXE_queuelab"));
        Session::spawn(program, Some(data_dir), args, env, (cols, rows))
    }

    /// Starts any program (queuelab or a benchmark floor) the same way.
    pub fn start_program(
        program: &Path,
        data_dir: &Path,
        args: &[&str],
        cols: u16,
        rows: u16,
    ) -> Session {
        Session::spawn(program, Some(data_dir), args, &[], (cols, rows))
    }

    /// Starts `program` without any argument, as a learner types `queuelab`: its data and
    /// config directories are found through `XDG_DATA_HOME` and `XDG_CONFIG_HOME` in `home`.
    pub fn start_bare(program: &Path, home: &Path, cols: u16, rows: u16) -> Session {
        let home = home.to_str().expect("a UTF-8 temporary path");
        // The locale decides the language of a bare start: `LANG` is C (English), and the
        // variables that would outrank it are emptied (queuelab skips empty ones).
        let env = [
            ("XDG_DATA_HOME", home),
            ("XDG_CONFIG_HOME", home),
            ("LC_ALL", ""),
            ("LC_MESSAGES", ""),
        ];
        Session::spawn(program, None, &[], &env, (cols, rows))
    }

    fn spawn(
        program: &Path,
        data_dir: Option<&Path>,
        args: &[&str],
        env: &[(&str, &str)],
        (cols, rows): (u16, u16),
    ) -> Session {
        let pty = native_pty_system();
        let pair = pty
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("openpty");
        let mut cmd = CommandBuilder::new(program);
        if let Some(data_dir) = data_dir {
            cmd.arg("--data-dir");
            cmd.arg(data_dir);
        }
        for arg in args {
            cmd.arg(arg);
        }
        cmd.env("TERM", "xterm-256color");
        cmd.env("LANG", "C.UTF-8");
        cmd.env_remove("NO_COLOR");
        for (key, value) in env {
            cmd.env(key, value);
        }
        let child = pair.slave.spawn_command(cmd).expect("spawn queuelab");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("reader");
        let writer = pair.master.take_writer().expect("writer");
        let size =
            |n: u16| std::num::NonZeroU16::new(n).expect("a pty has at least one row and column");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(size(rows), size(cols), 0)));
        let raw = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
        let (p, r) = (parser.clone(), raw.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut parser) = p.lock() {
                    parser.process(&buf[..n]);
                }
                if let Ok(mut raw) = r.0.lock() {
                    raw.extend_from_slice(&buf[..n]);
                }
                r.1.notify_all();
            }
        });
        Session {
            parser,
            raw,
            writer,
            child,
            master: pair.master,
        }
    }

    /// The screen's text.
    pub fn screen(&self) -> String {
        self.parser
            .lock()
            .map(|p| p.screen().contents())
            .unwrap_or_default()
    }

    /// Whether the emulated terminal shows its alternate screen.
    pub fn in_alternate_screen(&self) -> bool {
        self.parser
            .lock()
            .is_ok_and(|p| p.screen().alternate_screen())
    }

    /// The cursor's (row, column) on the emulated screen.
    pub fn cursor(&self) -> (u16, u16) {
        self.parser
            .lock()
            .map(|p| p.screen().cursor_position())
            .unwrap_or_default()
    }

    /// The pseudo-terminal's line-discipline flags now. Master and slave share one termios, and
    /// the master stays open after the program exits, so this shows the mode it left behind:
    /// cooked mode has ICANON and ECHO set, raw mode has both cleared.
    #[cfg(unix)]
    pub fn local_flags(&self) -> nix::sys::termios::LocalFlags {
        self.master
            .get_termios()
            .expect("a unix pty master reports its termios")
            .local_flags
    }

    /// Everything the program wrote, raw.
    pub fn raw(&self) -> Vec<u8> {
        self.raw.0.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Waits until the screen shows `text`; fails the test with the screen otherwise.
    pub fn wait_for(&self, text: &str) {
        self.wait_for_polling(text, Duration::from_millis(50));
    }

    /// Like [`Session::wait_for`], looking at the screen as each chunk of output arrives and
    /// at least every `interval` (so a benchmark's figure is not rounded to a polling step).
    pub fn wait_for_polling(&self, text: &str, interval: Duration) {
        let start = Instant::now();
        while start.elapsed() < WAIT {
            let seen = self.raw_len();
            if self.screen().contains(text) {
                return;
            }
            self.wait_output_beyond(seen, interval);
        }
        panic!("timed out waiting for {text:?}; screen:\n{}", self.screen());
    }

    /// Types keys at once, without waiting for a frame: as a learner types ahead while the
    /// program is still starting (the terminal keeps them until the program reads).
    pub fn type_ahead(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("write keys");
        self.writer.flush().expect("flush");
    }

    /// Types keys (raw bytes: "\r" is Enter, "\x1b" is Esc) and waits until the program has
    /// answered by drawing, so the next keys arrive as their own event (an Esc directly
    /// followed by a letter would read as Alt+letter).
    pub fn send(&mut self, keys: &str) {
        // Let the frame being written finish first, so the output that follows answers these
        // keys and not an earlier one (bounded: a playing simulator draws all the time).
        let before = self.wait_quiet();
        self.writer.write_all(keys.as_bytes()).expect("write keys");
        self.writer.flush().expect("flush");
        // A key that changes nothing draws nothing (the app redraws only on change), so the
        // wait is bounded; the test's next `wait_for` checks what the key did.
        self.wait_output_beyond(before, KEY_ANSWER);
        self.wait_quiet();
    }

    /// Waits until the output has been silent for [`QUIET`] (a frame is complete), at most
    /// [`QUIET_MAX`].
    fn wait_quiet(&self) -> usize {
        let start = Instant::now();
        let mut seen = self.raw_len();
        let mut quiet_since = Instant::now();
        while start.elapsed() < QUIET_MAX && quiet_since.elapsed() < QUIET {
            std::thread::sleep(Duration::from_millis(5));
            let now = self.raw_len();
            if now != seen {
                seen = now;
                quiet_since = Instant::now();
            }
        }
        seen
    }

    fn raw_len(&self) -> usize {
        self.raw.0.lock().map(|r| r.len()).unwrap_or_default()
    }

    /// Blocks until more than `len` bytes have been read, at most `at_most`.
    fn wait_output_beyond(&self, len: usize, at_most: Duration) {
        let (lock, arrived) = &*self.raw;
        if let Ok(raw) = lock.lock() {
            let _ = arrived.wait_timeout_while(raw, at_most, |raw| raw.len() == len);
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.process_id().expect("pid")
    }

    /// Sends a signal with `kill`.
    pub fn signal(&self, name: &str) {
        let status = std::process::Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.pid().to_string())
            .status()
            .expect("kill runs");
        assert!(status.success());
    }

    /// Waits for the process to end and returns whether it succeeded.
    pub fn wait_exit(&mut self) -> bool {
        let start = Instant::now();
        while start.elapsed() < WAIT {
            if let Ok(Some(status)) = self.child.try_wait() {
                // Let the reader thread drain the last bytes.
                std::thread::sleep(Duration::from_millis(200));
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        panic!("queuelab did not exit; screen:\n{}", self.screen());
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

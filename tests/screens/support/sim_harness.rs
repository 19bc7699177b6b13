//! Drives the App exactly as the runtime does, but synchronously: every `Effect::Sim` goes to a
//! `SimDriver` and its replies come straight back as messages. No terminal, no threads.

use queuelab::app::input::{Key, KeyCode};
use queuelab::app::{App, Effect, Info, Msg, Options, Screen, SimState};
use queuelab::content::{ContentSource, Lang, load};
use queuelab::domain::Progress;
use queuelab::runtime::sim_worker::SimDriver;
use queuelab::sim::scenario::IDS;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;

/// An app plus the engine behind it.
pub struct Harness {
    pub app: App,
    pub driver: SimDriver,
    pub saved: Vec<Effect>,
    pub dir: tempfile::TempDir,
}

impl Harness {
    /// A fresh app at `width`x`height` in `lang`.
    pub fn new(lang: Lang, width: u16, height: u16, options: Options) -> Harness {
        let content = Arc::new(load(&ContentSource::Embedded).expect("valid content"));
        let dir = tempfile::tempdir().expect("tempdir");
        let mut app = App::new(
            content.clone(),
            lang,
            Progress::default(),
            options,
            Info::default(),
        );
        app.update(Msg::Resized { width, height });
        Harness {
            app,
            driver: SimDriver::without_stamp(dir.path(), content),
            saved: Vec::new(),
            dir,
        }
    }

    /// Sends a message and carries out the simulator effects until nothing is left.
    pub fn send(&mut self, msg: Msg) {
        let effects = self.app.update(msg);
        self.carry_out(effects);
    }

    /// Carries out `effects` (from `update` or a call such as `open_for_decision`) and the
    /// simulator replies they cause, until nothing is left.
    pub fn carry_out(&mut self, effects: Vec<Effect>) {
        let mut queue = Vec::new();
        let mut pending = effects;
        loop {
            for effect in pending {
                match effect {
                    Effect::Sim(command) => {
                        for reply in self.driver.handle(command) {
                            queue.insert(0, Msg::Sim(reply));
                        }
                    }
                    other => self.saved.push(other),
                }
            }
            let Some(msg) = queue.pop() else { break };
            pending = self.app.update(msg);
        }
    }

    /// Presses keys ('\n' Enter, '<' Left, '>' Right, '\t' Tab, '\x1b' Esc, '^' Home, '$' End).
    pub fn keys(&mut self, keys: &str) {
        for c in keys.chars() {
            let key = match c {
                '\n' => Key::plain(KeyCode::Enter),
                '\t' => Key::plain(KeyCode::Tab),
                '<' => Key::plain(KeyCode::Left),
                '>' => Key::plain(KeyCode::Right),
                '^' => Key::plain(KeyCode::Home),
                '$' => Key::plain(KeyCode::End),
                '\x1b' => Key::plain(KeyCode::Esc),
                'v' if false => Key::char(c),
                c => Key::char(c),
            };
            self.send(Msg::Key(key));
        }
    }

    /// Presses a key `n` times.
    pub fn repeat(&mut self, key: char, n: usize) {
        for _ in 0..n {
            self.keys(&key.to_string());
        }
    }

    /// The screen as text; the run directory's temporary path is replaced by `<runs>`.
    pub fn screen(&self) -> String {
        let (width, height) = self.app.session.size;
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        terminal
            .draw(|frame| queuelab::ui::draw(frame, &self.app))
            .expect("draws");
        let buffer = terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..height {
            let line: String = (0..width)
                .map(|x| buffer[(x, y)].symbol().to_owned())
                .collect();
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.replace(&self.dir.path().display().to_string(), "<runs>")
    }
}

/// A fresh app at `w`x`h` in `lang` with the simulator open on `scenario`, chosen in the
/// scenario menu as a learner would.
pub fn open(lang: Lang, w: u16, h: u16, scenario: &str, options: Options) -> Harness {
    let mut h = Harness::new(lang, w, h, options);
    h.keys("5");
    let index = IDS.iter().position(|i| *i == scenario).expect("known id");
    h.keys("c");
    for _ in 0..index {
        h.keys("j");
    }
    h.keys("\n");
    assert_eq!(sim(&h).scenario_id(), scenario);
    h
}

/// The simulator's state (the test fails when another screen is on top).
pub fn sim(h: &Harness) -> &SimState {
    match &h.app.screen {
        Screen::Simulator(s) => s,
        other => panic!("not the simulator: {other:?}"),
    }
}

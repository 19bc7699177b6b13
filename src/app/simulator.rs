//! The incident simulator screen's state and controls. The engine runs on its own thread in
//! the runtime: this module only sends [`SimCommand`]s and reads the [`SimReply`]s.

mod picker;
mod playback;
pub mod protocol;
pub mod view;

pub use picker::{Picker, PickerKind, rows as picker_rows};
pub use protocol::{RunSpec, SimCommand, SimReply};

use super::input::{Key, Mouse, MouseKind};
use super::keymap::Action;
use super::{App, Effect, Screen, layout};
use crate::sim::scenario::{IDS, ScenarioText};
use crate::sim::{BrokerKind, DlqEntry, Event, Metrics, Mode, RunReport, Snapshot, Stage};
use std::collections::VecDeque;
use std::sync::OnceLock;

/// Playback speeds in events per second.
pub const SPEEDS: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
/// The speed a run starts with (index into [`SPEEDS`]).
pub const DEFAULT_SPEED: usize = 1;
/// Frame interval while playing, ms (30 frames per second).
pub const FRAME_MS: u32 = 33;
/// Events kept for the event log (the engine keeps more for step back).
pub const LOG_CAP: usize = 1_000;
/// Metric samples kept for the sparklines.
pub const SAMPLE_CAP: usize = 120;
/// Largest DLQ replay batch the triage offers ("a small batch").
pub const MAX_BATCH: u32 = 10;
/// The seed a fresh screen starts with.
pub const DEFAULT_SEED: u64 = 1;

/// The tabs under the flow map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// Events with their SQL and outcome (the transcript).
    Log,
    /// Live table rows.
    Tables,
    /// Runbook signals and sparklines.
    Metrics,
    /// DLQ triage.
    Dlq,
}

impl Tab {
    /// All tabs in order.
    pub const ALL: [Tab; 4] = [Tab::Log, Tab::Tables, Tab::Metrics, Tab::Dlq];

    /// String key of the tab's title.
    pub fn label_key(self) -> &'static str {
        match self {
            Tab::Log => "simulator.tab_log",
            Tab::Tables => "simulator.tab_tables",
            Tab::Metrics => "simulator.tab_metrics",
            Tab::Dlq => "simulator.tab_dlq",
        }
    }
}

/// A token moving between two stages during the current beat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The message.
    pub message_id: String,
    /// Where it comes from.
    pub from: Stage,
    /// Where it goes.
    pub to: Stage,
}

/// The compare view: pending or both reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compare {
    /// The thread is running both modes.
    Running,
    /// Both runs are done.
    Done {
        /// Safe mode.
        safe: Box<RunReport>,
        /// Naive mode.
        naive: Box<RunReport>,
    },
}

/// The simulator screen's own state.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // independent flags of one screen
pub struct SimState {
    /// Index into the scenario list.
    pub scenario: usize,
    /// Mode of the run.
    pub mode: Mode,
    /// Broker profile of the run.
    pub broker: BrokerKind,
    /// Seed of the run.
    pub seed: u64,
    /// Tag of the current run (replies for older runs are dropped).
    pub run: u64,
    /// The run directory, once created.
    pub dir: Option<String>,
    /// Consumer instances in the scenario.
    pub consumers: u8,
    /// Playing (ticks arrive) or paused.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Time into the current beat, ms (drives the token motion).
    pub phase_ms: u32,
    /// A command is out and its reply not yet in.
    pub pending: bool,
    /// The picture at the head of the run.
    pub head: Option<Box<Snapshot>>,
    /// Events executed so far.
    pub total: u64,
    /// `Some(i)`: looking at the picture after event `i` (history); `None`: following the head.
    pub cursor: Option<u64>,
    /// The picture at the cursor, once it arrived.
    pub viewed: Option<Box<Snapshot>>,
    /// Nothing is left to do in the run.
    pub finished: bool,
    /// The final report.
    pub report: Option<Box<RunReport>>,
    /// Recent events, oldest first.
    pub log: VecDeque<Event>,
    /// Metric samples at the head, oldest first (sparklines).
    pub samples: VecDeque<Metrics>,
    /// Tokens moving in the current beat.
    pub moves: Vec<Move>,
    /// The tab shown.
    pub tab: Tab,
    /// Scroll offset inside the tab.
    pub scroll: u16,
    /// An open menu.
    pub picker: Option<Picker>,
    /// DLQ triage: the cause is marked as fixed.
    pub cause_fixed: bool,
    /// DLQ triage: the fix was sent to the engine (it cannot be undone inside a run).
    pub fix_sent: bool,
    /// DLQ triage: replay batch size.
    pub batch: u32,
    /// DLQ entries not yet replayed.
    pub dlq: Vec<DlqEntry>,
    /// The compare view, when open.
    pub compare: Option<Compare>,
    /// The scenario was counted in progress for this screen visit.
    pub counted: bool,
    /// The fault injected last (shown until the run restarts).
    pub last_fault: Option<crate::sim::Fault>,
}

impl SimState {
    /// A screen for scenario index `scenario`, nothing started yet.
    pub fn new(scenario: usize) -> SimState {
        SimState {
            scenario,
            mode: Mode::Safe,
            broker: BrokerKind::Asb,
            seed: DEFAULT_SEED,
            run: 0,
            dir: None,
            consumers: 0,
            playing: false,
            speed: DEFAULT_SPEED,
            phase_ms: 0,
            pending: false,
            head: None,
            total: 0,
            cursor: None,
            viewed: None,
            finished: false,
            report: None,
            log: VecDeque::new(),
            samples: VecDeque::new(),
            moves: Vec::new(),
            tab: Tab::Log,
            scroll: 0,
            picker: None,
            cause_fixed: false,
            fix_sent: false,
            batch: 3,
            dlq: Vec::new(),
            compare: None,
            counted: false,
            last_fault: None,
        }
    }

    /// The scenario id.
    pub fn scenario_id(&self) -> &'static str {
        IDS[self.scenario.min(IDS.len() - 1)]
    }

    /// The settings of the current run.
    pub fn spec(&self) -> RunSpec {
        RunSpec {
            scenario: self.scenario_id().to_owned(),
            mode: self.mode,
            broker: self.broker,
            seed: self.seed,
        }
    }

    /// The picture to draw: the viewed one in history, else the head.
    pub fn shown(&self) -> Option<&Snapshot> {
        match self.cursor {
            Some(_) => self.viewed.as_deref().or(self.head.as_deref()),
            None => self.head.as_deref(),
        }
    }

    /// The index of the event shown (`None` before the first event).
    pub fn shown_index(&self) -> Option<u64> {
        self.cursor.or_else(|| self.total.checked_sub(1))
    }

    /// One beat (the time one event takes on screen), ms.
    pub fn beat_ms(&self) -> u32 {
        1_000 / SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// How far the current beat's moves have travelled, 0.0..=1.0.
    pub fn progress(&self) -> f32 {
        if self.playing {
            (self.phase_ms as f32 / self.beat_ms() as f32).min(1.0)
        } else {
            1.0
        }
    }
}

/// The texts of scenario `id` in the app's language (from the loaded content, so `--content`
/// folders are honoured).
pub fn scenario_text<'a>(app: &'a App, id: &str) -> Option<&'a ScenarioText> {
    app.content
        .scenarios
        .iter()
        .find(|sc| sc.id == id)
        .and_then(|sc| sc.text(app.lang))
}

/// The caption texts, parsed once.
pub fn captions() -> &'static crate::sim::captions::Captions {
    static CAPTIONS: OnceLock<crate::sim::captions::Captions> = OnceLock::new();
    CAPTIONS.get_or_init(crate::sim::captions::Captions::builtin)
}

/// Opens the simulator on `scenario` (an id; unknown or `None` takes the first) and starts a
/// paused run.
pub fn open(app: &mut App, scenario: Option<&str>) -> Vec<Effect> {
    let index = scenario
        .and_then(|id| IDS.iter().position(|i| *i == id))
        .unwrap_or(0);
    app.push(Screen::Simulator(Box::new(SimState::new(index))));
    let Some(s) = state(app) else {
        return Vec::new();
    };
    playback::restart(s)
}

pub(crate) fn state(app: &mut App) -> Option<&mut SimState> {
    match &mut app.screen {
        Screen::Simulator(s) => Some(s),
        _ => None,
    }
}

/// Handles a key action on the simulator screen.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(s) = state(app) else {
        return Vec::new();
    };
    if s.compare.is_some() && !matches!(action, Action::Compare) {
        // The compare view covers the map; any control closes it first.
        s.compare = None;
        if matches!(action, Action::Open) {
            return Vec::new();
        }
    }
    let effects = match action {
        Action::PlayPause => playback::play_pause(s),
        Action::StepForward => playback::step_forward(s),
        Action::StepBack => playback::step_back(s),
        Action::Top => playback::view_first(s),
        Action::Bottom => playback::to_end(s),
        Action::Faster => {
            s.speed = (s.speed + 1).min(SPEEDS.len() - 1);
            Vec::new()
        }
        Action::Slower => {
            s.speed = s.speed.saturating_sub(1);
            Vec::new()
        }
        Action::Restart => playback::restart(s),
        Action::CycleMode => {
            let next = (Mode::ALL.iter().position(|m| *m == s.mode).unwrap_or(0) + 1)
                % Mode::ALL.len();
            s.mode = Mode::ALL[next];
            playback::restart(s)
        }
        Action::CycleBroker => {
            s.broker = match s.broker {
                BrokerKind::Asb => BrokerKind::Sqs,
                BrokerKind::Sqs => BrokerKind::Asb,
            };
            playback::restart(s)
        }
        Action::NextSeed => {
            s.seed = s.seed.wrapping_add(1);
            playback::restart(s)
        }
        Action::ChooseScenario => {
            s.playing = false;
            s.picker = Some(Picker::new(PickerKind::Scenario, s.scenario));
            Vec::new()
        }
        Action::InjectFault => {
            s.picker = Some(Picker::new(PickerKind::Fault, 0));
            Vec::new()
        }
        Action::Compare => playback::compare(s),
        Action::FocusNext | Action::FocusPrev => {
            let i = Tab::ALL.iter().position(|t| *t == s.tab).unwrap_or(0);
            let n = Tab::ALL.len();
            let next = if action == Action::FocusNext {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            };
            s.tab = Tab::ALL[next];
            s.scroll = 0;
            Vec::new()
        }
        Action::Up | Action::Down | Action::PageUp | Action::PageDown => {
            scroll(s, action);
            Vec::new()
        }
        Action::ToggleFixed => {
            s.cause_fixed = !s.cause_fixed || s.fix_sent;
            Vec::new()
        }
        Action::Open if s.tab == Tab::Dlq => playback::replay(s),
        _ => Vec::new(),
    };
    count_run(app, effects)
}

/// In the DLQ tab the arrows choose the batch size; elsewhere they scroll.
fn scroll(s: &mut SimState, action: Action) {
    let page = 5;
    match (s.tab, action) {
        (Tab::Dlq, Action::Up) => s.batch = (s.batch + 1).min(MAX_BATCH),
        (Tab::Dlq, Action::Down) => s.batch = s.batch.saturating_sub(1).max(1),
        (_, Action::Up) => s.scroll = s.scroll.saturating_sub(1),
        (_, Action::Down) => s.scroll = s.scroll.saturating_add(1),
        (_, Action::PageUp) => s.scroll = s.scroll.saturating_sub(page),
        (_, Action::PageDown) => s.scroll = s.scroll.saturating_add(page),
        _ => {}
    }
}

/// Counts the scenario in progress the first time one of its events happened on this visit.
fn count_run(app: &mut App, mut effects: Vec<Effect>) -> Vec<Effect> {
    let id = match state(app) {
        Some(s) if !s.counted && s.total > 0 => {
            s.counted = true;
            s.scenario_id()
        }
        _ => return effects,
    };
    if !app.progress.scenarios_run.contains(id) {
        effects.push(app.record(crate::domain::Fact::ScenarioRun(id.to_owned())));
    }
    effects
}

/// Keys while a menu is open (scenario picker, fault menu).
pub fn on_captured_key(app: &mut App, key: Key) -> Vec<Effect> {
    let effects = match state(app) {
        Some(s) => picker::on_key(s, key),
        None => Vec::new(),
    };
    let armed = effects.iter().find_map(|e| match e {
        Effect::Sim(SimCommand::Inject { fault, .. }) => Some(fault.as_str()),
        _ => None,
    });
    if let Some(name) = armed {
        let text = app
            .strings()
            .fill("simulator.fault_armed", &[("fault", name)]);
        app.notify(text, false);
    }
    effects
}

/// True while a menu captures the keys.
pub fn captures_keys(s: &SimState) -> bool {
    s.picker.is_some()
}

/// A frame tick while playing.
pub fn on_tick(app: &mut App, elapsed_ms: u32) -> Vec<Effect> {
    let effects = match state(app) {
        Some(s) => playback::tick(s, elapsed_ms),
        None => Vec::new(),
    };
    count_run(app, effects)
}

/// A reply from the engine thread.
pub fn on_reply(app: &mut App, reply: SimReply) -> Vec<Effect> {
    let failed = match (&reply, state(app)) {
        (SimReply::Failed { run, reason }, Some(s)) if *run == s.run => Some(reason.clone()),
        _ => None,
    };
    let effects = match state(app) {
        Some(s) => playback::on_reply(s, reply),
        None => Vec::new(),
    };
    if let Some(reason) = failed {
        let text = app
            .strings()
            .fill("simulator.failed", &[("reason", &reason)]);
        app.notify(text, true);
    }
    count_run(app, effects)
}

/// How often the runtime must send ticks: only while playing, never while paused or idle.
/// With reduced motion there is nothing to animate between events, so one tick per event.
pub fn tick_interval(app: &App) -> Option<u32> {
    match &app.screen {
        Screen::Simulator(s) if s.playing && !app.help && s.picker.is_none() => {
            Some(if app.options.reduced_motion {
                s.beat_ms().max(FRAME_MS)
            } else {
                FRAME_MS
            })
        }
        _ => None,
    }
}

/// Handles the mouse: tabs and the play marker are clickable, the wheel scrolls the tab.
pub fn on_mouse(app: &mut App, mouse: Mouse) -> Vec<Effect> {
    let areas = layout::simulator(app.size.0, app.size.1);
    if state(app).is_none() {
        return Vec::new();
    }
    match mouse.kind {
        MouseKind::ScrollUp => on_action(app, Action::Up),
        MouseKind::ScrollDown => on_action(app, Action::Down),
        MouseKind::Click if areas.tabs.contains(mouse.column, mouse.row) => {
            let x = usize::from(mouse.column - areas.tabs.x);
            if let (Some(tab), Some(s)) = (Tab::ALL.get(x / view::TAB_WIDTH).copied(), state(app))
            {
                s.tab = tab;
                s.scroll = 0;
            }
            Vec::new()
        }
        MouseKind::Click if areas.info.contains(mouse.column, mouse.row) => {
            on_action(app, Action::PlayPause)
        }
        MouseKind::Click => Vec::new(),
    }
}

/// Pauses and drops the run when the screen is left.
pub fn leave(s: &SimState) -> Vec<Effect> {
    let _ = s;
    vec![Effect::Sim(SimCommand::Stop)]
}

#[cfg(test)]
mod tests;

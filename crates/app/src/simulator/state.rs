//! The simulator screen's state: settings of the run, the timeline position, the pictures
//! from the engine, tabs, menus, DLQ triage and the compare view.

use super::picker::Picker;
use super::protocol::{LabRun, RunSpec};
use super::story::StoryState;
use super::triage::Triage;
use content::key;
use model::{BrokerKind, Event, Metrics, Mode, RunReport, Snapshot, Stage};
use std::collections::VecDeque;

/// Playback speeds as multiples of the scenario's pace ([`super::pace`]): at 1x every
/// scenario's default run takes 60-90 s.
pub const SPEEDS: [f64; 7] = super::pace::MULTIPLIERS;
/// The speed a run starts with (index into [`SPEEDS`]).
pub const DEFAULT_SPEED: usize = super::pace::DEFAULT_MULTIPLIER;
/// Frame interval while playing, ms (30 frames per second).
pub const FRAME_MS: u32 = 33;
/// Events kept for the event log (the engine keeps more for step back).
pub const LOG_CAP: usize = 1_000;
/// Metric samples kept for the sparklines.
pub const SAMPLE_CAP: usize = 120;
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
    pub fn label_key(self) -> content::Key {
        match self {
            Tab::Log => key::simulator::TAB_LOG,
            Tab::Tables => key::simulator::TAB_TABLES,
            Tab::Metrics => key::simulator::TAB_METRICS,
            Tab::Dlq => key::simulator::TAB_DLQ,
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
    /// The broker hands this message out again (a redelivery): the same order coming back.
    pub again: bool,
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

/// What a run is started with; a restart (new seed, mode, broker) keeps these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSettings {
    /// The scenario id (one of the loaded content's scenarios).
    pub scenario: String,
    /// Mode of the run.
    pub mode: Mode,
    /// Broker profile of the run.
    pub broker: BrokerKind,
    /// Seed of the run.
    pub seed: u64,
    /// Playback speed, an index into [`SPEEDS`].
    pub speed: usize,
    /// Playback stops at each moment (on for a scenario's first run; `p` toggles).
    pub pause_at_moments: bool,
    /// The lab file the run plays (a failing check's run opened from the lab screen).
    pub lab: Option<LabRun>,
}

/// The run on the engine thread and where the screen stands in it: the head of the run, the
/// picture viewed in history, the beat clock and the recent events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timeline {
    /// Tag of the current run (replies for older runs are dropped).
    pub run: u64,
    /// Events of this run played to the end without faults (paces playback).
    pub expected_events: u64,
    /// The run directory, once created.
    pub dir: Option<String>,
    /// Consumer instances in the scenario.
    pub consumers: u8,
    /// Playing (ticks arrive) or paused.
    pub playing: bool,
    /// Time into the current beat, ms (drives the token motion).
    pub phase_ms: u32,
    /// A command is out and its reply not yet in.
    pub pending: bool,
    /// A lab's broken run steps to the learner's statement at this virtual time (ms) right
    /// after its start: the start's reply does not end the wait, the step's does.
    pub opening_at_statement: Option<u64>,
    /// Step keys pressed while a command was out, still to take (positive forward, negative
    /// back): every press is one step, however fast they come.
    pub queued_steps: i32,
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
    /// The fault injected last (shown until the run restarts).
    pub last_fault: Option<model::Fault>,
}

/// The simulator screen's own state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimState {
    /// What the run is started with.
    pub settings: RunSettings,
    /// The run and the position in it.
    pub timeline: Timeline,
    /// DLQ triage.
    pub triage: Triage,
    /// The tab shown.
    pub tab: Tab,
    /// Scroll offset inside the tab.
    pub scroll: u16,
    /// An open menu.
    pub picker: Option<Picker>,
    /// The compare view, when open.
    pub compare: Option<Compare>,
    /// The scenario was counted in progress for this screen visit.
    pub counted: bool,
    /// The run's moments, the jump to a cause, pause at moments.
    pub story: StoryState,
    /// The event log shows every event (routine steps unfolded).
    pub full_log: bool,
    /// The event log shows the SQL of the event at the cursor.
    pub show_sql: bool,
}

impl SimState {
    /// A screen for scenario `scenario` (an id), nothing started yet.
    pub fn new(scenario: &str) -> SimState {
        SimState {
            settings: RunSettings {
                scenario: scenario.to_owned(),
                mode: Mode::Safe,
                broker: BrokerKind::Asb,
                seed: DEFAULT_SEED,
                speed: DEFAULT_SPEED,
                pause_at_moments: true,
                lab: None,
            },
            timeline: Timeline {
                run: 0,
                dir: None,
                consumers: 0,
                playing: false,
                phase_ms: 0,
                pending: false,
                opening_at_statement: None,
                queued_steps: 0,
                head: None,
                total: 0,
                cursor: None,
                viewed: None,
                finished: false,
                report: None,
                log: VecDeque::new(),
                samples: VecDeque::new(),
                moves: Vec::new(),
                last_fault: None,
                expected_events: 0,
            },
            triage: Triage::default(),
            tab: Tab::Log,
            scroll: 0,
            picker: None,
            compare: None,
            counted: false,
            story: StoryState::default(),
            full_log: false,
            show_sql: false,
        }
    }

    /// The scenario id.
    pub fn scenario_id(&self) -> &str {
        &self.settings.scenario
    }

    /// The settings of the current run.
    pub fn spec(&self) -> RunSpec {
        RunSpec {
            scenario: self.scenario_id().to_owned(),
            mode: self.settings.mode,
            broker: self.settings.broker,
            seed: self.settings.seed,
            lab: self.settings.lab.clone(),
        }
    }

    /// The picture to draw: the viewed one in history, else the head.
    pub fn shown(&self) -> Option<&Snapshot> {
        match self.timeline.cursor {
            Some(_) => self
                .timeline
                .viewed
                .as_deref()
                .or(self.timeline.head.as_deref()),
            None => self.timeline.head.as_deref(),
        }
    }

    /// The index of the event shown (`None` before the first event).
    pub fn shown_index(&self) -> Option<u64> {
        self.timeline
            .cursor
            .or_else(|| self.timeline.total.checked_sub(1))
    }

    /// One beat (the time one event takes on screen), ms.
    pub fn beat_ms(&self) -> u32 {
        super::pace::beat_ms(self.timeline.expected_events, self.settings.speed)
    }

    /// How far the current beat's moves have travelled, 0.0..=1.0.
    pub fn progress(&self) -> f32 {
        if self.timeline.playing {
            (self.timeline.phase_ms as f32 / self.beat_ms() as f32).min(1.0)
        } else {
            1.0
        }
    }
}

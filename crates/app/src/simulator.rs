//! The incident simulator screen's state and controls. The engine runs on its own thread in
//! the runtime: this module only sends [`SimCommand`]s and reads the [`SimReply`]s.

use content::key;

pub mod fold;
pub mod lab_run;
pub mod labels;
mod moment_keys;
pub mod pace;
mod picker;
mod playback;
pub mod protocol;
mod state;
pub mod story;
mod triage;
pub mod view;

pub use picker::{FaultRow, Picker, PickerKind, ScenarioRow, fault_rows, scenario_rows};
pub use protocol::{LabRun, RunSpec, SimCommand, SimReply};
pub use state::{
    Compare, DEFAULT_SEED, DEFAULT_SPEED, FRAME_MS, LOG_CAP, Move, RunSettings, SAMPLE_CAP, SPEEDS,
    SimState, Tab, Timeline,
};
pub use triage::{Dropped, MAX_BATCH, ShownEntry, Triage, entries_at, last_drop};

use super::input::{Key, Mouse, MouseKind};
use super::keymap::Action;
use super::{Effect, Screen, Session, layout};
use content::scenario::ScenarioText;
use domain::{Fact, SimChoice};
use model::{BrokerKind, Mode};

/// The texts of scenario `id` in the session's language (from the loaded content, so
/// `--content` folders are honoured).
pub fn scenario_text<'a>(session: &'a Session, id: &str) -> Option<&'a ScenarioText> {
    session
        .content
        .scenarios
        .iter()
        .find(|sc| sc.id == id)
        .and_then(|sc| sc.text(session.lang))
}

/// Opens the simulator on `scenario` (an id; `None` takes the last one chosen, an unknown id
/// the first) and starts a paused run.
pub fn open(session: &mut Session, scenario: Option<&str>) -> Vec<Effect> {
    open_in_mode(session, scenario, None, true)
}

/// Opens the simulator from a decision's "see it happen": the scenario plays the learner's
/// choice (`mode`, from the chosen option's data), and when that choice is not the safe one
/// the compare view shows it beside safe mode at once.
pub fn open_for_decision(session: &mut Session, scenario: &str, mode: Option<Mode>) -> Vec<Effect> {
    open_in_mode(session, Some(scenario), mode, true)
}

/// Opens the simulator for the instructor's pacing command: the scenario in `mode`, its run
/// started at the first event so the room watches it unfold (no compare view that shows the
/// outcome at once).
pub fn open_for_pace(session: &mut Session, scenario: &str, mode: Option<Mode>) -> Vec<Effect> {
    open_in_mode(session, Some(scenario), mode, false)
}

fn open_in_mode(
    session: &mut Session,
    scenario: Option<&str>,
    mode: Option<Mode>,
    compare: bool,
) -> Vec<Effect> {
    let known = |id: &str| session.content.scenarios.iter().any(|sc| sc.id == id);
    // Without a scenario asked for, the last scenario, mode and broker come back.
    let remembered = session
        .progress
        .simulator
        .as_ref()
        .filter(|_| scenario.is_none())
        .filter(|c| known(&c.scenario));
    let first = session
        .content
        .scenarios
        .first()
        .map_or("", |sc| sc.id.as_str());
    let id = scenario
        .filter(|id| known(id))
        .or(remembered.map(|c| c.scenario.as_str()))
        .unwrap_or(first)
        .to_owned();
    let mut state = Box::new(SimState::new(&id));
    if let Some(c) = remembered {
        state.settings.mode = Mode::parse(&c.mode).unwrap_or(Mode::Safe);
        state.settings.broker = BrokerKind::parse(&c.broker).unwrap_or(BrokerKind::Asb);
    }
    if let Some(mode) = mode {
        state.settings.mode = mode;
    }
    let mut effects = playback::restart(&mut state);
    if let Some(unsafe_mode) = mode.filter(|m| compare && *m != Mode::Safe) {
        effects.extend(playback::compare_against(&mut state, unsafe_mode));
    }
    // A run opened from a chapter, a decision or the instructor is the last one seen too.
    let effects = remember(&state, session, effects);
    session.push(Screen::Simulator(state));
    effects
}

/// Closes the compare view if it is open (Back then stays in the simulator); false if none was.
pub fn close_compare(s: &mut SimState) -> bool {
    s.compare.take().is_some()
}

/// Handles a key action on the simulator screen.
pub fn on_action(s: &mut SimState, session: &mut Session, action: Action) -> Vec<Effect> {
    if lab_run::refused(s, session, action) {
        return Vec::new();
    }
    if s.compare.is_some() && !matches!(action, Action::Compare) {
        // The compare view covers the map; any control closes it first.
        s.compare = None;
        if matches!(action, Action::Open) {
            return Vec::new();
        }
    }
    if matches!(
        action,
        Action::Restart | Action::CycleMode | Action::CycleBroker | Action::NextSeed
    ) {
        // A fault notice belongs to its run.
        session.status = None;
    }
    if let Some(effects) = triage::on_action(s, session, action) {
        return count_run(s, session, effects);
    }
    let effects = run_action(s, session, action)
        .or_else(|| view_action(s, session, action))
        .unwrap_or_default();
    let effects = remember(s, session, effects);
    count_run(s, session, effects)
}

/// Decides the actions that steer the run: playback, speed, and what a restart runs (mode,
/// broker, seed, scenario, fault); None for any other action.
fn run_action(s: &mut SimState, session: &Session, action: Action) -> Option<Vec<Effect>> {
    match action {
        Action::PlayPause => Some(playback::play_pause(s)),
        Action::StepForward => Some(playback::step_forward(s)),
        Action::StepBack => Some(playback::step_back(s)),
        Action::Top => Some(playback::view_first(s)),
        Action::Bottom => Some(playback::to_end(s)),
        Action::Faster => Some({
            s.settings.speed = (s.settings.speed + 1).min(SPEEDS.len() - 1);
            Vec::new()
        }),
        Action::Slower => Some({
            s.settings.speed = s.settings.speed.saturating_sub(1);
            Vec::new()
        }),
        Action::Restart => Some(playback::restart(s)),
        Action::CycleMode => Some({
            let next = (Mode::ALL
                .iter()
                .position(|m| *m == s.settings.mode)
                .unwrap_or(0)
                + 1)
                % Mode::ALL.len();
            s.settings.mode = Mode::ALL[next];
            playback::restart(s)
        }),
        Action::CycleBroker => Some({
            s.settings.broker = match s.settings.broker {
                BrokerKind::Asb => BrokerKind::Sqs,
                BrokerKind::Sqs => BrokerKind::Asb,
            };
            playback::restart(s)
        }),
        Action::NextSeed => Some({
            s.settings.seed = s.settings.seed.wrapping_add(1);
            playback::restart(s)
        }),
        Action::ChooseScenario => Some({
            s.timeline.playing = false;
            s.picker = Some(Picker::scenarios(session, s.scenario_id()));
            Vec::new()
        }),
        Action::InjectFault => Some({
            s.picker = Some(Picker::faults());
            Vec::new()
        }),
        Action::Compare => Some(playback::compare(s)),
        _ => None,
    }
}

/// Decides the actions that change only what is shown: the tab, scrolling, the moments, the
/// full log and the SQL; None for any other action.
fn view_action(s: &mut SimState, session: &Session, action: Action) -> Option<Vec<Effect>> {
    match action {
        Action::FocusNext | Action::FocusPrev => Some({
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
        }),
        Action::Up | Action::Down | Action::PageUp | Action::PageDown => Some({
            let height = layout::simulator(session.size.0, session.size.1)
                .content
                .height;
            scroll(s, action, page_rows(s.tab, height));
            Vec::new()
        }),
        Action::JumpToCause => Some(moment_keys::why(s)),
        Action::NextMoment => Some(moment_keys::next_moment(s)),
        Action::PrevMoment => Some(moment_keys::prev_moment(s)),
        Action::TogglePauseAtMoments => Some(moment_keys::toggle_pause(s)),
        Action::ToggleFullLog => Some({
            s.full_log = !s.full_log;
            Vec::new()
        }),
        Action::ToggleSql => Some({
            s.show_sql = !s.show_sql;
            Vec::new()
        }),
        _ => None,
    }
}

/// Saves the scenario, mode and broker when a run with other ones starts, so the next
/// program start opens on them.
fn remember(s: &SimState, session: &mut Session, mut effects: Vec<Effect>) -> Vec<Effect> {
    if s.settings.lab.is_some() {
        return effects; // a lab's run is the learner's file, not a choice for the next start
    }
    let starts = effects
        .iter()
        .any(|e| matches!(e, Effect::Sim(SimCommand::Start { .. })));
    let choice = SimChoice {
        scenario: s.scenario_id().to_owned(),
        mode: s.settings.mode.as_str().to_owned(),
        broker: s.settings.broker.as_str().to_owned(),
    };
    if starts && session.progress.simulator.as_ref() != Some(&choice) {
        effects.push(session.record(Fact::SimChosen(choice)));
    }
    effects
}

/// How far a page key scrolls a tab `height` rows high: one line less than it shows, so the
/// last line of a page is the first of the next. A scrolled table shows its title and column
/// header pinned above its rows, two rows that a page must not skip lines for.
pub fn page_rows(tab: Tab, height: u16) -> u16 {
    let pinned = if tab == Tab::Tables { 2 } else { 0 };
    height.saturating_sub(1 + pinned).max(1)
}

/// Scrolls the tab like the reader: down (and `PgDn`) shows what comes later (the DLQ tab's
/// arrows are taken by [`triage::on_action`] first). The event log counts its offset from the newest
/// line at the bottom, the other tabs from the top.
fn scroll(s: &mut SimState, action: Action, page: u16) {
    let page = i16::try_from(page).unwrap_or(i16::MAX);
    let later: i16 = match action {
        Action::Down => 1,
        Action::Up => -1,
        Action::PageDown => page,
        Action::PageUp => -page,
        _ => 0,
    };
    // The last line a tab can scroll to, so a key past the end is never swallowed.
    let lines = match s.tab {
        Tab::Log => s.timeline.log.len(),
        Tab::Tables => s
            .shown()
            .map_or(0, |snap| view::table_lines(snap, "").len()),
        Tab::Metrics => view::SIGNALS.len(),
        Tab::Dlq => s.triage.dlq.len(),
    };
    let most = u16::try_from(lines.saturating_sub(1)).unwrap_or(u16::MAX);
    match (s.tab, action) {
        (Tab::Log, _) => s.scroll = s.scroll.saturating_add_signed(-later).min(most),
        _ => s.scroll = s.scroll.saturating_add_signed(later).min(most),
    }
}

/// Counts the scenario in progress the first time one of its events happened on this visit.
fn count_run(s: &mut SimState, session: &mut Session, mut effects: Vec<Effect>) -> Vec<Effect> {
    if s.counted || s.timeline.total == 0 {
        return effects;
    }
    s.counted = true;
    let id = s.scenario_id();
    if !session.progress.scenarios_run.contains(id) {
        effects.push(session.record(Fact::ScenarioRun(id.to_owned())));
    }
    effects
}

/// Keys while a menu is open (scenario picker, fault menu).
pub fn on_captured_key(s: &mut SimState, session: &mut Session, key: Key) -> Vec<Effect> {
    if let Some(p) = s.picker.filter(|p| p.kind == PickerKind::Fault)
        && key.code == super::input::KeyCode::Enter
        && let Some(fault) = model::Fault::MENU.get(p.cursor).copied()
        && let Some(reason) = picker::blocked(session, s, fault)
    {
        // Armed, it would never fire: say why instead.
        s.picker = None;
        let strings = session.strings();
        let text = strings.fill(
            key::fault::CANNOT_FIRE,
            &[
                ("fault", strings.get(picker::fault_keys(fault).0)),
                ("why", strings.get(reason)),
            ],
        );
        session.notify(text, true);
        return Vec::new();
    }
    let effects = picker::on_key(s, session, key);
    let armed = effects.iter().find_map(|e| match e {
        Effect::Sim(SimCommand::Inject { fault, .. }) => Some(*fault),
        _ => None,
    });
    if effects
        .iter()
        .any(|e| matches!(e, Effect::Sim(SimCommand::Start { .. })))
    {
        // Another scenario: the fault notice of the old run goes with it.
        session.status = None;
    }
    if let Some(fault) = armed {
        let strings = session.strings();
        let text = strings.fill(
            key::simulator::FAULT_ARMED,
            &[("fault", strings.get(picker::fault_keys(fault).0))],
        );
        session.notify(text, false);
    }
    remember(s, session, effects)
}

/// True while a menu captures the keys.
pub fn captures_keys(s: &SimState) -> bool {
    s.picker.is_some()
}

/// A frame tick while playing.
pub fn on_tick(s: &mut SimState, session: &mut Session, elapsed_ms: u32) -> Vec<Effect> {
    let effects = playback::tick(s, elapsed_ms);
    count_run(s, session, effects)
}

/// A reply from the engine thread.
pub fn on_reply(s: &mut SimState, session: &mut Session, reply: SimReply) -> Vec<Effect> {
    let failed = match &reply {
        SimReply::Failed { run, reason } if *run == s.timeline.run => Some(reason.clone()),
        _ => None,
    };
    triage::feedback(s, session, &reply);
    let was_finished = s.timeline.finished;
    let effects = playback::on_reply(s, reply);
    if !was_finished && s.timeline.finished {
        clear_armed_notice(s, session);
    }
    if let Some(reason) = failed {
        let text = session
            .strings()
            .fill(key::simulator::FAILED, &[("reason", &reason)]);
        session.notify(text, true);
    }
    count_run(s, session, effects)
}

/// At the end of the run the "fault armed" notice is out of date (the fault fired, or has
/// nothing left to act on): it leaves the status line. Any other notice stays.
fn clear_armed_notice(s: &SimState, session: &mut Session) {
    let Some(fault) = s.timeline.last_fault else {
        return;
    };
    let strings = session.strings();
    let notice = strings.fill(
        key::simulator::FAULT_ARMED,
        &[("fault", strings.get(picker::fault_keys(fault).0))],
    );
    if session.status.as_ref().is_some_and(|st| st.text == notice) {
        session.status = None;
    }
}

/// How often the runtime must send ticks: only while playing, never while paused or idle.
/// With reduced motion there is nothing to animate between events, so one tick per event.
pub fn tick_interval(s: &SimState, session: &Session) -> Option<u32> {
    if !s.timeline.playing || session.help || s.picker.is_some() {
        return None;
    }
    Some(if session.options.reduced_motion {
        s.beat_ms().max(FRAME_MS)
    } else {
        FRAME_MS
    })
}

/// Handles the mouse: tabs and the play marker are clickable, the wheel scrolls the tab.
pub fn on_mouse(s: &mut SimState, session: &mut Session, mouse: Mouse) -> Vec<Effect> {
    let areas = layout::simulator(session.size.0, session.size.1);
    match mouse.kind {
        MouseKind::ScrollUp => on_action(s, session, Action::Up),
        MouseKind::ScrollDown => on_action(s, session, Action::Down),
        MouseKind::Click if areas.tabs.contains(mouse.column, mouse.row) => {
            let x = usize::from(mouse.column - areas.tabs.x);
            if let Some(tab) = Tab::ALL.get(x / view::TAB_WIDTH).copied() {
                s.tab = tab;
                s.scroll = 0;
            }
            Vec::new()
        }
        MouseKind::Click if areas.info.contains(mouse.column, mouse.row) => {
            on_action(s, session, Action::PlayPause)
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
mod keys_tests;
#[cfg(test)]
mod remember_tests;
#[cfg(test)]
mod scroll_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod view_tests;

//! The labs: a list with each lab's status (done / attempted / new, as `queuelab lab list`
//! shows it) and a lab screen with the brief, the learner's file, and keys to edit it in
//! `$VISUAL`/`$EDITOR` (checked again when the editor returns, or when a save from any other
//! editor is seen), check it on the lab thread, open a broken run in the simulator, reveal the
//! next hint (saved) and reset it to the starting file after a y/n question. Nothing here
//! does IO: the lab thread and the store thread answer with messages.

use content::key;

mod protocol;

use std::collections::BTreeMap;

use super::input::{Key, KeyCode};
use super::keymap::Action;
use super::{EditError, Effect, LabFileError, Screen, Session, StoreRequest};
use content::{LAB_HINT_LEVELS, Lab};
use domain::LabResult;

pub use protocol::{FailedRun, LabProgress, LabReport, LabReportKind, LabRequest};

/// The check on the lab screen.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum CheckState {
    /// Not checked in this visit.
    #[default]
    Idle,
    /// Running on the lab thread.
    Running(LabProgress),
    /// Finished.
    Done(LabReport),
}

/// The lab list's own state.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabListState {
    /// Selected lab (index into the content's labs).
    pub cursor: usize,
    /// Results as the store last told them, by lab id.
    pub results: BTreeMap<String, LabResult>,
}

/// One lab's screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabState {
    /// Index into the content's labs.
    pub lab: usize,
    /// The lab's id.
    pub lab_id: String,
    /// The learner's copy (shown; made by the lab thread on open).
    pub file: String,
    /// The store's result for this lab (attempts, solved, hints shown).
    pub result: LabResult,
    /// The brief's first line on screen.
    pub scroll: u16,
    /// The check.
    pub check: CheckState,
    /// "Restore the starting file?" is asked.
    pub confirm_reset: bool,
}

/// A lab's status in the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabStatus {
    /// Passed once.
    Done,
    /// Checked, never passed.
    Attempted,
    /// Never checked.
    New,
}

impl LabStatus {
    /// The status of a stored result, as `queuelab lab list` words it.
    pub fn of(result: Option<&LabResult>) -> LabStatus {
        match result {
            Some(r) if r.solved_at.is_some() => LabStatus::Done,
            Some(r) if r.attempts > 0 => LabStatus::Attempted,
            _ => LabStatus::New,
        }
    }

    /// String key of the status word (shared with the CLI).
    pub fn key(self) -> content::Key {
        match self {
            LabStatus::Done => key::lab::STATUS_DONE,
            LabStatus::Attempted => key::lab::STATUS_ATTEMPTED,
            LabStatus::New => key::lab::STATUS_NEW,
        }
    }
}

/// Opens the lab list; the store is asked for the results.
pub fn open_list(session: &mut Session) -> Vec<Effect> {
    session.push(Screen::LabList(LabListState::default()));
    vec![Effect::Store(StoreRequest::ReadLabs)]
}

/// The learner's copy of `lab` as the lab thread writes it.
pub fn file_of(session: &Session, lab: &Lab) -> String {
    model::learner_copy::copy_path(std::path::Path::new(&session.info.data_dir), lab)
        .display()
        .to_string()
}

/// Handles a key action in the lab list.
pub fn on_list_action(s: &mut LabListState, session: &mut Session, action: Action) -> Vec<Effect> {
    let count = session.content.labs.len();
    match action {
        Action::Up => s.cursor = s.cursor.saturating_sub(1),
        Action::Down => s.cursor = (s.cursor + 1).min(count.saturating_sub(1)),
        Action::Number(n) => {
            if let Some(index) = session
                .content
                .labs
                .iter()
                .position(|l| l.number == u32::from(n))
            {
                s.cursor = index;
                return open_lab(s, session);
            }
        }
        Action::Open => return open_lab(s, session),
        _ => {}
    }
    Vec::new()
}

fn open_lab(s: &LabListState, session: &mut Session) -> Vec<Effect> {
    let Some(lab) = session.content.labs.get(s.cursor) else {
        return Vec::new();
    };
    let lab_id = lab.id.clone();
    let state = LabState {
        lab: s.cursor,
        file: file_of(session, lab),
        result: s.results.get(&lab_id).copied().unwrap_or_default(),
        lab_id: lab_id.clone(),
        scroll: 0,
        check: CheckState::Idle,
        confirm_reset: false,
    };
    session.push(Screen::Lab(Box::new(state)));
    vec![Effect::Lab(LabRequest::Open { lab_id })]
}

/// Handles a key action on a lab's screen.
pub fn on_lab_action(s: &mut LabState, session: &mut Session, action: Action) -> Vec<Effect> {
    match action {
        Action::Up => s.scroll = s.scroll.saturating_sub(1),
        Action::Down => s.scroll = s.scroll.saturating_add(1),
        Action::PageUp => s.scroll = s.scroll.saturating_sub(page(session)),
        Action::PageDown => s.scroll = s.scroll.saturating_add(page(session)),
        Action::Top => s.scroll = 0,
        Action::Edit => {
            if busy(s, session) {
                return Vec::new();
            }
            return vec![Effect::Lab(LabRequest::Edit {
                lab_id: s.lab_id.clone(),
            })];
        }
        Action::CheckLab => return start_check(s, session),
        Action::SeeItHappen => return open_failed_run(s, session),
        Action::Hint => return next_hint(s, session),
        Action::Restart => {
            if busy(s, session) {
                return Vec::new();
            }
            s.confirm_reset = true;
            let text = session.strings().get(key::labs::RESET_CONFIRM).to_owned();
            session.notify(text, true);
        }
        _ => {}
    }
    Vec::new()
}

/// `s`: the check's broken run in the simulator, the learner's file at the hook points, to
/// step through to the moment; before a check broke, the learner is told when `s` works.
fn open_failed_run(s: &LabState, session: &mut Session) -> Vec<Effect> {
    let failed = match &s.check {
        CheckState::Done(report) => report.failed_run.clone(),
        _ => None,
    };
    let Some(failed) = failed else {
        let text = session.strings().get(key::labs::NO_FAILED_RUN).to_owned();
        session.notify(text, false);
        return Vec::new();
    };
    let number = session.content.labs.get(s.lab).map_or(0, |lab| lab.number);
    let lab = super::simulator::LabRun::new(s.lab_id.clone(), number, failed.text)
        .with_probe(failed.probe);
    let at = super::simulator::lab_run::Broke {
        scenario: &failed.scenario,
        broker: failed.broker,
        seed: failed.seed,
        statement: failed.statement,
    };
    super::simulator::lab_run::open(session, lab, &at)
}

fn page(session: &Session) -> u16 {
    session.size.1.saturating_sub(8).max(1)
}

/// A check is running: the file stays as it is until it ends (the learner is told).
fn busy(s: &LabState, session: &mut Session) -> bool {
    if matches!(s.check, CheckState::Running(_)) {
        let text = session.strings().get(key::labs::BUSY).to_owned();
        session.notify(text, false);
        return true;
    }
    false
}

/// Starts a check of the learner's copy, unless one runs already.
pub fn start_check(s: &mut LabState, session: &mut Session) -> Vec<Effect> {
    if busy(s, session) {
        return Vec::new();
    }
    s.check = CheckState::Running(LabProgress::default());
    session.status = None;
    vec![Effect::Lab(LabRequest::Check {
        lab_id: s.lab_id.clone(),
        lang: session.lang,
    })]
}

fn next_hint(s: &mut LabState, session: &mut Session) -> Vec<Effect> {
    let levels = u32::try_from(LAB_HINT_LEVELS).unwrap_or(u32::MAX);
    if s.result.hints >= levels {
        let text = session.strings().get(key::labs::HINTS_ALL).to_owned();
        session.notify(text, false);
        return Vec::new();
    }
    s.result.hints += 1;
    // The view shows the hint at once; the store keeps the level across restarts.
    vec![Effect::Store(StoreRequest::LabHint {
        lab_id: s.lab_id.clone(),
        level: s.result.hints,
    })]
}

/// Whether the lab screen takes keys itself (the reset question).
pub fn captures_keys(s: &LabState) -> bool {
    s.confirm_reset
}

/// The answer to "restore the starting file?": y (or j) resets, anything else keeps the file.
pub fn on_confirm_key(s: &mut LabState, session: &mut Session, key: Key) -> Vec<Effect> {
    s.confirm_reset = false;
    if matches!(key.code, KeyCode::Char('y' | 'Y' | 'j' | 'J')) {
        session.status = None;
        return vec![Effect::Lab(LabRequest::Reset {
            lab_id: s.lab_id.clone(),
        })];
    }
    let text = session.strings().get(key::labs::RESET_KEPT).to_owned();
    session.notify(text, false);
    Vec::new()
}

/// The copy could not be made (or was): a failure is said on the status line.
pub fn opened(session: &mut Session, result: Result<(), LabFileError>) {
    if let Err(e) = result {
        file_failed(session, &e);
    }
}

/// Says on the status line that the learner's copy could not be made or reset, and why.
fn file_failed(session: &mut Session, e: &LabFileError) {
    let reason = e.describe(session.strings());
    let text = session
        .strings()
        .fill(key::labs::FILE_FAILED, &[("reason", &reason)]);
    session.notify(text, true);
}

/// The file was saved (the editor returned, or a save outside queuelab was seen): it is
/// checked again at once, unless a check runs already — the lab thread saw that save first,
/// and it looks at the file again once that check is done.
pub fn recheck(s: &mut LabState, session: &mut Session) -> Vec<Effect> {
    if matches!(s.check, CheckState::Running(_)) {
        return Vec::new();
    }
    start_check(s, session)
}

/// The editor returned: the file is checked again at once ("check on save").
pub fn edited(
    s: &mut LabState,
    session: &mut Session,
    result: Result<(), EditError>,
) -> Vec<Effect> {
    match result {
        Ok(()) => recheck(s, session),
        Err(e) => {
            let text = e.describe(session.strings());
            session.notify(text, true);
            Vec::new()
        }
    }
}

/// The learner's copy was deleted while its screen is open: said on the status line (the
/// screen shows the file's path), with the way back: `r` restores the starting file, a save
/// there checks it again. Nothing is recreated.
pub fn file_gone(session: &mut Session) {
    let text = session.strings().get(key::labs::FILE_GONE).to_owned();
    session.notify(text, true);
}

/// The check waits for another check of this lab on the same data folder.
pub fn waiting(session: &mut Session) {
    let text = session.strings().get(key::labs::CHECK_WAITING).to_owned();
    session.notify(text, false);
}

/// The starting file is back (or could not be written).
pub fn was_reset(s: &mut LabState, session: &mut Session, result: Result<(), LabFileError>) {
    match result {
        Ok(()) => {
            s.check = CheckState::Idle;
            let text = session
                .strings()
                .fill(key::lab::RESET_DONE, &[("file", &s.file)]);
            session.notify(text, false);
        }
        Err(e) => file_failed(session, &e),
    }
}

/// A check moved on to its next run.
pub fn progressed(s: &mut LabState, progress: LabProgress) {
    if matches!(s.check, CheckState::Running(_)) {
        s.check = CheckState::Running(progress);
    }
}

/// A check ended: shown on the lab's screen.
pub fn checked(s: &mut LabState, report: LabReport) {
    s.check = CheckState::Done(report);
    s.scroll = 0;
}

/// The store's results arrived: the list and every lab screen take them.
pub fn results_arrived<'a>(
    screens: impl Iterator<Item = &'a mut Screen>,
    results: &BTreeMap<String, LabResult>,
) {
    for screen in screens {
        match screen {
            Screen::LabList(s) => s.results.clone_from(results),
            Screen::Lab(s) => {
                if let Some(r) = results.get(&s.lab_id) {
                    // A hint revealed since the request stays revealed.
                    let hints = s.result.hints.max(r.hints);
                    s.result = *r;
                    s.result.hints = hints;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod failed_run_tests;
#[cfg(test)]
mod tests;

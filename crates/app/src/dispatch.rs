//! How the app takes one message: keys, mouse and what the worker threads report.

use super::{
    App, Effect, MailStatus, Msg, QuizRecord, Screen, StoreRequest, chapters, home, labs, layout,
    map, pace, quiz, reader, report, settings, simulator,
};
use content::key;

impl App {
    /// Routes one message to the screen or the session it concerns: input stays here, every
    /// group of worker reports goes to the helper that decides it.
    pub(super) fn dispatch(&mut self, msg: Msg) -> Vec<Effect> {
        let session = &mut self.session;
        match msg {
            Msg::Key(key) => self.on_key(key),
            Msg::Mouse(mouse) => {
                if session.help || layout::too_small(session.size.0, session.size.1) {
                    return Vec::new();
                }
                self.on_mouse(mouse)
            }
            Msg::Resized { width, height } => {
                session.size = (width, height);
                if let Screen::Reader(state) = &mut self.screen {
                    state.scroll = reader::clamp_scroll(state, session);
                }
                Vec::new()
            }
            Msg::ShareStarted(result) => map::on_share_started(session, result),
            Msg::FactSaved(Ok(())) => Vec::new(),
            msg @ (Msg::FactSaved(Err(_))
            | Msg::StoreOpened(_)
            | Msg::StoreReread(_)
            | Msg::StoreBusy
            | Msg::StoreFailed(_)
            | Msg::ResultsCleared(_)
            | Msg::AttemptStarted(Err(_))
            | Msg::DamagedCopies(_)
            | Msg::DamagedDeleted(_)) => self.on_store_report(msg),
            msg @ (Msg::Tick { .. }
            | Msg::Sim(_)
            | Msg::AttemptStarted(Ok(_))
            | Msg::ReportSaved(_)
            | Msg::CodeRequested(_)
            | Msg::CodeChecked(_)
            | Msg::MailUpdated { .. }) => self.on_screen_report(msg),
            msg @ (Msg::WorkshopUpdated(_)
            | Msg::WorkshopJoined(_)
            | Msg::WorkshopObserved(_)
            | Msg::WorkshopGreeted(_)
            | Msg::PaceReceived(_)
            | Msg::VotesUpdated(_)
            | Msg::StuckUpdated(_)) => self.on_workshop_report(msg),
            msg @ (Msg::LabResults(_)
            | Msg::LabOpened(_)
            | Msg::LabEdited { .. }
            | Msg::LabProgress { .. }
            | Msg::LabChecked { .. }
            | Msg::LabFileSaved { .. }
            | Msg::LabFileGone { .. }
            | Msg::LabWaiting { .. }
            | Msg::LabReset { .. }) => self.on_lab_report(msg),
        }
    }

    /// Decides what the store's answers change in the session: the stored state, a failed save,
    /// cleared results and damaged copies. `dispatch` routes only these messages here.
    fn on_store_report(&mut self, msg: Msg) -> Vec<Effect> {
        let session = &mut self.session;
        match msg {
            Msg::StoreOpened(stored) => {
                session.store_opened(*stored);
                Vec::new()
            }
            Msg::StoreReread(stored) => {
                session.store_reread(*stored);
                Vec::new()
            }
            Msg::StoreBusy => {
                session.store_busy();
                Vec::new()
            }
            // The runtime ends the loop and reports the reason after restoring the terminal.
            Msg::StoreFailed(_) => {
                session.quitting = true;
                Vec::new()
            }
            Msg::FactSaved(Err(fault)) | Msg::AttemptStarted(Err(fault)) => {
                session.save_failed(&fault.describe(session.strings()));
                Vec::new()
            }
            Msg::ResultsCleared(Err(e)) => {
                session.save_failed(&e.describe(session.strings()));
                Vec::new()
            }
            Msg::ResultsCleared(Ok(())) => {
                session.quiz = QuizRecord::default();
                session.report_status = None;
                session.report_name = None;
                // The store deleted the damaged copies with the rest.
                session.damaged.clear();
                let text = session.strings().get(key::settings::CLEARED).to_owned();
                session.notify(text, false);
                Vec::new()
            }
            Msg::DamagedCopies(copies) => {
                session.damaged = copies;
                Vec::new()
            }
            Msg::DamagedDeleted(result) => settings::damaged_deleted(session, result),
            _ => Vec::new(),
        }
    }

    /// Decides which shown screen a timer tick or a worker's answer goes to (simulator, reader,
    /// chapters, quiz, report); an answer for a screen no longer shown changes only the session.
    /// `dispatch` routes only these messages here.
    fn on_screen_report(&mut self, msg: Msg) -> Vec<Effect> {
        let session = &mut self.session;
        match msg {
            Msg::Tick { elapsed_ms } => match &mut self.screen {
                Screen::Simulator(state) => simulator::on_tick(state, session, elapsed_ms),
                Screen::Reader(state) => reader::on_tick(state, session, elapsed_ms),
                Screen::Chapters(state) => chapters::on_tick(state, elapsed_ms),
                Screen::Report(state) => report::on_tick(state, session, elapsed_ms),
                _ => Vec::new(),
            },
            Msg::Sim(reply) => match &mut self.screen {
                Screen::Simulator(state) => simulator::on_reply(state, session, reply),
                _ => Vec::new(),
            },
            Msg::AttemptStarted(Ok(attempt)) => {
                let shown = match &mut self.screen {
                    Screen::Quiz(state) => Some(state),
                    _ => None,
                };
                quiz::attempt_started(shown, session, attempt);
                Vec::new()
            }
            Msg::ReportSaved(result) => {
                if let Screen::Report(state) = &mut self.screen {
                    report::report_saved(state, session, result);
                }
                Vec::new()
            }
            Msg::CodeRequested(outcome) => {
                if let Screen::Report(state) = &mut self.screen {
                    report::code_requested(state, session, outcome);
                }
                Vec::new()
            }
            Msg::CodeChecked(verdict) => {
                if let Screen::Report(state) = &mut self.screen {
                    report::code_checked(state, session, verdict);
                }
                Vec::new()
            }
            Msg::MailUpdated { report, delivery } => {
                let sent = report == Some(MailStatus::Sent);
                session.report_status = report;
                if let Screen::Report(state) = &mut self.screen {
                    if let Some(delivery) = &delivery {
                        report::delivered(state, session, delivery);
                    }
                    if sent && delivery.is_some() {
                        report::say_sent(state, session);
                    }
                }
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// Decides what the workshop's news change: the status line, the join dialog on the home
    /// screen, the pace, the votes and the stuck flag. `dispatch` routes only these messages here.
    fn on_workshop_report(&mut self, msg: Msg) -> Vec<Effect> {
        let session = &mut self.session;
        match msg {
            Msg::WorkshopUpdated(line) => {
                session.workshop = Some(line);
            }
            Msg::WorkshopJoined(result) => {
                if matches!(result, Ok(false)) {
                    session.workshop = None;
                }
                if let Screen::Home(state) = &mut self.screen {
                    home::join::answered(&mut state.join, session, result);
                }
            }
            Msg::WorkshopObserved(result) => {
                if let Screen::Home(state) = &mut self.screen {
                    home::join::observed(&mut state.join, session, result);
                }
            }
            Msg::WorkshopGreeted(result) => {
                if let Screen::Home(state) = &mut self.screen {
                    home::join::greeted(&mut state.join, session, result);
                }
            }
            Msg::PaceReceived(notice) => pace::received(session, notice),
            Msg::VotesUpdated(votes) => session.votes.updated(votes),
            Msg::StuckUpdated(stuck) => {
                if stuck == Some(true) && session.stuck != Some(true) {
                    let text = session
                        .strings()
                        .get(key::workshop::STUCK_ACKNOWLEDGED)
                        .to_owned();
                    session.notify(text, false);
                }
                session.stuck = stuck;
            }
            _ => {}
        }
        Vec::new()
    }

    /// Decides which lab screen a lab worker's report concerns: only the lab shown with the same
    /// id changes, except results and checks, which count for every lab. `dispatch` routes only
    /// these messages here.
    fn on_lab_report(&mut self, msg: Msg) -> Vec<Effect> {
        let session = &mut self.session;
        match msg {
            Msg::LabResults(results) => {
                let screens = std::iter::once(&mut self.screen).chain(self.history.iter_mut());
                labs::results_arrived(screens, &results);
                Vec::new()
            }
            Msg::LabOpened(result) => {
                labs::opened(session, result);
                Vec::new()
            }
            Msg::LabEdited { lab_id, result } => match &mut self.screen {
                Screen::Lab(state) if state.lab_id == lab_id => {
                    labs::edited(state, session, result)
                }
                _ => Vec::new(),
            },
            Msg::LabProgress { lab_id, progress } => {
                if let Screen::Lab(state) = &mut self.screen
                    && state.lab_id == lab_id
                {
                    labs::progressed(state, progress);
                }
                Vec::new()
            }
            // Saved even when the learner has left the lab meanwhile: every check counts.
            Msg::LabChecked {
                lab_id,
                passed,
                reason,
                report,
            } => {
                if let Screen::Lab(state) = &mut self.screen
                    && state.lab_id == lab_id
                {
                    labs::checked(state, report);
                }
                vec![Effect::Store(StoreRequest::LabChecked {
                    lab_id,
                    passed,
                    reason,
                })]
            }
            Msg::LabFileSaved { lab_id } => match &mut self.screen {
                Screen::Lab(state) if state.lab_id == lab_id => labs::recheck(state, session),
                _ => Vec::new(),
            },
            Msg::LabFileGone { lab_id } => {
                if let Screen::Lab(state) = &self.screen
                    && state.lab_id == lab_id
                {
                    labs::file_gone(session);
                }
                Vec::new()
            }
            Msg::LabWaiting { lab_id } => {
                if let Screen::Lab(state) = &self.screen
                    && state.lab_id == lab_id
                {
                    labs::waiting(session);
                }
                Vec::new()
            }
            Msg::LabReset { lab_id, result } => {
                if let Screen::Lab(state) = &mut self.screen
                    && state.lab_id == lab_id
                {
                    labs::was_reset(state, session, result);
                }
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
}

//! The instructor's dashboard loop: keys, signals and a once-a-second read of the host's
//! summary (the very one `GET /api/summary` serves) in; pacing commands out to the host.
//! Ends on q, Ctrl+C, SIGTERM, SIGHUP or a closed terminal; the caller then stops the server.

use super::convert::to_msg;
use super::terminal::{TerminalGuard, Tui};
use super::terminal_input::{Input, TerminalInput};
use crate::platform::signals::EndSignals;
use app::Msg;
use app::dashboard::door::DoorAction;
use app::dashboard::{DashEffect, DashFailure, DashMsg, Dashboard};
use content::key;
use services::host::{AckError, HostDbError, HostState, PaceError};
use services::log;
use services::store::now_ms;
use std::time::Duration;

/// How often the summary is read again (ages in "last seen" tick with it).
const REFRESH: Duration = Duration::from_secs(1);

/// Shows the dashboard until the instructor quits.
pub fn run(dash: Dashboard, state: &HostState) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the dashboard: {e}"))?;
    let (guard, terminal) =
        TerminalGuard::enter(false).map_err(|e| format!("cannot set up the terminal: {e}"))?;
    let result = runtime.block_on(dashboard_loop(dash, state, terminal));
    drop(guard);
    result
}

async fn dashboard_loop(
    mut dash: Dashboard,
    state: &HostState,
    mut terminal: Tui,
) -> Result<(), String> {
    let mut ending = EndSignals::listen().map_err(|e| e.to_string())?;
    let mut input = TerminalInput::start()?;
    let mut refresh = tokio::time::interval(REFRESH);
    refresh.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let size = terminal.size().map_err(|e| e.to_string())?;
    dash.update(DashMsg::Resized {
        width: size.width,
        height: size.height,
    });
    loop {
        let msg = tokio::select! {
            input = input.next() => match input {
                Input::Event(event) => match to_msg(&event) {
                    Some(Msg::Key(key)) => Some(DashMsg::Key(key)),
                    Some(Msg::Resized { width, height }) => Some(DashMsg::Resized { width, height }),
                    _ => None,
                },
                Input::HungUp => { log::info("the terminal hung up: stopping the session"); break }
                Input::Failed(e) => return Err(format!("reading the terminal failed: {e}")),
            },
            _ = refresh.tick() => Some(refreshed(state)),
            signal = ending.next() => { log::info(&format!("{signal}: stopping the session")); break }
        };
        let Some(msg) = msg else { continue };
        for effect in dash.update(msg) {
            let answer = carry_out(state, effect, dash.strings());
            dash.update(answer);
            // The summary shows the revealed decision at once, not a second later.
            dash.update(refreshed(state));
        }
        if dash.quitting {
            break;
        }
        let width = terminal.size().map_err(|e| e.to_string())?.width;
        dash.clamp_to(crate::ui::dashboard::body_len(&dash, width));
        let theme = crate::ui::theme::Theme::new(dash.no_color);
        terminal
            .draw(|frame| crate::ui::dashboard::draw(frame, &dash, &theme))
            .map_err(|e| format!("drawing failed: {e}"))?;
    }
    Ok(())
}

/// Carries out what the instructor asked for on the host state; the answer for the dashboard,
/// which says a failure in its own language. `s` words what a door action did.
fn carry_out(state: &HostState, effect: DashEffect, s: &content::Strings) -> DashMsg {
    let unknown = |who: String| DashFailure::UnknownTrainee { who };
    match effect {
        DashEffect::SendPace(kind) => DashMsg::PaceDone(match state.pace(kind.clone(), now_ms()) {
            Ok(_) => Ok(kind),
            Err(PaceError::Refused(reason)) => Err(DashFailure::PaceRefused(reason)),
            Err(PaceError::Database(e)) => Err(database(&e)),
        }),
        DashEffect::Kick(who) => DashMsg::Kicked(match state.kick(&who, now_ms()) {
            Ok(Some(kicked)) => Ok(kicked.name),
            Ok(None) => Err(unknown(who)),
            Err(e) => Err(database(&e)),
        }),
        DashEffect::RemoveRow(who) => DashMsg::RowRemoved(match state.remove_row(&who, now_ms()) {
            Ok(Some(removed)) => Ok(removed.name),
            Ok(None) => Err(unknown(who)),
            Err(e) => Err(database(&e)),
        }),
        DashEffect::Door(action) => DashMsg::DoorDone(door(state, action, s)),
        DashEffect::Acknowledge(who) => DashMsg::Acknowledged(match state.acknowledge(&who) {
            Ok(Some(name)) => Ok(name),
            Ok(None) => Err(unknown(who)),
            Err(AckError::NotStuck { name }) => Err(DashFailure::NotStuck { name }),
            Err(AckError::Database(e)) => Err(database(&e)),
        }),
    }
}

/// A host database failure as the dashboard carries it (SQLite's words).
fn database(e: &HostDbError) -> DashFailure {
    DashFailure::Database(e.0.to_string())
}

/// The summary now; a database error keeps the last one on screen and goes to the log.
fn refreshed(state: &HostState) -> DashMsg {
    match state.summary() {
        Ok(summary) => DashMsg::Refreshed {
            summary: Box::new(summary),
            now_ms: now_ms(),
        },
        Err(e) => {
            log::warn(&format!("dashboard: {e}"));
            DashMsg::PaceDone(Err(database(&e)))
        }
    }
}

/// Carries out a door action from the dashboard; what to say in the footer.
fn door(
    state: &HostState,
    action: DoorAction,
    s: &content::Strings,
) -> Result<String, DashFailure> {
    match action {
        DoorAction::Lock(locked) => state.set_locked(locked).map(|()| {
            s.get(if locked {
                key::dash::LOCKED_DONE
            } else {
                key::dash::UNLOCKED_DONE
            })
            .to_owned()
        }),
        DoorAction::RemoveSilent => state
            .remove_silent(now_ms())
            .map(|r| s.fill(key::dash::SILENT_REMOVED, &[("n", &r.n.to_string())])),
    }
    .map_err(|e| database(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::workshop::EventKind;
    use domain::workshop::wire::EventBatch;
    use services::host::api::ApiRequest;

    /// A host with one trainee ("Ada") who delivered one event and is not stuck.
    fn room(dir: &std::path::Path, content: &content::Content) -> HostState {
        let state = HostState::open(dir, Some("Room"), content).expect("host");
        let batch = EventBatch {
            code: state.code.clone(),
            trainee: "a".repeat(32),
            token: "ada-token-0123456789".into(),
            name: "Ada".into(),
            events: vec![domain::workshop::Event {
                id: "e1".into(),
                n: 1,
                at_ms: 5,
                kind: EventKind::OrderingAttempt,
            }],
        };
        let body = serde_json::to_vec(&batch).expect("json");
        let request = ApiRequest {
            method: "POST",
            path: "/api/events",
            query: "",
            bearer: None,
            cookie: None,
            body: &body,
            peer: std::net::Ipv4Addr::LOCALHOST.into(),
        };
        assert_eq!(state.handle(&request, 1).status, 200);
        state
    }

    #[test]
    fn a_trainee_who_is_not_stuck_or_not_there_is_a_refusal_the_dashboard_words() {
        let dir = tempfile::tempdir().expect("tempdir");
        let content = content::load(&content::ContentSource::Embedded).expect("content");
        let state = room(dir.path(), &content);
        let strings = &content.course(content::Lang::De).strings;
        let answer = carry_out(&state, DashEffect::Acknowledge("ada".into()), strings);
        assert_eq!(
            answer,
            DashMsg::Acknowledged(Err(DashFailure::NotStuck { name: "Ada".into() }))
        );
        let answer = carry_out(&state, DashEffect::Kick("Zed".into()), strings);
        assert_eq!(
            answer,
            DashMsg::Kicked(Err(DashFailure::UnknownTrainee { who: "Zed".into() }))
        );
    }
}

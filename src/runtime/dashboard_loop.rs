//! The instructor's dashboard loop: keys, signals and a once-a-second read of the host's
//! summary (the very one `GET /api/summary` serves) in; pacing commands out to the host.
//! Ends on q, Ctrl+C, SIGTERM, SIGHUP or a closed terminal; the caller then stops the server.

use super::convert::to_msg;
use super::terminal::{TerminalGuard, Tui};
use super::terminal_input::{Input, TerminalInput};
use crate::platform::signals::EndSignals;
use app::Msg;
use app::dashboard::door::DoorAction;
use app::dashboard::{DashEffect, DashMsg, Dashboard};
use content::key;
use services::host::HostState;
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
            match effect {
                DashEffect::SendPace(kind) => {
                    let done = state.pace(kind.clone(), now_ms()).map(|_| kind);
                    dash.update(DashMsg::PaceDone(done));
                }
                DashEffect::Kick(who) => {
                    let done = match state.kick(&who, now_ms()) {
                        Ok(Some(kicked)) => Ok(kicked.name),
                        Ok(None) => Err(dash
                            .strings()
                            .fill(key::dash::KICK_UNKNOWN, &[("value", &who)])),
                        Err(e) => Err(e.to_string()),
                    };
                    dash.update(DashMsg::Kicked(done));
                }
                DashEffect::RemoveRow(who) => {
                    let done = match state.remove_row(&who, now_ms()) {
                        Ok(Some(removed)) => Ok(removed.name),
                        Ok(None) => Err(dash
                            .strings()
                            .fill(key::dash::KICK_UNKNOWN, &[("value", &who)])),
                        Err(e) => Err(e.to_string()),
                    };
                    dash.update(DashMsg::RowRemoved(done));
                }
                DashEffect::Door(action) => {
                    let done = door(state, action, dash.strings());
                    dash.update(DashMsg::DoorDone(done));
                }
                DashEffect::Acknowledge(who) => {
                    let done = match state.acknowledge(&who) {
                        Ok(Some(name)) => Ok(name),
                        Ok(None) => Err(dash
                            .strings()
                            .fill(key::dash::KICK_UNKNOWN, &[("value", &who)])),
                        Err(e) => Err(e),
                    };
                    dash.update(DashMsg::Acknowledged(done));
                }
            }
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

/// The summary now; a database error keeps the last one on screen and goes to the log.
fn refreshed(state: &HostState) -> DashMsg {
    match state.summary() {
        Ok(summary) => DashMsg::Refreshed {
            summary: Box::new(summary),
            now_ms: now_ms(),
        },
        Err(e) => {
            log::warn(&format!("dashboard: {e}"));
            DashMsg::PaceDone(Err(e.to_string()))
        }
    }
}

/// Carries out a door action from the dashboard; what to say in the footer.
fn door(state: &HostState, action: DoorAction, s: &content::Strings) -> Result<String, String> {
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
    .map_err(|e| e.to_string())
}

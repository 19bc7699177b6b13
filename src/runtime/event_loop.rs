//! The event loop: terminal events, signals and effect results in; effects out; a redraw only
//! after something changed (no timers while idle).

use super::convert::to_msg;
use super::store_worker::{StoreCommand, StoreWorker};
use super::terminal::{TerminalGuard, Tui};
use crate::app::{App, Effect, Msg};
use crate::services::{Store, log};
use crossterm::event::EventStream;
use futures_util::StreamExt;
use tokio::signal::unix::{SignalKind, signal};

/// Runs the workshop until the learner quits or a signal ends it.
pub fn run(app: App, store: Store, mouse: bool) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the event loop: {e}"))?;
    let (guard, terminal) =
        TerminalGuard::enter(mouse).map_err(|e| format!("cannot set up the terminal: {e}"))?;
    let result = runtime.block_on(event_loop(app, store, terminal));
    drop(guard);
    result
}

async fn event_loop(mut app: App, store: Store, mut terminal: Tui) -> Result<(), String> {
    let (replies, mut results) = tokio::sync::mpsc::unbounded_channel::<Msg>();
    let worker = StoreWorker::spawn(store, replies)
        .map_err(|e| format!("cannot start the store thread: {e}"))?;
    let mut terminate = signal(SignalKind::terminate()).map_err(|e| e.to_string())?;
    let mut hangup = signal(SignalKind::hangup()).map_err(|e| e.to_string())?;
    let mut interrupt = signal(SignalKind::interrupt()).map_err(|e| e.to_string())?;
    let mut events = EventStream::new();
    let size = terminal.size().map_err(|e| e.to_string())?;
    app.update(Msg::Resized {
        width: size.width,
        height: size.height,
    });
    let mut outcome = draw(&mut terminal, &app);
    while outcome.is_ok() && !app.quitting {
        let msg = tokio::select! {
            event = events.next() => match event {
                Some(Ok(event)) => to_msg(&event),
                Some(Err(e)) => {
                    outcome = Err(format!("reading the terminal failed: {e}"));
                    None
                }
                None => break,
            },
            Some(msg) = results.recv() => Some(msg),
            _ = terminate.recv() => { log::info("SIGTERM: saving and leaving"); execute(&worker, app.quit()); break }
            _ = hangup.recv() => { log::info("SIGHUP: saving and leaving"); execute(&worker, app.quit()); break }
            _ = interrupt.recv() => { log::info("SIGINT: saving and leaving"); execute(&worker, app.quit()); break }
        };
        if let Some(msg) = msg {
            let effects = app.update(msg);
            execute(&worker, effects);
            outcome = draw(&mut terminal, &app);
        }
    }
    // Every save the learner saw must be on disk before the process ends.
    worker.finish();
    outcome
}

fn draw(terminal: &mut Tui, app: &App) -> Result<(), String> {
    terminal
        .draw(|frame| crate::ui::draw(frame, app))
        .map(drop)
        .map_err(|e| format!("drawing failed: {e}"))
}

fn execute(worker: &StoreWorker, effects: Vec<Effect>) {
    for effect in effects {
        match effect {
            Effect::Save(fact) => worker.send(StoreCommand::Save(fact)),
            Effect::ClearResults => worker.send(StoreCommand::Clear),
            Effect::Quit => {}
        }
    }
}

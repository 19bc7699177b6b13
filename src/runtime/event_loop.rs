//! The event loop: terminal events, signals and effect results in; effects out; a redraw only
//! after something changed (no timers while idle).

use super::convert::to_msg;
use super::sim_worker::SimWorker;
use super::store_worker::{StoreCommand, StoreWorker};
use super::terminal::{TerminalGuard, Tui};
use crate::app::{App, Effect, Msg};
use crate::services::{Store, log};
use crossterm::event::EventStream;
use futures_util::StreamExt;
use std::time::Duration;
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
    let worker = StoreWorker::spawn(store, replies.clone())
        .map_err(|e| format!("cannot start the store thread: {e}"))?;
    let runs = std::path::PathBuf::from(&app.info.data_dir).join("sim-runs");
    let sim = SimWorker::spawn(runs, replies)
        .map_err(|e| format!("cannot start the simulator thread: {e}"))?;
    let workers = Workers { store: worker, sim };
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
    let mut last_tick = tokio::time::Instant::now();
    while outcome.is_ok() && !app.quitting {
        // Frame ticks exist only while the simulator plays; otherwise this branch is never
        // armed and the loop sleeps until a key, a signal or a result arrives.
        let interval = app.tick_interval_ms();
        if interval.is_none() {
            last_tick = tokio::time::Instant::now();
        }
        let deadline = interval.map(|ms| last_tick + Duration::from_millis(u64::from(ms)));
        let frame = async move {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending::<()>().await,
            }
        };
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
            () = frame => {
                let now = tokio::time::Instant::now();
                let elapsed = now.duration_since(last_tick).as_millis().min(1_000) as u32;
                last_tick = now;
                Some(Msg::Tick { elapsed_ms: elapsed })
            }
            _ = terminate.recv() => { log::info("SIGTERM: saving and leaving"); execute(&workers, app.quit()); break }
            _ = hangup.recv() => { log::info("SIGHUP: saving and leaving"); execute(&workers, app.quit()); break }
            _ = interrupt.recv() => { log::info("SIGINT: saving and leaving"); execute(&workers, app.quit()); break }
        };
        if let Some(msg) = msg {
            let effects = app.update(msg);
            execute(&workers, effects);
            outcome = draw(&mut terminal, &app);
        }
    }
    // Every save the learner saw must be on disk before the process ends.
    workers.store.finish();
    workers.sim.finish();
    outcome
}

fn draw(terminal: &mut Tui, app: &App) -> Result<(), String> {
    terminal
        .draw(|frame| crate::ui::draw(frame, app))
        .map(drop)
        .map_err(|e| format!("drawing failed: {e}"))
}

/// The threads that carry out effects.
struct Workers {
    store: StoreWorker,
    sim: SimWorker,
}

fn execute(workers: &Workers, effects: Vec<Effect>) {
    for effect in effects {
        match effect {
            Effect::Save(fact) => workers.store.send(StoreCommand::Save(fact)),
            Effect::ClearResults => workers.store.send(StoreCommand::Clear),
            Effect::Sim(command) => workers.sim.send(command),
            Effect::Quit => {}
        }
    }
}

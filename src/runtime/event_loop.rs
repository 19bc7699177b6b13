//! The event loop: terminal events, signals and effect results in; effects out; a redraw only
//! after something changed (no timers while idle).

use super::convert::to_msg;
use super::executor::Executor;
use super::lab_worker::LabWorker;
use super::loop_setup::{LoopSetup, Signals};
use super::mail_worker::MailWorker;
use super::share_slot::ShareSlot;
use super::sim_worker::SimWorker;
use super::store_worker::{StoreSetup, StoreWorker};
use super::terminal::{TerminalGuard, Tui};
use super::terminal_input::{Input, TerminalInput};
use super::workshop_worker::WorkshopWorker;
use app::{App, Msg};
use content::{Content, Lang};
use services::log;
use services::{Config, Paths};
use std::sync::Arc;
use std::time::Duration;

/// Runs the workshop until the learner quits or a signal ends it. `setup` has caught the
/// signals that end it since the paths were known; the rest of it, and then the progress store
/// on its thread, follow the first frame (what the store holds arrives as a message).
pub fn run(
    mut app: App,
    mouse: bool,
    setup: LoopSetup,
    (paths, config): (Paths, Config),
) -> Result<(), String> {
    let (guard, mut terminal) =
        TerminalGuard::enter(mouse).map_err(|e| format!("cannot set up the terminal: {e}"))?;
    let first_frame = first_frame(&mut terminal, &mut app);
    // The rest of the set-up comes after that frame. A data folder that cannot be made ends
    // the workshop right after it.
    let result = setup.finish(&paths).and_then(|ready| {
        log::info(&format!(
            "start: lang={} data_dir={}",
            app.session.lang,
            paths.data_dir.display()
        ));
        if let Err(reason) = first_frame {
            release(terminal);
            return Err(reason);
        }
        // After the set-up, so the log that receives the panic is open.
        super::debug_panic::after_first_frame();
        ready.runtime.block_on(event_loop(
            app,
            terminal,
            ready.signals,
            ready.shared_folder,
            (paths, config),
        ))
    });
    drop(guard);
    result
}

/// Draws Home for the terminal's size: everything before it is what the learner waits for.
fn first_frame(terminal: &mut Tui, app: &mut App) -> Result<(), String> {
    let size = terminal.size().map_err(|e| e.to_string())?;
    app.update(Msg::Resized {
        width: size.width,
        height: size.height,
    });
    draw(terminal, app)
}

async fn event_loop(
    mut app: App,
    mut terminal: Tui,
    signals: Signals,
    shared_folder: bool,
    (paths, config): (Paths, Config),
) -> Result<(), String> {
    let Signals { mut ending, early } = signals;
    let (replies, mut results) = tokio::sync::mpsc::unbounded_channel::<Msg>();
    let mut outcome = Ok(());
    // Home is on the screen. Now the course behind it (Home drew from the UI strings alone),
    // the store and the other threads. Keys typed meanwhile wait in the terminal.
    let mut executor = start_workers(
        app.session.content.clone(),
        app.session.lang,
        shared_folder,
        (paths, config),
        replies,
    )?;
    let mut input = match TerminalInput::start() {
        Ok(input) => input,
        Err(reason) => {
            let unsaved = executor.finish();
            release(terminal);
            return Err(unsaved.unwrap_or(reason));
        }
    };
    let mut last_tick = tokio::time::Instant::now();
    // A signal that came before the runtime handled it (`platform/early_signals.rs`): the same
    // as one it reports below.
    if let Some(signal) = early.caught() {
        save_and_leave(&mut app, &mut executor, signal);
    }
    while outcome.is_ok() && !app.session.quitting {
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
            input = input.next() => match input {
                Input::Event(event) => to_msg(&event),
                Input::HungUp => { save_and_leave(&mut app, &mut executor, "the terminal hung up"); break }
                Input::Failed(e) => {
                    outcome = Err(format!("reading the terminal failed: {e}"));
                    None
                }
            },
            Some(msg) = results.recv() => Some(msg),
            () = frame => {
                let now = tokio::time::Instant::now();
                let elapsed = now.duration_since(last_tick).as_millis().min(1_000) as u32;
                last_tick = now;
                Some(Msg::Tick { elapsed_ms: elapsed })
            }
            signal = ending.next() => { save_and_leave(&mut app, &mut executor, signal); break }
        };
        if let Some(msg) = msg {
            let effects = app.update(msg);
            executor.run(effects);
            edit_pending_lab(&mut app, &mut executor, &input, &mut terminal);
            outcome = draw(&mut terminal, &app);
        }
    }
    // A store that could not open ended the loop: the store thread says why.
    let unsaved = executor.finish();
    release(terminal);
    unsaved.map_or(outcome, Err)
}

/// Starts the threads behind the screen in the order the progress file needs: the store
/// first (the mail and workshop threads open the file only after it has), the course parse,
/// then the workshop dispatcher, the lab, mail and simulator threads.
fn start_workers(
    content: Arc<Content>,
    lang: Lang,
    shared_folder: bool,
    (paths, config): (Paths, Config),
    replies: tokio::sync::mpsc::UnboundedSender<Msg>,
) -> Result<Executor, String> {
    let runs = paths.data_dir.join("sim-runs");
    // The mail and workshop threads open the progress file only after the store thread has.
    let (mail_gate, mail_ready) = std::sync::mpsc::channel();
    let (workshop_gate, workshop_ready) = std::sync::mpsc::channel();
    let (workshop_notify, workshop_wake) = std::sync::mpsc::channel();
    let db = paths.progress_db();
    let setup = StoreSetup {
        path: db.clone(),
        shared_folder,
        opened: vec![mail_gate, workshop_gate],
    };
    let store = StoreWorker::spawn(
        setup,
        content.clone(),
        replies.clone(),
        Some(workshop_notify.clone()),
    )
    .map_err(|e| format!("cannot start the store thread: {e}"))?;
    prepare_course(&content, lang);
    let workshop = WorkshopWorker::spawn(
        db,
        replies.clone(),
        workshop_ready,
        (workshop_notify, workshop_wake),
    )
    .map_err(|e| format!("cannot start the workshop dispatcher: {e}"))?;
    let lab = LabWorker::spawn(paths.data_dir.clone(), content.clone(), replies.clone())
        .map_err(|e| format!("cannot start the lab thread: {e}"))?;
    Ok(Executor {
        store,
        mail: MailWorker::spawn(paths, config, content.clone(), replies.clone(), mail_ready)
            .map_err(|e| format!("cannot start the mail thread: {e}"))?,
        share: ShareSlot::default(),
        sim: SimWorker::spawn(runs, content.clone(), replies.clone())
            .map_err(|e| format!("cannot start the simulator thread: {e}"))?,
        lab,
        pending_edit: None,
        content,
        replies,
        workshop,
    })
}

/// Opens the lab file the app asked to edit, if any, in the learner's editor, then tells the
/// app what became of it.
fn edit_pending_lab(
    app: &mut App,
    executor: &mut Executor,
    input: &TerminalInput,
    terminal: &mut Tui,
) {
    if let Some((lab_id, file)) = executor.pending_edit.take() {
        // The editor gets the terminal alone: the reader is held off meanwhile.
        let lent = input.lend();
        let result = super::lab_editor::edit(&file, app.session.options.mouse);
        drop(lent);
        // The editor drew over everything: an empty frame makes the next one whole
        // (`clear` would ask the terminal for the cursor and may time out).
        let _ = terminal.draw(|_| {});
        let effects = app.update(Msg::LabEdited { lab_id, result });
        executor.run(effects);
    }
}

/// Ends the workshop for `why` (a signal, a hung-up terminal): saves, as quitting does.
fn save_and_leave(app: &mut App, executor: &mut Executor, why: &str) {
    log::info(&format!("{why}: saving and leaving"));
    let effects = app.quit();
    executor.run(effects);
}

/// Lets go of the terminal without a write that could panic. ratatui's `Terminal` shows the
/// cursor when dropped and `eprintln!`s when that fails, and `eprintln!` panics when stderr is
/// the terminal that vanished (a closed window). The guard shows the cursor on every exit path
/// anyway, so the terminal is dropped only once the cursor is known to be shown; otherwise it
/// is forgotten (its buffers are freed as the process ends right after).
fn release(mut terminal: Tui) {
    if terminal.show_cursor().is_ok() {
        drop(terminal);
    } else {
        log::info("the terminal is gone; leaving without writing to it");
        std::mem::forget(terminal);
    }
}

/// Parses the course in `lang` and the simulator's files on a thread of its own, so the first
/// key that needs them finds them ready (or waits only for the rest of the parse: a second
/// reader of a part being parsed blocks until it is done).
fn prepare_course(content: &Arc<Content>, lang: Lang) {
    let content = content.clone();
    let started = std::thread::Builder::new()
        .name("content".into())
        .spawn(move || {
            let _ = content.course(lang);
            let _ = &*content.scenarios;
            let _ = &*content.captions;
            let _ = &*content.moments;
        });
    if let Err(e) = started {
        // The course is then parsed on its first use instead.
        log::warn(&format!("cannot start the content thread: {e}"));
    }
}

fn draw(terminal: &mut Tui, app: &App) -> Result<(), String> {
    terminal
        .draw(|frame| crate::ui::draw(frame, app))
        .map(drop)
        .map_err(|e| format!("drawing failed: {e}"))
}

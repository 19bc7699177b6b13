//! The event loop: terminal events, signals and effect results in; effects out; a redraw only
//! after something changed (no timers while idle).

use super::convert::to_msg;
use super::mail_worker::{MailCommand, MailWorker};
use super::store_worker::{StoreCommand, StoreWorker};
use super::terminal::{TerminalGuard, Tui};
use crate::app::{App, Effect, Msg};
use crate::content::{Content, Lang};
use crate::domain::quiz::Attempt;
use crate::services::{Config, Paths};
use crate::services::{Store, log};
use crossterm::event::EventStream;
use futures_util::StreamExt;
use tokio::signal::unix::{SignalKind, signal};

/// Runs the workshop until the learner quits or a signal ends it.
pub fn run(app: App, store: Store, mouse: bool, mail: (Paths, Config)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the event loop: {e}"))?;
    let (guard, terminal) =
        TerminalGuard::enter(mouse).map_err(|e| format!("cannot set up the terminal: {e}"))?;
    let result = runtime.block_on(event_loop(app, store, terminal, mail));
    drop(guard);
    result
}

/// The threads effects go to.
struct Workers {
    store: StoreWorker,
    mail: MailWorker,
}

async fn event_loop(
    mut app: App,
    store: Store,
    mut terminal: Tui,
    (paths, config): (Paths, Config),
) -> Result<(), String> {
    let (replies, mut results) = tokio::sync::mpsc::unbounded_channel::<Msg>();
    let content = app.content.clone();
    let worker = Workers {
        store: StoreWorker::spawn(store, replies.clone())
            .map_err(|e| format!("cannot start the store thread: {e}"))?,
        mail: MailWorker::spawn(paths, config, content.clone(), replies)
            .map_err(|e| format!("cannot start the mail thread: {e}"))?,
    };
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
            _ = terminate.recv() => { log::info("SIGTERM: saving and leaving"); execute(&worker, &content, app.quit()); break }
            _ = hangup.recv() => { log::info("SIGHUP: saving and leaving"); execute(&worker, &content, app.quit()); break }
            _ = interrupt.recv() => { log::info("SIGINT: saving and leaving"); execute(&worker, &content, app.quit()); break }
        };
        if let Some(msg) = msg {
            let effects = app.update(msg);
            execute(&worker, &content, effects);
            outcome = draw(&mut terminal, &app);
        }
    }
    // Every save the learner saw must be on disk before the process ends.
    worker.store.finish();
    // Queued mails stay in the outbox; the next start (or `mail retry`) sends them.
    worker.mail.finish();
    outcome
}

fn draw(terminal: &mut Tui, app: &App) -> Result<(), String> {
    terminal
        .draw(|frame| crate::ui::draw(frame, app))
        .map(drop)
        .map_err(|e| format!("drawing failed: {e}"))
}

fn execute(worker: &Workers, content: &Content, effects: Vec<Effect>) {
    for effect in effects {
        match effect {
            Effect::Save(fact) => worker.store.send(StoreCommand::Save(fact)),
            Effect::ClearResults => {
                worker.store.send(StoreCommand::Clear);
                worker.mail.send(MailCommand::ClearFiles);
            }
            Effect::Quit => {}
            Effect::StartAttempt => {
                // Question and option ids are the same in every language (content check), so
                // the order from either course fits both.
                let quiz = &content.course(Lang::default()).quiz;
                let attempt = Attempt::new(quiz, rand::random());
                worker.store.send(StoreCommand::StartAttempt(attempt));
            }
            Effect::SaveAnswer {
                attempt_id,
                question_id,
                chosen,
                correct,
                finished,
            } => worker.store.send(StoreCommand::SaveAnswer {
                attempt_id,
                question_id,
                chosen,
                correct,
                finished,
            }),
            Effect::SaveReport { lang } => worker.mail.send(MailCommand::SaveReport { lang }),
            Effect::RequestCode { address, lang } => {
                worker.mail.send(MailCommand::RequestCode { address, lang });
            }
            Effect::ConfirmCode {
                address,
                code,
                consent,
                lang,
            } => worker.mail.send(MailCommand::ConfirmCode {
                address,
                code,
                consent,
                lang,
            }),
        }
    }
}

//! The workshop dispatcher of the TUI: its own SQLite connection to the progress store and its
//! own thread, so neither the UI loop nor the store thread ever waits on the network. The store
//! thread wakes it after each save; while facts wait, it retries when the earliest is due
//! (backoff and jitter are in the outbox rows); with nothing waiting it sleeps without a timer.

use app::pace::{PaceNotice, RoomVotes};
use app::{Msg, WorkshopLine, WorkshopRequest};
use domain::workshop::{JoinRefusal, JoinUrl, PaceKind};
use services::Store;
use services::log;
use services::store::now_ms;
use services::trainee::{client::deadline_in, deliver, join, poll_paces};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// How long one delivery may take.
const DELIVERY_MS: u64 = 5_000;
/// How often a joined trainee asks the host for pacing commands (bounded: one small GET).
const PACE_POLL: Duration = Duration::from_secs(3);
/// How long one pacing request may take.
const PACE_POLL_MS: u64 = 2_000;

/// The newest pacing id seen, when the host was last asked and what it said about votes.
#[derive(Default)]
struct Pacing {
    after: Option<u64>,
    asked: Option<std::time::Instant>,
    votes: Option<RoomVotes>,
    /// The host's last word on this trainee's stuck signal.
    stuck: Option<StuckWord>,
}

/// The host's word on the trainee's stuck signal: None not stuck, Some(acknowledged).
#[derive(Clone, Copy, PartialEq, Eq)]
struct StuckWord(Option<bool>);

/// What one poll brought that the trainee's screen has not seen yet.
#[derive(Default)]
struct Polled {
    notice: Option<PaceNotice>,
    votes: Option<RoomVotes>,
    stuck: Option<StuckWord>,
}

impl Pacing {
    /// Asks the host for commands after the newest seen (at most once per [`PACE_POLL`]); the
    /// newest new one comes back. The first answer of a run brings the session's newest
    /// command, so a trainee who starts late still sees what the room is doing.
    fn poll(&mut self, store: &Store) -> Polled {
        if self.asked.is_some_and(|at| at.elapsed() < PACE_POLL) {
            return Polled::default();
        }
        self.asked = Some(std::time::Instant::now());
        let Some(member) = store.membership().ok().flatten() else {
            return Polled::default();
        };
        let after = self.after.unwrap_or(0);
        let reply = match poll_paces(&member, after, deadline_in(PACE_POLL_MS)) {
            Ok(reply) => reply,
            Err(e) => {
                log::warn(&format!("workshop pacing: {e}"));
                return Polled::default();
            }
        };
        let votes = RoomVotes::from(&reply);
        // Sent only when it changed: the screen redraws on every message.
        let votes = (self.votes.as_ref() != Some(&votes)).then(|| {
            self.votes = Some(votes.clone());
            votes
        });
        let word = StuckWord(reply.stuck);
        let stuck = (self.stuck != Some(word)).then(|| {
            self.stuck = Some(word);
            word
        });
        Polled {
            notice: self.newest(reply),
            votes,
            stuck,
        }
    }

    /// The newest command of a reply, noted as seen, with the room's answers for a reveal.
    fn newest(&mut self, reply: domain::workshop::pace::PaceReply) -> Option<PaceNotice> {
        let newest = reply.paces.into_iter().max_by_key(|p| p.id)?;
        self.after = Some(newest.id);
        let (distribution, second_distribution) = match &newest.kind {
            PaceKind::RevealDecision { decision } => (
                reply.distributions.get(decision).cloned(),
                reply.second_distributions.get(decision).cloned(),
            ),
            _ => (None, None),
        };
        Some(PaceNotice {
            pace: newest,
            distribution,
            second_distribution,
        })
    }
}

/// Handle to the dispatcher thread; dropping the sender ends it.
pub struct WorkshopWorker {
    /// Wakes the dispatcher (a fact was saved).
    pub notify: mpsc::Sender<()>,
    /// Join and leave requests from Home.
    pub requests: mpsc::Sender<WorkshopRequest>,
    thread: JoinHandle<()>,
}

impl WorkshopWorker {
    /// Hands a join or leave to the dispatcher and wakes it.
    pub fn send(&self, request: WorkshopRequest) {
        // The thread outlives the event loop that calls this; a send after it ended has
        // nobody left to answer and is dropped.
        let _ = self.requests.send(request);
        let _ = self.notify.send(());
    }
}

impl WorkshopWorker {
    /// Starts the dispatcher on the store at `path`; it reports each delivery to the UI.
    /// `store_ready` ends (a hang-up) once the store thread has opened and migrated the file:
    /// two first opens at once would race on creating it. `notify` wakes `wake`; the store
    /// thread holds a clone of it, made before this thread starts.
    pub fn spawn(
        path: PathBuf,
        replies: UnboundedSender<Msg>,
        store_ready: mpsc::Receiver<()>,
        (notify, wake): (mpsc::Sender<()>, mpsc::Receiver<()>),
    ) -> std::io::Result<WorkshopWorker> {
        let (requests, asked) = mpsc::channel::<WorkshopRequest>();
        let thread = std::thread::Builder::new()
            .name("workshop".into())
            .spawn(move || {
                let _ = store_ready.recv();
                let mut store = match Store::open(&path) {
                    Ok((store, _)) => store,
                    Err(e) => {
                        log::warn(&format!("workshop dispatcher: {e}"));
                        return;
                    }
                };
                // First round at start: say hello to the host and send what waits.
                let mut all = true;
                let mut pacing = Pacing::default();
                // What the last request that really went to the host showed; a round with
                // nothing due sends none and keeps it.
                let mut reachable = true;
                loop {
                    for request in asked.try_iter() {
                        all = true;
                        let _ = replies.send(membership(&mut store, request));
                    }
                    let joined = match round(&mut store, all, &mut reachable) {
                        Some(line) => {
                            let _ = replies.send(Msg::WorkshopUpdated(line));
                            true
                        }
                        None => false,
                    };
                    all = false;
                    if joined {
                        let polled = pacing.poll(&store);
                        if let Some(votes) = polled.votes {
                            let _ = replies.send(Msg::VotesUpdated(votes));
                        }
                        if let Some(StuckWord(stuck)) = polled.stuck {
                            let _ = replies.send(Msg::StuckUpdated(stuck));
                        }
                        if let Some(notice) = polled.notice {
                            let _ = replies.send(Msg::PaceReceived(notice));
                        }
                    }
                    let due = match store.next_due_ms() {
                        Ok(Some(due)) => Some(Duration::from_millis(
                            (due - now_ms()).clamp(10, 60_000) as u64,
                        )),
                        _ => None,
                    };
                    // While joined the host is asked for pacing now and then; not joined,
                    // the thread sleeps until a fact is saved.
                    let wait = if joined {
                        Some(due.map_or(PACE_POLL, |d| d.min(PACE_POLL)))
                    } else {
                        due
                    };
                    let signal = match wait {
                        Some(d) => wake.recv_timeout(d),
                        None => wake.recv().map_err(|_| RecvTimeoutError::Disconnected),
                    };
                    if matches!(signal, Err(RecvTimeoutError::Disconnected)) {
                        break;
                    }
                }
            })?;
        Ok(WorkshopWorker {
            notify,
            requests,
            thread,
        })
    }

    /// Lets the dispatcher end after its current round without waiting for it: quitting must
    /// not hang on an unreachable host, and what was not confirmed stays in the outbox.
    pub fn finish(self) {
        drop(self.notify);
        drop(self.thread);
    }
}

/// Joins, meets a host, asks it whether it takes a code, or leaves as Home asked. A join is
/// checked with the host before the membership is recorded: a wrong code, another certificate or no answer is a refusal the
/// dialog shows (see `trainee::join`).
fn membership(store: &mut Store, request: WorkshopRequest) -> Msg {
    match request {
        WorkshopRequest::Join { url, name } => Msg::WorkshopJoined((|| {
            let url = JoinUrl::parse(&url).map_err(|e| JoinRefusal::Local {
                reason: e.to_string(),
            })?;
            join::join(store, &url, &name, deadline_in(join::JOIN_MS)).map(|_| true)
        })()),
        WorkshopRequest::Observe { host, port, code } => Msg::WorkshopObserved(
            join::observe(&host, port, &code, deadline_in(join::JOIN_MS))
                .map(|seen| (seen.url.to_string(), seen.digits)),
        ),
        WorkshopRequest::Find { code, declined } => Msg::WorkshopObserved(
            join::find(&code, &declined, deadline_in(join::JOIN_MS))
                .map(|seen| (seen.url.to_string(), seen.digits)),
        ),
        WorkshopRequest::Hello { url } => Msg::WorkshopGreeted((|| {
            let url = JoinUrl::parse(&url).map_err(|e| JoinRefusal::Local {
                reason: e.to_string(),
            })?;
            let hello = join::hello(&url, deadline_in(join::JOIN_MS))?;
            Ok((url.to_string(), hello.session))
        })()),
        WorkshopRequest::Leave => {
            // What waits goes first, the leave last: the membership's outbox ends with it.
            Msg::WorkshopJoined(
                services::trainee::leave(store, deadline_in(LEAVE_FLUSH_MS))
                    .map(|_| false)
                    .map_err(|e| JoinRefusal::Local {
                        reason: e.to_string(),
                    }),
            )
        }
    }
}

/// How long leaving waits for the last facts to go.
const LEAVE_FLUSH_MS: u64 = 2_000;

/// One delivery round; None when not joined. `reachable` is the result of the last request
/// that really went to the host: a round that sent nothing leaves it as it was.
fn round(store: &mut Store, all: bool, reachable: &mut bool) -> Option<WorkshopLine> {
    let member = store.membership().ok()??;
    let delivery = deliver(store, deadline_in(DELIVERY_MS), all);
    let (pending, session) = match delivery {
        Ok(d) => {
            if d.attempted {
                *reachable = d.error.is_none();
            }
            (d.pending, d.session)
        }
        Err(e) => {
            log::warn(&format!("workshop delivery: {e}"));
            *reachable = false;
            (store.pending_count().unwrap_or(0), None)
        }
    };
    Some(WorkshopLine {
        session: session
            .or(member.session_name)
            .unwrap_or_else(|| member.url.authority()),
        reachable: *reachable,
        pending,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::Fact;

    /// Port 9 on loopback: nothing listens, so every request fails at once.
    const DEAD_HOST: &str = "https://127.0.0.1:9/join?code=ABCDEFGH&fp=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    #[test]
    fn a_round_that_sends_nothing_keeps_the_last_attempts_result() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut store, _) = Store::open(&dir.path().join("progress.db")).expect("opens");
        store
            .join(&JoinUrl::parse(DEAD_HOST).expect("url"), "Ada")
            .expect("join");
        store
            .save(&Fact::ChapterRead("intro".into()))
            .expect("save");
        let mut reachable = true;
        let line = round(&mut store, false, &mut reachable).expect("joined");
        assert!(
            !line.reachable,
            "the fact was due and the host did not answer"
        );
        // The failed fact now waits for its backoff: the next round sends nothing.
        let line = round(&mut store, false, &mut reachable).expect("joined");
        assert_eq!(line.pending, 1);
        assert!(
            !line.reachable,
            "nothing was sent, so the last real attempt stands"
        );
    }
}

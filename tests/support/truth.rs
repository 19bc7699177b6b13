//! The truth checker of the simulator's texts (issue 23): one finished run — its events, its
//! moments, its files — and every caption and moment checked against them. Each duration a
//! caption states must equal the interval the events record, each claim ("went to someone
//! else", "reachable again") must hold in the history, each time and count a moment names must
//! be on record (an event, the inbox row, the DLQ entry).

#![allow(dead_code)] // each test file uses a different part

use std::collections::HashMap;
use std::path::Path;

use queuelab::content::{Captions, Lang};
use queuelab::sim::moments::{self, Arg};
use queuelab::sim::scenario;
use queuelab::sim::{
    BrokerKind, Event, EventKind, Mode, Moment, MomentKind, RunConfig, RunReport, Simulation, Story,
};
use rusqlite::Connection;

/// What a finished run left behind: every event, every moment, the report, the files' facts.
pub struct Run {
    pub what: String,
    /// The broker the run spoke to: its captions use that broker's words.
    pub broker: BrokerKind,
    pub events: Vec<Event>,
    pub moments: Vec<Moment>,
    pub report: RunReport,
    /// Per message id, the `received_ms` of its inbox rows.
    pub inbox_received: HashMap<String, Vec<u64>>,
    /// Per message id, the delivery counts of its DLQ entries.
    pub dlq_counts: HashMap<String, Vec<u64>>,
}

/// Runs `id` headless as `sim` does (events, facts, story) and reads its files.
pub fn run(id: &str, mode: Mode, broker: BrokerKind, seed: u64, dir: &Path) -> Run {
    let sim = Simulation::new(RunConfig {
        scenario: scenario::find(id).expect("scenario"),
        mode,
        broker,
        seed,
        messages: None,
        dir: dir.join("run"),
    })
    .expect("new run");
    let what = format!("{id} {} {} seed {seed}", mode.as_str(), broker.as_str());
    play(sim, what, |_| {})
}

/// Plays `sim` to its end, calling `operator` after every step (to fix a cause, replay the
/// DLQ, ...), and reads its files.
pub fn play(mut sim: Simulation, what: String, mut operator: impl FnMut(&mut Simulation)) -> Run {
    let mut story = Story::for_run(&sim);
    let mut events = Vec::new();
    while sim.step().expect("step").is_some() {
        let (e, facts) = sim.last_step().expect("the event just stepped");
        story.observe(e, facts);
        events.push(e.clone());
        operator(&mut sim);
    }
    story.finish();
    let report = sim.report().expect("report");
    let paths = sim.paths().clone();
    let broker = sim.profile().kind;
    drop(sim);
    let pairs = |db: &Path, sql: &str| -> Vec<(String, u64)> {
        let conn = Connection::open(db).expect("open run file");
        let mut stmt = conn.prepare(sql).expect("prepare");
        stmt.query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
    };
    let group = |rows: Vec<(String, u64)>| {
        let mut map: HashMap<String, Vec<u64>> = HashMap::new();
        for (k, v) in rows {
            map.entry(k).or_default().push(v);
        }
        map
    };
    Run {
        what,
        broker,
        inbox_received: group(pairs(
            &paths.service_db,
            "SELECT message_id, received_ms FROM inbox",
        )),
        dlq_counts: group(pairs(
            &paths.broker_db,
            "SELECT message_id, delivery_count FROM dlq",
        )),
        events,
        moments: story.moments().to_vec(),
        report,
    }
}

fn is_receive(k: EventKind) -> bool {
    matches!(
        k,
        EventKind::Received
            | EventKind::ReceivedAgain
            | EventKind::ReceivedTwice
            | EventKind::LockLostAtBroker
    )
}

/// A consumer's receive call, whether it got a message or not.
fn is_receive_attempt(k: EventKind) -> bool {
    is_receive(k) || k == EventKind::ReceiveEmpty
}

/// A send to the broker that duplicate detection records.
fn is_send(k: EventKind) -> bool {
    matches!(
        k,
        EventKind::Published
            | EventKind::PublishedDedup
            | EventKind::DispatcherCrashedAfterPublish
            | EventKind::ApiDirectPublished
            | EventKind::DlqReplayed
            | EventKind::DlqReplayedNewId
    )
}

fn is_lock_end(k: EventKind) -> bool {
    matches!(k, EventKind::LockExpired | EventKind::VisibilityExpired)
}

fn is_effect(k: EventKind) -> bool {
    matches!(
        k,
        EventKind::Applied
            | EventKind::AppliedNaive
            | EventKind::AppliedOutOfOrder
            | EventKind::AppliedThenConnectionLost
            | EventKind::NaiveEffectThenConnectionLost
            | EventKind::TrapApplied
            | EventKind::TrapDuplicateEffectStays
            | EventKind::TrapEffectThenConnectionLost
            | EventKind::TwoPhaseFinished
    )
}

fn arg_ms(e: &Event, i: usize) -> Option<u64> {
    e.args.get(i).and_then(|a| a.parse().ok())
}

/// The claims a text can make about what happens next, in both languages.
const WENT_ELSEWHERE: [&str; 2] = ["went to someone else", "ging an jemand anderen"];
const REACHABLE_AGAIN: [&str; 2] = ["reachable again", "wieder erreichbar"];

/// Which checks to skip: the ones whose engine side is fixed on another branch.
#[derive(Debug, Clone, Copy, Default)]
pub struct Skip {
    /// "The broker is reachable again" while an overlapping outage still runs (issue 23
    /// item 8, fixed in the engine).
    pub overlapping_outage: bool,
}

/// Every falsehood in the run's captions (in `captions`, both languages) and moments.
pub fn falsehoods(run: &Run, captions: &Captions, texts: &Captions, skip: Skip) -> Vec<String> {
    let mut out = Vec::new();
    let of = |e: &Event, m: &str| e.message_id.as_deref() == Some(m);
    // The outages as intervals, to know when the broker is really up again.
    let outages: Vec<(u64, u64)> = run
        .events
        .iter()
        .filter(|e| e.kind == EventKind::BrokerDown)
        .filter_map(|e| Some((e.at_ms, e.at_ms + arg_ms(e, 0)?)))
        .collect();
    for e in &run.events {
        let at = e.at_ms;
        let say = |out: &mut Vec<String>, why: String| {
            out.push(format!(
                "{} #{} {} at {at} ms: {why}",
                run.what, e.index, e.kind
            ));
        };
        let msg = e.message_id.as_deref().unwrap_or("");
        let earlier = || run.events[..e.index as usize].iter().rev();
        match e.kind {
            EventKind::LockExpired | EventKind::VisibilityExpired => {
                // Ran out its duration after a receive or a renewal of this message (a
                // message can sit in the queue twice, as two copies with their own locks).
                let held = arg_ms(e, 1).unwrap_or(0);
                let started = earlier().any(|p| {
                    of(p, msg)
                        && p.at_ms + held == at
                        && (is_receive(p.kind)
                            || matches!(
                                p.kind,
                                EventKind::LockRenewed | EventKind::VisibilityExtended
                            ))
                });
                if !started {
                    say(
                        &mut out,
                        format!("says the lock ran {held} ms: no receive or renewal then"),
                    );
                }
            }
            EventKind::RenewalLimitReached | EventKind::VisibilityLimitReached => {
                let limit = arg_ms(e, 0).unwrap_or(0);
                let got =
                    earlier().find(|p| of(p, msg) && p.actor == e.actor && is_receive(p.kind));
                if got.is_none_or(|p| p.at_ms + limit > at) {
                    say(
                        &mut out,
                        format!("renewal limit {limit} ms not reached since the receive"),
                    );
                }
            }
            EventKind::AppliedThenConnectionLost => {
                // "Its lock runs out in N ms": the lock counts from this delivery's receive or
                // its last renewal, not from the lost connection.
                let left = arg_ms(e, 0).unwrap_or(0);
                let lock_end = earlier()
                    .find(|p| {
                        of(p, msg)
                            && p.actor == e.actor
                            && (is_receive(p.kind)
                                || matches!(
                                    p.kind,
                                    EventKind::LockRenewed | EventKind::VisibilityExtended
                                ))
                    })
                    .and_then(|p| {
                        if is_receive(p.kind) {
                            Some(p.at_ms + arg_ms(p, 1)?)
                        } else {
                            arg_ms(p, 0)
                        }
                    });
                if lock_end != Some(at + left) {
                    say(
                        &mut out,
                        format!("says the lock runs out in {left} ms, it ends at {lock_end:?}"),
                    );
                }
            }
            EventKind::Abandoned => {
                // "This instance backs off N ms before its next receive".
                let backoff = arg_ms(e, 1).unwrap_or(0);
                let next = run.events[e.index as usize + 1..]
                    .iter()
                    .find(|p| p.actor == e.actor && is_receive_attempt(p.kind));
                if let Some(p) = next.filter(|p| p.at_ms < at + backoff) {
                    say(
                        &mut out,
                        format!(
                            "says it backs off {backoff} ms, it receives again at {}",
                            p.at_ms
                        ),
                    );
                }
            }
            EventKind::RetryDelayed => {
                // "Delayed retry in N ms": the message stays invisible that long.
                // Only this copy: SQS standard may hold a second copy with its own row.
                let delay = arg_ms(e, 0).unwrap_or(0);
                let row = |p: &Event| p.args.get(2).cloned();
                let copy = earlier()
                    .find(|p| of(p, msg) && p.actor == e.actor && is_receive(p.kind))
                    .and_then(row);
                let early = run.events[e.index as usize + 1..]
                    .iter()
                    .take_while(|p| p.at_ms < at + delay)
                    .find(|p| of(p, msg) && is_receive(p.kind) && row(p) == copy);
                if let Some(p) = early {
                    say(
                        &mut out,
                        format!("says retry in {delay} ms, received again at {}", p.at_ms),
                    );
                }
            }
            EventKind::ReplayDroppedDuplicate => {
                // "Same message id, seen N ms ago": a send of that MessageId then.
                let id = e.args.first().map_or("", String::as_str);
                let ago = arg_ms(e, 1).unwrap_or(0);
                let sent = earlier().any(|p| {
                    p.at_ms + ago == at
                        && is_send(p.kind)
                        && (p.message_id.as_deref() == Some(id)
                            || p.args.iter().any(|a| a.split(' ').any(|w| w == id)))
                });
                if !sent {
                    say(
                        &mut out,
                        format!("says {id} was seen {ago} ms ago, no send of it then"),
                    );
                }
            }
            EventKind::BrokerDown => {
                // The outage the caption announces ends with a "reachable again" event at the
                // end of all outages overlapping it.
                let mut end = at + arg_ms(e, 0).unwrap_or(0);
                while let Some(later) = outages
                    .iter()
                    .filter(|(s, x)| *s <= end && *x > end)
                    .map(|(_, x)| *x)
                    .max()
                {
                    end = later;
                }
                let finished = run.events.last().is_some_and(|l| l.at_ms >= end);
                let up = run
                    .events
                    .iter()
                    .any(|u| u.kind == EventKind::BrokerUp && u.at_ms == end);
                if finished && !up && !skip.overlapping_outage {
                    say(
                        &mut out,
                        format!("no 'reachable again' at the outage's end {end} ms"),
                    );
                }
            }
            _ => {}
        }
        for lang in Lang::ALL {
            let text = moments::caption(captions, lang, e);
            if WENT_ELSEWHERE.iter().any(|c| text.contains(c)) {
                let other = run.events[e.index as usize..]
                    .iter()
                    .any(|l| of(l, msg) && is_receive(l.kind) && l.actor != e.actor);
                if !other {
                    say(
                        &mut out,
                        format!("'{text}' but nobody else received it later"),
                    );
                }
            }
            // A fault's name is its CLI id (`consumer-slower-than-lock`), not narration.
            let narrated = e.kind != EventKind::FaultArmed;
            if let Some(word) = other_brokers_word(run.broker, &text).filter(|_| narrated) {
                say(
                    &mut out,
                    format!("'{text}' names '{word}', not {}'s", run.broker.as_str()),
                );
            }
            if REACHABLE_AGAIN.iter().any(|c| text.contains(c))
                && !skip.overlapping_outage
                && outages.iter().any(|(s, x)| *s <= at && *x > at)
            {
                say(&mut out, format!("'{text}' while an outage still runs"));
            }
        }
    }
    for m in &run.moments {
        moment_falsehoods(run, m, texts, &mut out);
    }
    count_falsehoods(run, &mut out);
    out
}

/// Words of Service Bus's operations (peek-lock, lock, complete, abandon, sessions), in both
/// languages, that an SQS caption must not use.
const SERVICE_BUS_WORDS: [&str; 13] = [
    "lock",
    "locks",
    "locked",
    "complete",
    "completed",
    "completion",
    "abandon",
    "abandoned",
    "session",
    "sessionid",
    "abschließen",
    "abgeschlossen",
    "abschluss",
];
/// Words of SQS's operations (visibility timeout, receipt handle, `DeleteMessage`,
/// `ChangeMessageVisibility`, redrive) that a Service Bus caption must not use.
const SQS_WORDS: [&str; 9] = [
    "sqs",
    "visibility",
    "receipt",
    "receipthandle",
    "deletemessage",
    "changemessagevisibility",
    "redrive",
    "redrove",
    "messagegroupid",
];

/// The first word in `text` that belongs to the other broker's operations, if any. SQL's
/// `SKIP LOCKED` is the database's, not a broker's.
pub fn other_brokers_word(broker: BrokerKind, text: &str) -> Option<String> {
    let words: &[&str] = match broker {
        BrokerKind::Asb => &SQS_WORDS,
        BrokerKind::Sqs => &SERVICE_BUS_WORDS,
    };
    let text = text.to_lowercase().replace("skip locked", "");
    text.split(|c: char| !c.is_alphanumeric())
        .find(|w| words.contains(w))
        .map(str::to_owned)
}

fn ms(m: &Moment, i: usize) -> Option<u64> {
    match m.args.get(i) {
        Some(Arg::Ms(v)) => Some(*v),
        _ => None,
    }
}

fn text(m: &Moment, i: usize) -> Option<&str> {
    match m.args.get(i) {
        Some(Arg::Text(t)) => Some(t),
        _ => None,
    }
}

fn moment_falsehoods(run: &Run, m: &Moment, texts: &Captions, out: &mut Vec<String>) {
    let mut say = |why: String| {
        out.push(format!(
            "{} moment {} ({}) at event {}: {why}",
            run.what,
            m.kind.as_str(),
            m.text,
            m.event
        ));
    };
    let Some(now) = run.events.get(m.event as usize) else {
        say("no such event".into());
        return;
    };
    if now.at_ms != m.at_ms || run.events[m.cause_event as usize].at_ms != m.cause_ms {
        say("its times are not its events' times".into());
    }
    for lang in Lang::ALL {
        let shown = moments::render(texts, lang, m);
        if shown.contains('{') || WENT_ELSEWHERE.iter().any(|c| shown.contains(c)) {
            let other = run.events[m.event as usize..].iter().any(|l| {
                l.message_id.as_deref() == Some(&m.message_id)
                    && is_receive(l.kind)
                    && l.actor != now.actor
            });
            if shown.contains('{') || !other {
                say(format!("{lang:?}: {shown}"));
            }
        }
    }
    let until = &run.events[..=m.event as usize];
    let event_at = |t: u64, pick: fn(EventKind) -> bool| {
        until.iter().any(|e| {
            e.at_ms == t && pick(e.kind) && e.message_id.as_deref() == Some(m.message_id.as_str())
        })
    };
    let lock_end_at = |i| ms(m, i).is_some_and(|t| event_at(t, is_lock_end));
    let effect_at = |i| ms(m, i).is_some_and(|t| event_at(t, is_effect));
    match m.text {
        "moment.redelivered.lock" => {
            let delivery: Option<u32> = text(m, 5).and_then(|d| d.parse().ok());
            let received = delivery.is_some_and(|d| {
                until.iter().any(|e| {
                    e.message_id.as_deref() == Some(m.message_id.as_str())
                        && is_receive(e.kind)
                        && e.args.first().and_then(|a| a.parse().ok()) == Some(d)
                })
            });
            if !lock_end_at(4) || !received {
                say(format!(
                    "no lock of delivery {delivery:?} ended at {:?}",
                    ms(m, 4)
                ));
            }
        }
        "moment.lock-lost" | "moment.lock-lost.check" if !lock_end_at(4) => {
            say(format!("no lock ended at {:?}", ms(m, 4)));
        }
        "moment.lock-lost" | "moment.lock-lost.untimed" if now.kind != EventKind::LockLost => {
            say(format!(
                "says a settle was tried, but the event is {}",
                now.kind
            ));
        }
        "moment.lock-lost.check" | "moment.lock-lost.check-untimed"
            if now.kind != EventKind::LockCheckFailed =>
        {
            say(format!(
                "says the lock check failed, but the event is {}",
                now.kind
            ));
        }
        "moment.duplicate-effect.connection-naive" | "moment.duplicate-effect.connection-trap"
            if !effect_at(1) || !lock_end_at(3) =>
        {
            say(format!(
                "first effect {:?} / lock end {:?} not on record",
                ms(m, 1),
                ms(m, 3)
            ));
        }
        "moment.duplicate-effect.race"
        | "moment.duplicate-effect.swept"
        | "moment.duplicate-effect.trap-stays"
        | "moment.duplicate-effect.other"
            if !effect_at(1) =>
        {
            say(format!("no effect of the message at {:?}", ms(m, 1)));
        }
        "moment.prevented-duplicate.check" | "moment.prevented-duplicate.unique" => {
            // The time the inbox row was written, as the row itself records it.
            let rows = run.inbox_received.get(&m.message_id);
            let t = ms(m, 3);
            if rows.is_some_and(|r| t.is_none_or(|t| !r.contains(&t))) {
                say(format!("names {t:?}, the inbox rows say {rows:?}"));
            }
        }
        "moment.dead-lettered" | "moment.dead-lettered-redrive" => {
            let n: Option<u64> = text(m, 2).and_then(|d| d.parse().ok());
            let stored = run.dlq_counts.get(&m.message_id);
            if stored.is_none_or(|s| n.is_none_or(|n| !s.contains(&n))) {
                say(format!(
                    "says delivery count {n:?}, the DLQ stores {stored:?}"
                ));
            }
        }
        "moment.replayed" | "moment.replayed.new-id" => {
            let dead = |k| {
                matches!(
                    k,
                    EventKind::DeadLettered
                        | EventKind::Redriven
                        | EventKind::DeadLetteredByConsumer
                        | EventKind::ForwardedToDlq
                )
            };
            if ms(m, 2).is_none_or(|t| !event_at(t, dead)) {
                say(format!("not dead-lettered at {:?}", ms(m, 2)));
            }
        }
        "moment.out-of-order" => {
            let earlier: Option<i64> = text(m, 1).and_then(|o| o.parse().ok());
            let effect_before = earlier.is_none_or(|o| {
                let id = format!("msg-{o:06}");
                run.events[..m.event as usize]
                    .iter()
                    .any(|e| is_effect(e.kind) && e.message_id.as_deref() == Some(id.as_str()))
            });
            if earlier.is_none_or(|o| o >= m.order) || effect_before {
                say(format!(
                    "order {} did not overtake order {earlier:?}",
                    m.order
                ));
            }
        }
        _ => {}
    }
}

/// Every count the story shows equals the count the report gives.
fn count_falsehoods(run: &Run, out: &mut Vec<String>) {
    let n = |k: MomentKind| run.moments.iter().filter(|m| m.kind == k).count() as u64;
    let metrics = &run.report.metrics;
    let stale_deletes = run
        .events
        .iter()
        .filter(|e| e.kind == EventKind::DeletedStaleHandle)
        .count() as u64;
    let pairs = [
        (
            "dead-lettered",
            n(MomentKind::DeadLettered),
            metrics.dead_lettered,
        ),
        (
            "duplicate-effect",
            n(MomentKind::DuplicateEffect),
            metrics.duplicate_effects,
        ),
        ("lost-order", n(MomentKind::LostOrder), metrics.lost),
        // A stale SQS delete counts as a lost hold but refuses nothing, so it has no lock-lost
        // moment: its own caption tells it.
        (
            "lock-lost",
            n(MomentKind::LockLost) + stale_deletes,
            metrics.lock_lost,
        ),
    ];
    for (kind, moments, metric) in pairs {
        if moments != metric {
            out.push(format!(
                "{}: {moments} {kind} moments, metric {metric}",
                run.what
            ));
        }
    }
    if run.report.invariants.out_of_order > 0 && n(MomentKind::OutOfOrder) == 0 {
        out.push(format!(
            "{}: {} orders out of order and no moment shows it",
            run.what, run.report.invariants.out_of_order
        ));
    }
}

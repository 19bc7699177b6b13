//! The moments' claims: each time and count a moment names is on record (an event, the inbox
//! row, the DLQ entry), and who it says received a message did.

use content::{Captions, Lang};
use queuelab_sim::moments::{self, Arg};
use queuelab_sim::{EventKind, Moment};

use super::Run;
use super::events::WENT_ELSEWHERE;
use super::kinds::{is_effect, is_lock_end, is_receive};

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

#[allow(
    clippy::too_many_lines,
    reason = "one rule per moment kind, read as one list beside the moments it checks"
)]
pub(super) fn moment_falsehoods(run: &Run, m: &Moment, texts: &Captions, out: &mut Vec<String>) {
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
    // The lock of one receive (its token) ended at the time the moment names in arg `i`.
    let lock_of_ended_at = |token: Option<&str>, i| {
        ms(m, i).is_some_and(|t| {
            until.iter().any(|e| {
                e.at_ms == t && is_lock_end(e.kind) && e.args.get(2).map(String::as_str) == token
            })
        })
    };
    // The newest receive of the message by the moment's actor: its lock is the one it lost.
    let own_token = until
        .iter()
        .rev()
        .find(|e| {
            e.message_id.as_deref() == Some(m.message_id.as_str())
                && is_receive(e.kind)
                && e.actor == now.actor
        })
        .and_then(|e| e.args.get(3))
        .map(String::as_str);
    let effect_at = |i| ms(m, i).is_some_and(|t| event_at(t, is_effect));
    match m.text {
        "moment.redelivered.lock" => {
            let delivery: Option<u32> = text(m, 5).and_then(|d| d.parse().ok());
            // The lock that ended is one of a receive of that delivery, not a later one's.
            let received = delivery.is_some_and(|d| {
                until.iter().any(|e| {
                    e.message_id.as_deref() == Some(m.message_id.as_str())
                        && is_receive(e.kind)
                        && e.args.first().and_then(|a| a.parse().ok()) == Some(d)
                        && lock_of_ended_at(e.args.get(3).map(String::as_str), 4)
                })
            });
            if !lock_end_at(4) || !received {
                say(format!(
                    "no lock of delivery {delivery:?} ended at {:?}",
                    ms(m, 4)
                ));
            }
        }
        "moment.lock-lost" | "moment.lock-lost.check" | "moment.lock-lost.call"
            if !lock_of_ended_at(own_token, 4) =>
        {
            say(format!(
                "no lock of {}'s delivery ({own_token:?}) ended at {:?}",
                now.actor,
                ms(m, 4)
            ));
        }
        "moment.lock-lost.call" | "moment.lock-lost.call-untimed"
            if now.kind != EventKind::LockLost
                || queuelab_sim::RefusedCall::of(now) == queuelab_sim::RefusedCall::Complete =>
        {
            say(format!(
                "names a refused call other than a settle, but the event is {} {:?}",
                now.kind, now.args
            ));
        }
        "moment.lock-lost" | "moment.lock-lost.untimed"
            if now.kind != EventKind::LockLost
                || queuelab_sim::RefusedCall::of(now) != queuelab_sim::RefusedCall::Complete =>
        {
            say(format!(
                "says a settle was tried, but the event is {} {:?}",
                now.kind, now.args
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

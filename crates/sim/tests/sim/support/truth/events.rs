//! The captions' claims about the events: each duration a caption states equals the interval
//! the events record, "went to someone else" has a later receive by another instance,
//! "reachable again" comes after the last overlapping outage, and the words are the run's
//! broker's.

use content::{Captions, Lang};
use queuelab_sim::moments;
use queuelab_sim::{Event, EventKind};

use super::kinds::{arg_ms, is_receive, is_receive_attempt, is_send};
use super::words::other_brokers_word;
use super::{Run, Skip};

/// The claims a text can make about what happens next, in both languages.
pub(super) const WENT_ELSEWHERE: [&str; 2] = ["went to someone else", "ging an jemand anderen"];
pub(super) const REACHABLE_AGAIN: [&str; 2] = ["reachable again", "wieder erreichbar"];

/// Every falsehood in the run's captions (in `captions`, both languages): durations and
/// claims against the events, and the run's broker's words.
#[allow(
    clippy::too_many_lines,
    reason = "one rule per event kind, read as one list beside the captions it checks"
)]
pub(super) fn caption_falsehoods(
    run: &Run,
    captions: &Captions,
    skip: Skip,
    out: &mut Vec<String>,
) {
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
                        out,
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
                        out,
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
                        out,
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
                        out,
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
                        out,
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
                        out,
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
                        out,
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
                    say(out, format!("'{text}' but nobody else received it later"));
                }
            }
            // A fault's name is its CLI id (`consumer-slower-than-lock`), not narration.
            let narrated = e.kind != EventKind::FaultArmed;
            if let Some(word) = other_brokers_word(run.broker, &text).filter(|_| narrated) {
                say(
                    out,
                    format!("'{text}' names '{word}', not {}'s", run.broker.as_str()),
                );
            }
            if REACHABLE_AGAIN.iter().any(|c| text.contains(c))
                && !skip.overlapping_outage
                && outages.iter().any(|(s, x)| *s <= at && *x > at)
            {
                say(out, format!("'{text}' while an outage still runs"));
            }
        }
    }
}

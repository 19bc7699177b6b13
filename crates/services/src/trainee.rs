//! The trainee's dispatcher: delivers the workshop outbox to the host at least once. A failed
//! delivery pushes the events back with backoff and jitter; the host's unique index on the event
//! id turns a redelivery into a recognised duplicate, never a second count.

pub mod client;
pub mod join;

use crate::store::{Membership, Store};
use domain::workshop::wire::{BatchReply, EventBatch, MAX_BATCH};
use std::time::Instant;

/// What one delivery run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Delivery {
    /// Events the host confirmed (stored or recognised as duplicates).
    pub delivered: u32,
    /// Events the host refused (named with their reasons in `rejected`).
    pub rejected: Vec<String>,
    /// Events still waiting.
    pub pending: u32,
    /// Why delivery stopped early, if it did.
    pub error: Option<String>,
    /// The session name the host reported.
    pub session: Option<String>,
    /// The name the room shows for the trainee, as the host last said.
    pub name: Option<String>,
    /// Whether a request went to the host in this run (false when nothing was due): only
    /// then do `error` and `session` say whether the host is reachable now.
    pub attempted: bool,
}

/// Delivers pending events until none is left or `deadline` passes. `all` ignores the backoff
/// (an explicit "deliver now" from a short command); otherwise only due events go.
pub fn deliver(store: &mut Store, deadline: Instant, all: bool) -> Result<Delivery, String> {
    let mut out = Delivery::default();
    let Some(member) = store.membership().map_err(|e| e.to_string())? else {
        return Ok(out);
    };
    // An explicit delivery with nothing waiting still says hello: it registers the trainee,
    // checks the code and learns the session name.
    let mut hello = all;
    loop {
        let due_by = (!all).then(crate::store::now_ms);
        let batch = store
            .pending_events(MAX_BATCH, due_by)
            .map_err(|e| e.to_string())?;
        if (batch.is_empty() && !hello) || Instant::now() >= deadline {
            break;
        }
        hello = false;
        out.attempted = true;
        let ids: Vec<String> = batch.iter().map(|q| q.event.id.clone()).collect();
        match send(
            &member,
            batch.into_iter().map(|q| q.event).collect(),
            deadline,
        ) {
            Ok(reply) => {
                store.mark_delivered(&ids).map_err(|e| e.to_string())?;
                out.delivered += reply.stored + reply.duplicates;
                out.rejected.extend(
                    reply
                        .rejected
                        .into_iter()
                        .map(|r| format!("{}: {}", r.id, r.reason)),
                );
                if member.session_name.as_deref() != Some(reply.session.as_str()) {
                    store
                        .set_session_name(&reply.session)
                        .map_err(|e| e.to_string())?;
                }
                out.session = Some(reply.session);
                if reply.name.is_some() {
                    out.name = reply.name;
                }
            }
            Err(e) => {
                store.mark_failed(&ids, &e).map_err(|e| e.to_string())?;
                out.error = Some(e);
                break;
            }
        }
    }
    out.pending = store.pending_count().map_err(|e| e.to_string())?;
    Ok(out)
}

fn send(
    member: &Membership,
    events: Vec<domain::workshop::Event>,
    deadline: Instant,
) -> Result<BatchReply, String> {
    let batch = EventBatch {
        code: member.url.code.clone(),
        trainee: member.trainee_id.clone(),
        token: member.token.clone(),
        name: member.name.clone(),
        events,
    };
    let body = serde_json::to_vec(&batch).map_err(|e| e.to_string())?;
    let reply = client::request(&member.url, "POST", "/api/events", None, &body, deadline)?
        .accepted("host")?;
    serde_json::from_slice(&reply.body)
        .map_err(|e| format!("the host's answer is not a delivery receipt: {e}"))
}

/// Leaves the session: tells the host (the room no longer counts the trainee), hands over
/// what waits until `deadline`, then ends the membership and its outbox. True when there was
/// a membership to end. Whatever the host did not receive by then stays unsaid: the trainee
/// is gone here either way.
pub fn leave(store: &mut Store, deadline: Instant) -> Result<bool, String> {
    if store.membership().map_err(|e| e.to_string())?.is_some() {
        store
            .queue_event(&domain::workshop::EventKind::Left)
            .map_err(|e| e.to_string())?;
        let _ = deliver(store, deadline, true);
    }
    store.leave().map_err(|e| e.to_string())
}

/// Asks the host for the pacing commands after `after` (the join code is the credential, the
/// trainee's token for what concerns this trainee).
pub fn poll_paces(
    member: &Membership,
    after: u64,
    deadline: Instant,
) -> Result<domain::workshop::pace::PaceReply, String> {
    // The trainee's id asks whether the instructor saw its stuck signal.
    let path = format!("/api/pace?after={after}&trainee={}", member.trainee_id);
    // The token after the join code: the host answers about this trainee to its own client.
    let bearer = format!("{}:{}", member.url.code, member.token);
    let reply = client::request(&member.url, "GET", &path, Some(&bearer), b"", deadline)?
        .accepted("host")?;
    serde_json::from_slice(&reply.body)
        .map_err(|e| format!("the host's pacing answer is not readable: {e}"))
}

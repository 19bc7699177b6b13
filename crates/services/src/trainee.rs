//! The trainee's dispatcher: delivers the workshop outbox to the host at least once. A failed
//! delivery pushes the events back with backoff and jitter; the host's unique index on the event
//! id turns a redelivery into a recognised duplicate, never a second count.

pub mod client;
pub mod join;

use crate::host_client::{HostClient, HostError};
use crate::store::{Membership, Store, StoreError};
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
    pub error: Option<HostError>,
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
pub fn deliver(store: &mut Store, deadline: Instant, all: bool) -> Result<Delivery, StoreError> {
    let mut out = Delivery::default();
    let Some(member) = store.membership()? else {
        return Ok(out);
    };
    // An explicit delivery with nothing waiting still says hello: it registers the trainee,
    // checks the code and learns the session name.
    let mut hello = all;
    loop {
        let due_by = (!all).then(crate::store::now_ms);
        let batch = store.pending_events(MAX_BATCH, due_by)?;
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
                store.mark_delivered(&ids)?;
                out.delivered += reply.stored + reply.duplicates;
                out.rejected.extend(
                    reply
                        .rejected
                        .into_iter()
                        .map(|r| format!("{}: {}", r.id, r.reason)),
                );
                if member.session_name.as_deref() != Some(reply.session.as_str()) {
                    store.set_session_name(&reply.session)?;
                }
                out.session = Some(reply.session);
                if reply.name.is_some() {
                    out.name = reply.name;
                }
            }
            Err(e) => {
                store.mark_failed(&ids, &e.to_string())?;
                out.error = Some(e);
                break;
            }
        }
    }
    out.pending = store.pending_count()?;
    Ok(out)
}

fn send(
    member: &Membership,
    events: Vec<domain::workshop::Event>,
    deadline: Instant,
) -> Result<BatchReply, HostError> {
    let batch = EventBatch {
        code: member.url.code.clone(),
        trainee: member.trainee_id.clone(),
        token: member.token.clone(),
        name: member.name.clone(),
        events,
    };
    HostClient::new(member.url.clone()).deliver(&batch, deadline)
}

/// Leaves the session: tells the host (the room no longer counts the trainee), hands over
/// what waits until `deadline`, then ends the membership and its outbox. True when there was
/// a membership to end. Whatever the host did not receive by then stays unsaid: the trainee
/// is gone here either way.
pub fn leave(store: &mut Store, deadline: Instant) -> Result<bool, StoreError> {
    if store.membership()?.is_some() {
        store.queue_event(&domain::workshop::EventKind::Left)?;
        let _ = deliver(store, deadline, true);
    }
    store.leave()
}

/// Asks the host for the pacing commands after `after` (the join code is the credential, the
/// trainee's token for what concerns this trainee: whether the instructor saw its stuck
/// signal, its second votes).
pub fn poll_paces(
    member: &Membership,
    after: u64,
    deadline: Instant,
) -> Result<domain::workshop::pace::PaceReply, HostError> {
    HostClient::new(member.url.clone()).poll_paces(
        &member.trainee_id,
        &member.token,
        after,
        deadline,
    )
}

//! What a lab handler's side-effect functions do in the engine, applied right after the
//! statement that called them and outside its transaction: `charge(:key, :amount)` charges
//! at the payment provider (idempotent by key there), `dead_letter(:reason)` moves the
//! delivery to the DLQ with the handler's own reason through the broker profile's path. Also
//! the lab invariants these decisions can break ([`Breach`]).

use super::action::{Action, Delivery};
use super::payload::Failure;
use super::{SimError, Simulation, SqlContext};
use crate::fault::Fault;
use crate::lab::{Breach, Section, Statement, TrailEntry};
use crate::model::{Actor, Event, EventKind, Outcome, Stage};
use content::LabInvariant;

/// The provider forgets a key it has kept longer than its retention (the charge stays).
const SQL_FORGET_KEY: &str =
    "UPDATE charges SET idempotency_key = NULL WHERE idempotency_key = ?1 AND performed_ms < ?2";

/// What the payment provider answered a lab handler's `charge()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProviderAnswer {
    /// Charged, or the first charge of a key it knows.
    Answered,
    /// It charged, and then its answer timed out.
    TimedOut,
    /// 409: a call with the same key is still running.
    InProgress,
}

/// What the SQL view shows for the handler's `dead_letter` call.
const LAB_DEAD_LETTER_SQL: &[&str] = &["-- @handle (your lab file): dead_letter(:reason)"];

impl Simulation {
    /// The lab invariants the run's handler broke, in time order (empty outside a lab run).
    pub fn lab_breaches(&self) -> &[Breach] {
        self.lab.as_ref().map_or(&[], |l| l.breaches.as_slice())
    }

    /// From now on the learner's handler gets the messages the consumer cannot read, with
    /// `:payload_error` set, and decides about them (lab 6).
    pub fn lab_hand_unreadable_to_handler(&mut self) {
        if let Some(l) = &mut self.lab {
            l.unreadable_to_handler = true;
        }
    }

    /// Whether the handler decides about an unreadable message.
    pub(crate) fn lab_decides_unreadable(&self) -> bool {
        self.lab.as_ref().is_some_and(|l| l.unreadable_to_handler)
    }

    /// Where in the learner's file the current `@handle` statement stands.
    pub(crate) fn trail_entry(&self, c: u8, d: &Delivery, stmt: &Statement) -> TrailEntry {
        TrailEntry {
            at_ms: self.clock.now,
            message_id: d.message_id.clone(),
            instance: Simulation::instance(c),
            section: Section::Handle,
            line: stmt.line,
            column: stmt.column,
        }
    }

    /// Notes a broken lab invariant (once per invariant and message: every retry of the same
    /// poison message is the same mistake).
    pub(crate) fn breach(&mut self, invariant: LabInvariant, d: &Delivery, statement: TrailEntry) {
        self.breach_of(invariant, d.order_id, &d.message_id, statement);
    }

    pub(crate) fn breach_of(
        &mut self,
        invariant: LabInvariant,
        order: i64,
        message_id: &str,
        statement: TrailEntry,
    ) {
        if let Some(l) = &mut self.lab {
            let known = l
                .breaches
                .iter()
                .any(|b| b.invariant == invariant && b.message_id == message_id);
            if !known {
                l.breaches.push(Breach {
                    invariant,
                    order,
                    message_id: message_id.to_owned(),
                    statement,
                });
            }
        }
    }

    /// At the end of a run of a lab whose effect is a charge: every order that took effect
    /// must have been charged at the provider, else `charge-missing` names the statement that
    /// wrote its effect.
    pub fn lab_check_charges(&mut self) -> Result<(), SimError> {
        let Some(lab) = &self.lab else {
            return Ok(());
        };
        let handle_line = lab.sql.section_line(Section::Handle);
        let effects: Vec<(i64, String)> = self
            .conns
            .sweeper
            .prepare(
                "SELECT order_id, MIN(message_id) FROM effect_ledger GROUP BY order_id ORDER BY MIN(id)",
            )
            .and_then(|mut st| st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
            .ctx(Actor::Consumer(0), "read the effects")?;
        let charged: std::collections::HashSet<i64> = self
            .conns
            .provider
            .prepare("SELECT DISTINCT order_id FROM charges")
            .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
            .ctx(Actor::Provider, "read the charges")?;
        let mut missing = Vec::new();
        for (order, message_id) in effects {
            if charged.contains(&order) {
                continue;
            }
            // Only @handle writes effects in a charged lab.
            let statement = lab.trail.newest_or_header(
                &message_id,
                Section::Handle,
                handle_line,
                self.clock.now,
            );
            missing.push((order, message_id, statement));
        }
        for (order, message_id, statement) in missing {
            self.breach_of(LabInvariant::ChargeMissing, order, &message_id, statement);
        }
        self.lab_check_claims()
    }

    /// `charge(:key, :amount)` as a real provider answers it: 409 "in progress" while another
    /// call with the key still runs; a key older than the scenario's retention is forgotten, so
    /// the call charges anew; else it charges, or answers a key it has seen with its first
    /// charge. The answer may then time out, as the scenario scripts it: the charge happened,
    /// the handler hears an error, and the provider is still at work on the call for as long
    /// as a call takes.
    pub(crate) fn lab_charge(
        &mut self,
        d: &Delivery,
        key: Option<&str>,
        amount: i64,
        here: TrailEntry,
    ) -> Result<ProviderAnswer, SimError> {
        let now = self.clock.now;
        if let Some(k) = key {
            let running = (self.lab.as_ref())
                .and_then(|l| l.provider_busy.get(k))
                .is_some_and(|until| now < *until);
            if running {
                return Ok(ProviderAnswer::InProgress);
            }
            let retention = self.spec.scenario.setup.provider_key_retention_ms;
            let kept_since = now.saturating_sub(retention) as i64;
            self.conns
                .provider
                .execute(SQL_FORGET_KEY, rusqlite::params![k, kept_since])
                .ctx(Actor::Provider, "forget an old key")?;
        }
        let (_, new) = self.provider_charge(d, key, amount)?;
        if new && let Some(l) = &mut self.lab {
            l.trail.charges.push(here);
        }
        let timed_out = self
            .script
            .armed
            .take_for(Fault::ProviderTimeoutAfterPerform, d.order_id);
        if !timed_out {
            return Ok(ProviderAnswer::Answered);
        }
        let call_ms = self.spec.scenario.setup.handling_ms.max(2);
        if let (Some(k), Some(l)) = (key, &mut self.lab) {
            l.provider_busy.insert(k.to_owned(), now + call_ms);
        }
        Ok(ProviderAnswer::TimedOut)
    }

    /// How long a claim holds before another delivery may take it over (the scenario's).
    pub(crate) fn claim_lease_ms(&self) -> u64 {
        self.spec.scenario.setup.claim_lease_ms
    }

    /// `dead_letter(:reason)`: the handler stops here and the consumer dead-letters the
    /// delivery with its reason on the next step (Service Bus `DeadLetter`; SQS: send to the
    /// DLQ queue, then delete). A message the consumer could read, or an empty reason, breaks
    /// a lab invariant.
    pub(crate) fn lab_dead_letter(
        &mut self,
        c: u8,
        mut d: Delivery,
        reason: String,
        unreadable: Option<&Failure>,
        here: TrailEntry,
    ) -> Event {
        if unreadable.is_none() {
            self.breach(LabInvariant::HealthyDeadLettered, &d, here.clone());
        }
        if reason.trim().is_empty() {
            self.breach(LabInvariant::DeadLetterWithoutReason, &d, here);
        }
        let error = unreadable.map_or_else(
            || "dead-lettered by the handler".to_string(),
            |f| f.text.clone(),
        );
        let msg = d.message_id.clone();
        d.error = Some(error.clone());
        d.lab_reason = Some(reason);
        self.put_delivery(c, d);
        self.schedule(self.clock.now + 1, Action::ConsumerDeadLetter(c));
        Event::new(
            Actor::Consumer(c),
            Stage::Consumer,
            EventKind::FailedPermanent,
        )
        .message(&msg)
        .sql(LAB_DEAD_LETTER_SQL)
        .outcome(Outcome::Failed)
        .args(vec![error])
    }
}

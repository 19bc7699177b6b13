//! The tracker that turns events and their facts into moments, remembering per order what
//! happened earlier so that every moment can name its cause.

use std::collections::{BTreeMap, HashMap};

use super::explain;
use super::order_state::{Mark, OrderState, Setting};
use super::{Fact, Guard, Loss, Moment, OUTBOX_WAITING_MS};
use crate::sim::model::{BrokerKind, Event, EventKind, Mode, Pitfall};

/// Derives moments from a run's events; feed it every event in order with
/// [`Story::observe`] and call [`Story::finish`] once the run has ended.
#[derive(Debug, Clone)]
pub struct Story {
    setting: Setting,
    orders: BTreeMap<i64, OrderState>,
    by_message: HashMap<String, i64>,
    by_seq: HashMap<i64, i64>,
    /// The newest delivery count per queue row, so an expiry names the delivery it ended.
    delivery_of_seq: HashMap<i64, u32>,
    by_outbox: HashMap<i64, i64>,
    broker_down: Option<Mark>,
    swept: Option<(Mark, u64)>,
    outbox_waiting: bool,
    last: Option<Mark>,
    moments: Vec<Moment>,
    finished: bool,
}

impl Story {
    /// A story for a run in `mode` on `broker`; `pitfall` is the scenario's pitfall when the
    /// run is in pitfall mode.
    pub fn new(mode: Mode, broker: BrokerKind, pitfall: Option<Pitfall>) -> Story {
        Story {
            setting: Setting {
                mode,
                broker,
                pitfall,
            },
            orders: BTreeMap::new(),
            by_message: HashMap::new(),
            by_seq: HashMap::new(),
            delivery_of_seq: HashMap::new(),
            by_outbox: HashMap::new(),
            broker_down: None,
            swept: None,
            outbox_waiting: false,
            last: None,
            moments: Vec::new(),
            finished: false,
        }
    }

    /// A story for `sim`'s run (its mode, broker and, in pitfall mode, the scenario's pitfall).
    pub fn for_run(sim: &crate::sim::Simulation) -> Story {
        Story::new(sim.spec.mode, sim.spec.broker, sim.spec.settings.pitfall)
    }

    /// All moments so far, in the order they became visible.
    pub fn moments(&self) -> &[Moment] {
        &self.moments
    }

    /// Takes in one event and the facts the engine noted for it ([`crate::sim::Simulation::facts`]);
    /// returns the moments it made visible.
    pub fn observe(&mut self, event: &Event, facts: &[Fact]) -> &[Moment] {
        let start = self.moments.len();
        let now = Mark {
            index: event.index,
            at_ms: event.at_ms,
        };
        if event.kind == EventKind::BrokerDown {
            self.broker_down = Some(now);
        }
        for fact in facts {
            self.fact(now, event, fact, facts);
        }
        if event.kind == EventKind::AppliedOutOfOrder {
            self.out_of_order(now, event);
        }
        if let Some(order) = event
            .message_id
            .as_deref()
            .and_then(|m| self.by_message.get(m))
            .and_then(|o| self.orders.get_mut(o))
        {
            order.last = Some(now);
        }
        self.last = Some(now);
        &self.moments[start..]
    }

    fn order_of(&self, message_id: &str) -> Option<i64> {
        self.by_message.get(message_id).copied().or_else(|| {
            // Message ids carry the order number (`msg-000003`); a message seen before its
            // accept fact (never in practice) still names its order.
            message_id.rsplit('-').next()?.parse().ok()
        })
    }

    fn fact(&mut self, now: Mark, event: &Event, fact: &Fact, all: &[Fact]) {
        let actor = event.actor;
        match fact {
            Fact::Accepted {
                order,
                message_id,
                outbox_id,
            } => {
                self.by_message.insert(message_id.clone(), *order);
                if let Some(id) = outbox_id {
                    self.by_outbox.insert(*id, *order);
                }
                let st = self.state(*order, message_id);
                st.accepted.get_or_insert(now);
            }
            Fact::Received {
                message_id,
                seq,
                delivery,
            } => {
                let Some(order) = self.order_of(message_id) else {
                    return;
                };
                self.by_seq.insert(*seq, order);
                self.delivery_of_seq.insert(*seq, *delivery);
                let broker = self.setting.broker;
                let moment = {
                    let st = self.state(order, message_id);
                    let m =
                        (*delivery > 1).then(|| explain::redelivered(st, now, *delivery, broker));
                    st.receives.push((now, actor, *delivery));
                    m
                };
                if let Some(m) = moment {
                    self.push(order, m);
                }
            }
            Fact::Copied { message_id } => {
                self.with(message_id, |_, st| Some(explain::copied(st, now)));
            }
            Fact::Effect { order, message_id } => {
                let marker_only = all.iter().any(|f| {
                    matches!(f, Fact::Prevented { message_id: m, guard: Guard::MarkerOnly } if m == message_id)
                });
                let setting = self.setting;
                let swept = self.swept;
                // An effect written without its marker (the connection dropped in between)
                // leaves the inbox empty: the marker's time comes from a later delivery.
                let without_marker = matches!(
                    event.kind,
                    EventKind::NaiveEffectThenConnectionLost
                        | EventKind::TrapEffectThenConnectionLost
                );
                let st = self.state(*order, message_id);
                st.effects += 1;
                if !without_marker {
                    st.marker.get_or_insert(now);
                }
                let moment = match st.first_effect {
                    None => {
                        st.first_effect = Some((now, actor));
                        None
                    }
                    Some(_) => Some(explain::duplicate_effect(
                        st,
                        now,
                        actor,
                        setting,
                        swept,
                        marker_only,
                    )),
                };
                if let Some(m) = moment {
                    self.push(*order, m);
                }
            }
            Fact::Charged { order, message_id } => {
                let st = self.state(*order, message_id);
                st.charges += 1;
                let moment = match st.first_charge {
                    None => {
                        st.first_charge = Some(now);
                        None
                    }
                    Some(first) => Some(explain::duplicate_charge(st, now, first)),
                };
                if let Some(m) = moment {
                    self.push(*order, m);
                }
            }
            Fact::ConnectionLost { message_id } => {
                if let Some(st) = self
                    .order_of(message_id)
                    .and_then(|o| self.orders.get_mut(&o))
                    && st.first_effect.is_some_and(|(m, _)| m.index == now.index)
                {
                    st.first_effect_then_lost = true;
                }
            }
            Fact::LockExpired { seq } => {
                let delivery = self.delivery_of_seq.get(seq).copied().unwrap_or(0);
                if let Some(st) = self.by_seq.get(seq).and_then(|o| self.orders.get_mut(o)) {
                    st.lock_expired = Some(now);
                    st.lock_expired_delivery = delivery;
                }
            }
            // Only the marker was refused: the credit was committed already, so nothing was
            // prevented (the duplicate-effect moment explains it), and the metric agrees.
            Fact::Prevented {
                guard: Guard::MarkerOnly,
                ..
            } => {}
            Fact::Prevented { message_id, guard } => {
                let setting = self.setting;
                self.with(message_id, |_, st| {
                    Some(explain::prevented(st, now, actor, *guard, setting))
                });
            }
            Fact::DeadLettered {
                message_id,
                description,
                delivery_count,
            } => {
                let broker = self.setting.broker;
                self.with(message_id, |_, st| {
                    st.dlq_open += 1;
                    let m = explain::dead_lettered(st, now, description, *delivery_count, broker);
                    st.dead_lettered = Some(now);
                    Some(m)
                });
            }
            Fact::LockLost { message_id } => {
                let setting = self.setting;
                // The careful consumer's own check tried no settle.
                let settle_tried = event.kind != EventKind::LockCheckFailed;
                self.with(message_id, |_, st| {
                    Some(explain::lock_lost(st, now, actor, setting, settle_tried))
                });
            }
            Fact::Lost { message_id, loss } => {
                let setting = self.setting;
                let down = self.broker_down;
                let Some(order) = self.order_of(message_id) else {
                    return;
                };
                let st = self.state(order, message_id);
                if *loss == Loss::ReplayDropped {
                    // The resubmit tool completed the DLQ entry of the dropped copy.
                    st.dlq_open = st.dlq_open.saturating_sub(1);
                }
                if st.lost_moment.is_some() {
                    return;
                }
                let m = explain::lost(st, now, *loss, setting, down);
                let at = self.moments.len();
                self.state(order, message_id).lost_moment = Some(at);
                self.push(order, m);
            }
            Fact::Replayed { message_id, as_id } => {
                if let (Some(new), Some(order)) = (as_id, self.order_of(message_id)) {
                    // The copy's deliveries and effects belong to the same order.
                    self.by_message.insert(new.clone(), order);
                }
                self.with(message_id, |_, st| {
                    st.dlq_open = st.dlq_open.saturating_sub(1);
                    Some(explain::replayed(st, now, as_id.as_deref()))
                });
            }
            Fact::OutboxLag { outbox_id, age_ms } => {
                if *age_ms < OUTBOX_WAITING_MS {
                    self.outbox_waiting = false;
                    return;
                }
                if self.outbox_waiting {
                    return;
                }
                self.outbox_waiting = true;
                let down = self.broker_down;
                if let Some(&order) = self.by_outbox.get(outbox_id)
                    && let Some(st) = self.orders.get(&order)
                {
                    let m = explain::outbox_waiting(st, now, *age_ms, down);
                    self.push(order, m);
                }
            }
            Fact::MarkersSwept { retention_ms, .. } => self.swept = Some((now, *retention_ms)),
        }
    }

    /// An effect that overtook the customer's previous order: the moment names both orders,
    /// and its cause is the earlier order's newest receive (it was still in work), else its
    /// accept.
    fn out_of_order(&mut self, now: Mark, event: &Event) {
        let Some(later) = event.args.first().and_then(|a| a.parse::<i64>().ok()) else {
            return;
        };
        let customer = event.args.get(1).cloned().unwrap_or_default();
        // The engine names the customer's previous order (orders of a customer come in pairs).
        let Some(earlier) = event.args.get(2).and_then(|a| a.parse::<i64>().ok()) else {
            return;
        };
        let Some(previous) = self.orders.get(&earlier) else {
            return;
        };
        let cause = previous
            .receives
            .iter()
            .rev()
            .map(|(m, _, _)| *m)
            .find(|m| m.index < now.index)
            .or(previous.accepted);
        let Some(st) = self.orders.get(&later) else {
            return;
        };
        let draft = explain::out_of_order(st, now, earlier, &customer, cause);
        self.push(later, draft);
    }

    /// The state of `order`, created on first sight.
    fn state(&mut self, order: i64, message_id: &str) -> &mut OrderState {
        let st = self.orders.entry(order).or_default();
        st.order = order;
        if st.message_id.is_empty() {
            message_id.clone_into(&mut st.message_id);
        }
        st
    }

    /// Runs `f` on the state of `message_id`'s order and records the moment it returns.
    fn with(
        &mut self,
        message_id: &str,
        f: impl FnOnce(i64, &mut OrderState) -> Option<explain::Draft>,
    ) {
        let Some(order) = self.order_of(message_id) else {
            return;
        };
        let st = self.state(order, message_id);
        if let Some(m) = f(order, st) {
            self.push(order, m);
        }
    }

    fn push(&mut self, order: i64, draft: explain::Draft) {
        let message_id = self
            .orders
            .get(&order)
            .map(|s| s.message_id.clone())
            .unwrap_or_default();
        self.moments.push(draft.into_moment(order, message_id));
    }

    /// Ends the story once the run has finished: an order that ended with neither an effect nor
    /// an open DLQ entry is lost (a provisional `lost-order` of an order that got its effect
    /// after all is withdrawn, a loss nobody announced gets its moment at the last event).
    /// Returns the moments added. Calling it twice adds nothing.
    pub fn finish(&mut self) -> Vec<Moment> {
        if std::mem::replace(&mut self.finished, true) {
            return Vec::new();
        }
        let Some(end) = self.last else {
            return Vec::new();
        };
        let mut withdraw = Vec::new();
        let mut added = Vec::new();
        for (order, st) in &self.orders {
            let lost = st.accepted.is_some() && st.effects == 0 && st.dlq_open == 0;
            match (lost, st.lost_moment) {
                (false, Some(i)) => withdraw.push(i),
                (true, None) => added
                    .push(explain::lost_at_end(st, end).into_moment(*order, st.message_id.clone())),
                _ => {}
            }
        }
        withdraw.sort_unstable();
        for i in withdraw.into_iter().rev() {
            self.moments.remove(i);
        }
        self.moments.extend(added.iter().cloned());
        added
    }
}

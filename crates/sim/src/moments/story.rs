//! The tracker that turns events and their facts into moments, remembering per order what
//! happened earlier so that every moment can name its cause.

use super::explain;
use super::order_book::OrderBook;
use super::order_state::{Mark, OrderState, Receive, Setting};
use super::{Fact, Guard, Loss, Moment, OUTBOX_WAITING_MS};
use crate::model::{Actor, BrokerKind, Event, EventKind, Mode, Pitfall, RefusedCall};

/// Derives moments from a run's events; feed it every event in order with
/// [`Story::observe`] and call [`Story::finish`] once the run has ended.
#[derive(Debug, Clone)]
pub struct Story {
    setting: Setting,
    orders: OrderBook,
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
            orders: OrderBook::default(),
            broker_down: None,
            swept: None,
            outbox_waiting: false,
            last: None,
            moments: Vec::new(),
            finished: false,
        }
    }

    /// A story for `sim`'s run (its mode, broker and, in pitfall mode, the scenario's pitfall).
    pub fn for_run(sim: &crate::Simulation) -> Story {
        Story::new(sim.spec.mode, sim.spec.broker, sim.spec.settings.pitfall)
    }

    /// All moments so far, in the order they became visible.
    pub fn moments(&self) -> &[Moment] {
        &self.moments
    }

    /// The moments, for a caller done with the story: what it remembered per order is freed,
    /// so a long run's checker and report that come next have that room.
    pub fn into_moments(self) -> Vec<Moment> {
        self.moments
    }

    /// Takes in one event and the facts the engine noted for it ([`crate::Simulation::facts`]);
    /// returns the moments it made visible.
    pub fn observe(&mut self, event: &Event, facts: &[Fact]) -> &[Moment] {
        let start = self.moments.len();
        let now = Mark::new(event.index, event.at_ms);
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
            .and_then(|m| self.orders.named(m))
            .and_then(|o| self.orders.get_mut(o))
        {
            order.last = Some(now);
        }
        self.last = Some(now);
        &self.moments[start..]
    }

    fn order_of(&self, message_id: &str) -> Option<i64> {
        self.orders.order_of(message_id)
    }

    fn fact(&mut self, now: Mark, event: &Event, fact: &Fact, all: &[Fact]) {
        let actor = event.actor;
        match fact {
            Fact::Accepted {
                order,
                message_id,
                outbox_id,
            } => {
                self.orders.name(message_id, *order);
                if let Some(id) = outbox_id {
                    self.orders.outbox_row(*id, *order);
                }
                let st = self.state(*order, message_id);
                st.accepted.get_or_insert(now);
            }
            Fact::Received {
                message_id,
                seq,
                delivery,
            } => self.received(now, actor, message_id, *seq, *delivery),
            Fact::Copied { message_id } => {
                self.with(message_id, |_, st| Some(explain::copied(st, now)));
            }
            Fact::SentTwice { message_id } => {
                self.with(message_id, |_, st| Some(explain::sent_twice(st, now)));
            }
            Fact::Effect { order, message_id } => {
                self.effect(now, event, *order, message_id, all);
            }
            Fact::Charged { order, message_id } => self.charged(now, *order, message_id),
            Fact::ConnectionLost { message_id } => {
                if let Some(st) = self
                    .order_of(message_id)
                    .and_then(|o| self.orders.get_mut(o))
                    && st.first_effect.is_some_and(|(m, _)| m.index == now.index)
                {
                    st.first_effect_then_lost = true;
                }
            }
            Fact::LockExpired { seq } => {
                if let Some((order, _)) = self.orders.row(*seq)
                    && let Some(st) = self.orders.get_mut(order)
                {
                    st.lock_ran_out(*seq, now);
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
            } => self.dead_lettered(now, message_id, description, *delivery_count),
            Fact::LockLost { message_id } => self.lock_lost(now, event, message_id),
            Fact::Lost { message_id, loss } => self.lost(now, message_id, *loss),
            Fact::Replayed { message_id, as_id } => {
                if let (Some(new), Some(order)) = (as_id, self.order_of(message_id)) {
                    // The copy's deliveries and effects belong to the same order.
                    self.orders.name(new, order);
                }
                self.with(message_id, |_, st| {
                    st.dlq_open = st.dlq_open.saturating_sub(1);
                    Some(explain::replayed(st, now, as_id.as_deref()))
                });
            }
            Fact::OutboxLag { outbox_id, age_ms } => self.outbox_lag(now, *outbox_id, *age_ms),
            Fact::MarkersSwept { retention_ms, .. } => self.swept = Some((now, *retention_ms)),
        }
    }

    /// A delivery reached a consumer; a redelivery explains why it came again.
    fn received(&mut self, now: Mark, actor: Actor, message_id: &str, seq: i64, delivery: u32) {
        let Some(order) = self.order_of(message_id) else {
            return;
        };
        self.orders.received(seq, order, delivery);
        let broker = self.setting.broker;
        let moment = {
            let st = self.state(order, message_id);
            let m = (delivery > 1).then(|| explain::redelivered(st, now, seq, delivery, broker));
            st.received(Receive {
                at: now,
                actor,
                seq,
                delivery,
                lock_expired: None,
            });
            m
        };
        if let Some(m) = moment {
            self.push(order, m);
        }
    }

    /// An effect was applied; a second one for the same order is a duplicate-effect moment.
    fn effect(&mut self, now: Mark, event: &Event, order: i64, message_id: &str, all: &[Fact]) {
        let marker_only = all.iter().any(|f| {
            matches!(f, Fact::Prevented { message_id: m, guard: Guard::MarkerOnly } if m == message_id)
        });
        let setting = self.setting;
        let swept = self.swept;
        // An effect written without its marker (the connection dropped in between) leaves the
        // inbox empty: the marker's time comes from a later delivery.
        let without_marker = matches!(
            event.kind,
            EventKind::NaiveEffectThenConnectionLost
                | EventKind::TrapEffectThenConnectionLost
                | EventKind::AppliedNoInbox
                | EventKind::NoInboxEffectThenConnectionLost
        );
        let actor = event.actor;
        let st = self.state(order, message_id);
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
            self.push(order, m);
        }
    }

    /// The provider charged; a second charge for the same order is a duplicate-charge moment.
    fn charged(&mut self, now: Mark, order: i64, message_id: &str) {
        let st = self.state(order, message_id);
        st.charges += 1;
        let moment = match st.first_charge {
            None => {
                st.first_charge = Some(now);
                None
            }
            Some(first) => Some(explain::duplicate_charge(st, now, first)),
        };
        if let Some(m) = moment {
            self.push(order, m);
        }
    }

    /// A message went to the DLQ; its entry stays open until a replay completes it.
    fn dead_lettered(&mut self, now: Mark, message_id: &str, description: &str, count: u32) {
        let broker = self.setting.broker;
        self.with(message_id, |_, st| {
            st.dlq_open += 1;
            let m = explain::dead_lettered(st, now, description, count, broker);
            st.dead_lettered = Some(now);
            Some(m)
        });
    }

    /// A consumer lost its lock; the moment names the call that found out.
    fn lock_lost(&mut self, now: Mark, event: &Event, message_id: &str) {
        let setting = self.setting;
        let actor = event.actor;
        // The careful consumer's own check tried no call; a refused call is named as the
        // consumer made it.
        let at = match (event.kind, RefusedCall::of(event)) {
            (EventKind::LockCheckFailed, _) => explain::LostAt::Check,
            (_, RefusedCall::Complete) => explain::LostAt::Settle,
            (_, call) => explain::LostAt::Call(call.name()),
        };
        self.with(message_id, |_, st| {
            Some(explain::lock_lost(st, now, actor, setting, at))
        });
    }

    /// An order was lost: one moment per order, however many ways it was lost.
    fn lost(&mut self, now: Mark, message_id: &str, loss: Loss) {
        let setting = self.setting;
        let down = self.broker_down;
        let Some(order) = self.order_of(message_id) else {
            return;
        };
        let st = self.state(order, message_id);
        if loss == Loss::ReplayDropped {
            // The resubmit tool completed the DLQ entry of the dropped copy.
            st.dlq_open = st.dlq_open.saturating_sub(1);
        }
        if st.lost_moment.is_some() {
            return;
        }
        let m = explain::lost(st, now, loss, setting, down);
        let at = u32::try_from(self.moments.len()).unwrap_or(u32::MAX);
        self.state(order, message_id).lost_moment = Some(at);
        self.push(order, m);
    }

    /// An outbox row waits: one moment when the wait first passes the threshold, none again
    /// until the outbox has caught up.
    fn outbox_lag(&mut self, now: Mark, outbox_id: i64, age_ms: u64) {
        if age_ms < OUTBOX_WAITING_MS {
            self.outbox_waiting = false;
            return;
        }
        if self.outbox_waiting {
            return;
        }
        self.outbox_waiting = true;
        let down = self.broker_down;
        if let Some(order) = self.orders.order_of_outbox(outbox_id)
            && let Some(st) = self.orders.get(order)
        {
            let m = explain::outbox_waiting(st, now, age_ms, down);
            self.push(order, m);
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
        let Some(previous) = self.orders.get(earlier) else {
            return;
        };
        let cause = previous
            .receives
            .iter()
            .rev()
            .map(|r| r.at)
            .find(|m| m.index < now.index)
            .or(previous.accepted);
        let Some(st) = self.orders.get(later) else {
            return;
        };
        let draft = explain::out_of_order(st, now, earlier, &customer, cause);
        self.push(later, draft);
    }

    /// The state of `order`, created on first sight.
    fn state(&mut self, order: i64, message_id: &str) -> &mut OrderState {
        self.orders.entry(order, message_id)
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
            .get(order)
            .map(OrderState::message_id)
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
        for st in self.orders.by_order() {
            let lost = st.accepted.is_some() && st.effects == 0 && st.dlq_open == 0;
            match (lost, st.lost_moment) {
                (false, Some(i)) => withdraw.push(i as usize),
                (true, None) => {
                    added
                        .push(explain::lost_at_end(st, end).into_moment(st.order, st.message_id()));
                }
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

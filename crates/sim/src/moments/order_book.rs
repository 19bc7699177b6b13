//! Where the story keeps its per-order states and how a message id, a queue row or an outbox
//! row leads to one. A story holds every order of the run until it ends (a duplicate may arrive
//! at any time and must name the first effect), so the book is laid out to stay small: states
//! in one vector, message ids that carry their order's number (`msg-000003`) read rather than
//! stored, and one map entry per queue row.

use std::collections::HashMap;

use super::order_state::OrderState;

#[derive(Debug, Clone, Default)]
pub(super) struct OrderBook {
    /// The states in the order they were first seen.
    states: Vec<OrderState>,
    /// Order id → position in `states`.
    slot: HashMap<i64, u32>,
    /// Message ids that do not end in their order's number (a replayed copy's new id, a lab's
    /// own ids) → order. An id that does is read by [`number_in`] instead.
    renamed: HashMap<String, i64>,
    /// Queue row → its order and the newest delivery count, so an expiry names the delivery
    /// it ended.
    rows: HashMap<i64, (i64, u32)>,
    /// Outbox row → its order.
    outbox: HashMap<i64, i64>,
}

/// The number a message id ends in (`msg-000003` → 3).
fn number_in(message_id: &str) -> Option<i64> {
    message_id.rsplit('-').next()?.parse().ok()
}

impl OrderBook {
    pub fn get(&self, order: i64) -> Option<&OrderState> {
        let at = *self.slot.get(&order)?;
        self.states.get(at as usize)
    }

    pub fn get_mut(&mut self, order: i64) -> Option<&mut OrderState> {
        let at = *self.slot.get(&order)?;
        self.states.get_mut(at as usize)
    }

    /// The state of `order`, created on first sight with `message_id` as its message.
    pub fn entry(&mut self, order: i64, message_id: &str) -> &mut OrderState {
        let next = u32::try_from(self.states.len()).unwrap_or(u32::MAX);
        let at = *self.slot.entry(order).or_insert_with(|| {
            self.states.push(OrderState::new(order, message_id));
            next
        });
        &mut self.states[at as usize]
    }

    /// Notes that `message_id` carries `order`'s message (its accept, or a replayed copy).
    pub fn name(&mut self, message_id: &str, order: i64) {
        if number_in(message_id) != Some(order) || self.renamed.contains_key(message_id) {
            self.renamed.insert(message_id.to_owned(), order);
        }
    }

    /// The order of a message named by [`OrderBook::name`]; `None` for a message the story
    /// was never told about.
    pub fn named(&self, message_id: &str) -> Option<i64> {
        if let Some(order) = self.renamed.get(message_id) {
            return Some(*order);
        }
        let order = number_in(message_id)?;
        self.get(order)
            .is_some_and(|st| st.accepted.is_some() && st.is_message(message_id))
            .then_some(order)
    }

    /// The order of `message_id`: the one it was named for, else the number it ends in (a
    /// message seen before its accept, never in practice, still names its order).
    pub fn order_of(&self, message_id: &str) -> Option<i64> {
        self.renamed
            .get(message_id)
            .copied()
            .or_else(|| number_in(message_id))
    }

    /// Notes a receive from queue row `seq` of `order`'s message with delivery count `delivery`.
    pub fn received(&mut self, seq: i64, order: i64, delivery: u32) {
        self.rows.insert(seq, (order, delivery));
    }

    /// The order of queue row `seq` and its newest delivery count.
    pub fn row(&self, seq: i64) -> Option<(i64, u32)> {
        self.rows.get(&seq).copied()
    }

    /// Notes that outbox row `id` holds `order`'s message.
    pub fn outbox_row(&mut self, id: i64, order: i64) {
        self.outbox.insert(id, order);
    }

    /// The order whose message outbox row `id` holds.
    pub fn order_of_outbox(&self, id: i64) -> Option<i64> {
        self.outbox.get(&id).copied()
    }

    /// All states, by ascending order id.
    pub fn by_order(&self) -> Vec<&OrderState> {
        let mut all: Vec<&OrderState> = self.states.iter().collect();
        all.sort_unstable_by_key(|st| st.order);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moments::order_state::Mark;

    fn accepted(book: &mut OrderBook, order: i64, message_id: &str) {
        book.name(message_id, order);
        book.entry(order, message_id).accepted = Some(Mark::new(1, 1));
    }

    #[test]
    fn an_id_with_its_order_number_is_read_and_others_are_remembered() {
        let mut book = OrderBook::default();
        accepted(&mut book, 3, "msg-000003");
        // A lab's own id whose number is not the order's, and a replayed copy's new id.
        accepted(&mut book, 4, "order-7");
        book.name("msg-000003-replay", 3);
        assert_eq!(
            book.renamed.len(),
            2,
            "only the ids that do not name their order"
        );
        assert_eq!(book.order_of("msg-000003"), Some(3));
        assert_eq!(book.order_of("order-7"), Some(4), "not the 7 it ends in");
        assert_eq!(book.order_of("msg-000003-replay"), Some(3));
        assert_eq!(book.named("msg-000003"), Some(3));
        assert_eq!(book.named("order-7"), Some(4));
        // Never named: its number is only a guess, and the story was not told about it.
        assert_eq!(book.named("msg-000009"), None);
        assert_eq!(book.order_of("msg-000009"), Some(9));
        assert_eq!(
            book.get(4).map(OrderState::message_id).as_deref(),
            Some("order-7")
        );
        assert_eq!(
            book.get(3).map(OrderState::message_id).as_deref(),
            Some("msg-000003")
        );
    }

    #[test]
    fn an_order_is_created_once_and_listed_by_its_id() {
        let mut book = OrderBook::default();
        for order in [5, 2, 9, 2] {
            book.entry(order, "m").effects += 1;
        }
        let listed: Vec<(i64, u32)> = book
            .by_order()
            .iter()
            .map(|s| (s.order, s.effects))
            .collect();
        assert_eq!(listed, vec![(2, 2), (5, 1), (9, 1)]);
        book.received(11, 5, 2);
        book.received(11, 5, 3);
        assert_eq!(
            book.row(11),
            Some((5, 3)),
            "the newest delivery count of the row"
        );
        assert_eq!(book.row(12), None);
    }
}

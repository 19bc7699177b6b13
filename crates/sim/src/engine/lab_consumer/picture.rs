//! What the learner's `@handle` committed, read back: the effect and inbox rows written since
//! the last look go into the picture, the metrics and the facts as the built-in modes' own
//! writes do, so moments and checkers judge a lab run like any run.

use super::super::inbox::EffectRow;
use super::super::{SimError, Simulation, SqlContext};
use crate::model::Actor;

/// The ledger's entries (what the learner's statements inserted into `effects`, whatever they
/// deleted or rewrote afterwards) and the inbox rows since the last look, in one statement: one
/// read of the database per look instead of two, as a look follows every delivery.
const SQL_NEW_ROWS: &str = "SELECT 0, id, effect_id, business_key, order_id, message_id, instance, NULL \
     FROM effect_ledger WHERE id > ?1 \
     UNION ALL \
     SELECT 1, id, NULL, NULL, NULL, message_id, instance, processed_ms IS NOT NULL \
     FROM inbox WHERE id > ?2 \
     ORDER BY 1, 2";

/// A row read back: an effect (its ledger entry, its `effects` row id, the row as written) or
/// an inbox marker (its id, message, instance, whether it was processed).
enum NewRow {
    Effect(i64, i64, EffectRow),
    Marker(i64, String, String, bool),
}

impl Simulation {
    /// Puts the effect and inbox rows committed since the last look into the picture, the
    /// metrics and the facts, as the built-in modes do for their own writes.
    pub(super) fn lab_picture(&mut self, c: u8, created: u64) -> Result<(usize, usize), SimError> {
        let actor = Actor::Consumer(c);
        let (seen_effect, seen_marker) = match &self.lab {
            Some(l) => (l.seen_effect, l.seen_marker),
            None => return Ok((0, 0)),
        };
        let rows: Vec<NewRow> = self.conns.consumers[usize::from(c)]
            .prepare_cached(SQL_NEW_ROWS)
            .and_then(|mut st| {
                st.query_map([seen_effect, seen_marker], |r| {
                    Ok(if r.get::<_, i64>(0)? == 0 {
                        NewRow::Effect(
                            r.get(1)?,
                            r.get(2)?,
                            EffectRow {
                                business_key: r.get(3)?,
                                order_id: r.get(4)?,
                                message_id: r.get(5)?,
                                kind: "credit",
                                amount_cents: 0,
                                payload_ok: true,
                                instance: r.get(6)?,
                            },
                        )
                    } else {
                        NewRow::Marker(r.get(1)?, r.get(5)?, r.get(6)?, r.get(7)?)
                    })
                })?
                .collect()
            })
            .ctx(actor, "read the effects and inbox rows the lab file wrote")?;
        let effects = rows
            .iter()
            .filter(|r| matches!(r, NewRow::Effect(..)))
            .count();
        let counts = (effects, rows.len() - effects);
        // Markers before effects, as the picture has always taken them.
        for row in rows.iter().filter(|r| matches!(r, NewRow::Marker(..))) {
            if let NewRow::Marker(id, message_id, instance, processed) = row {
                self.picture_marker(*id, message_id, instance, *processed);
                if let Some(l) = &mut self.lab {
                    l.seen_marker = l.seen_marker.max(*id);
                }
            }
        }
        for row in rows {
            if let NewRow::Effect(entry, id, e) = row {
                self.picture_effect(&e, id, created);
                if let Some(l) = &mut self.lab {
                    l.seen_effect = l.seen_effect.max(entry);
                }
            }
        }
        Ok(counts)
    }
}

//! What the learner's `@handle` committed, read back: the effect and inbox rows written since
//! the last look go into the picture, the metrics and the facts as the built-in modes' own
//! writes do, so moments and checkers judge a lab run like any run.

use super::super::inbox::EffectRow;
use super::super::{SimError, Simulation, SqlContext};
use crate::model::Actor;

/// The ledger's entries since the last look (what the learner's statements inserted into
/// `effects`, whatever they deleted or rewrote afterwards).
const SQL_NEW_EFFECTS: &str = "SELECT id, business_key, order_id, message_id, instance, effect_id \
     FROM effect_ledger WHERE id > ?1 ORDER BY id";
const SQL_NEW_MARKERS: &str = "SELECT id, message_id, instance, processed_ms IS NOT NULL \
     FROM inbox WHERE id > ?1 ORDER BY id";

impl Simulation {
    /// Puts the effect and inbox rows committed since the last look into the picture, the
    /// metrics and the facts, as the built-in modes do for their own writes.
    pub(super) fn lab_picture(&mut self, c: u8, created: u64) -> Result<(usize, usize), SimError> {
        let actor = Actor::Consumer(c);
        let (seen_effect, seen_marker) = match &self.lab {
            Some(l) => (l.seen_effect, l.seen_marker),
            None => return Ok((0, 0)),
        };
        let conn = &self.conns.consumers[usize::from(c)];
        // (ledger entry, effects row id, the row as written)
        let effects: Vec<(i64, i64, EffectRow)> = conn
            .prepare_cached(SQL_NEW_EFFECTS)
            .and_then(|mut st| {
                st.query_map([seen_effect], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(5)?,
                        EffectRow {
                            business_key: r.get(1)?,
                            order_id: r.get(2)?,
                            message_id: r.get(3)?,
                            kind: "credit",
                            amount_cents: 0,
                            payload_ok: true,
                            instance: r.get(4)?,
                        },
                    ))
                })?
                .collect()
            })
            .ctx(actor, "read the effects the lab file wrote")?;
        let markers: Vec<(i64, String, String, bool)> = conn
            .prepare_cached(SQL_NEW_MARKERS)
            .and_then(|mut st| {
                st.query_map([seen_marker], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?
                .collect()
            })
            .ctx(actor, "read the inbox rows the lab file wrote")?;
        let counts = (effects.len(), markers.len());
        for (id, message_id, instance, processed) in markers {
            self.picture_marker(id, &message_id, &instance, processed);
            if let Some(l) = &mut self.lab {
                l.seen_marker = l.seen_marker.max(id);
            }
        }
        for (entry, id, e) in effects {
            self.picture_effect(&e, id, created);
            if let Some(l) = &mut self.lab {
                l.seen_effect = l.seen_effect.max(entry);
            }
        }
        Ok(counts)
    }
}

//! Lab results in the progress store: every check counts as an attempt, the first pass marks the
//! lab solved (and a later failing check never unmarks it). One transaction per result.

use std::collections::BTreeMap;

use rusqlite::{TransactionBehavior, params};

use super::{Store, StoreError, now_secs};
use domain::workshop::EventKind;

pub use domain::LabResult;

impl Store {
    /// Records one check of `lab_id` (passed, or failed for `reason`) in its own
    /// `BEGIN IMMEDIATE` transaction; while joined, the same transaction queues it for the
    /// workshop host.
    pub fn record_lab_check(
        &mut self,
        lab_id: &str,
        passed: bool,
        reason: &str,
    ) -> Result<(), StoreError> {
        let now = now_secs();
        let result = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .and_then(|tx| {
                tx.execute(
                    "INSERT INTO lab_result (lab_id, attempts, last_at, solved_at)
                     VALUES (?1, 1, ?2, CASE WHEN ?3 THEN ?2 END)
                     ON CONFLICT (lab_id) DO UPDATE SET attempts = attempts + 1,
                         last_at = excluded.last_at,
                         solved_at = COALESCE(solved_at, excluded.solved_at)",
                    params![lab_id, now, passed],
                )?;
                super::workshop::enqueue(
                    &tx,
                    &EventKind::LabChecked {
                        lab: lab_id.to_owned(),
                        passed,
                        reason: if passed {
                            String::new()
                        } else {
                            reason.to_owned()
                        },
                    },
                )?;
                tx.commit()
            });
        result.map_err(|e| self.err(e))
    }

    /// Records that hint `level` of `lab_id` was revealed (a lower level never lowers it).
    pub fn record_lab_hint(&mut self, lab_id: &str, level: u32) -> Result<(), StoreError> {
        let now = now_secs();
        self.conn
            .execute(
                "INSERT INTO lab_result (lab_id, attempts, last_at, hints) VALUES (?1, 0, ?2, ?3)
                 ON CONFLICT (lab_id) DO UPDATE SET hints = MAX(hints, excluded.hints)",
                params![lab_id, now, level],
            )
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// Every lab with a result, by lab id.
    pub fn lab_results(&self) -> Result<BTreeMap<String, LabResult>, StoreError> {
        let read = || -> rusqlite::Result<BTreeMap<String, LabResult>> {
            let mut st = self
                .conn
                .prepare("SELECT lab_id, attempts, solved_at, hints FROM lab_result")?;
            st.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    LabResult {
                        attempts: r.get(1)?,
                        solved_at: r.get(2)?,
                        hints: r.get(3)?,
                    },
                ))
            })?
            .collect()
        };
        read().map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_count_and_solved_stays_solved() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut store, _) = Store::open(&dir.path().join("progress.db")).expect("store");
        store
            .record_lab_check("01-x", false, "duplicate-effect")
            .expect("record");
        assert_eq!(store.lab_results().expect("read")["01-x"].solved_at, None);
        store.record_lab_check("01-x", true, "").expect("record");
        store
            .record_lab_check("01-x", false, "duplicate-effect")
            .expect("record");
        let r = store.lab_results().expect("read")["01-x"];
        assert_eq!(r.attempts, 3);
        assert!(r.solved_at.is_some());
    }

    #[test]
    fn hints_are_kept_and_never_lowered() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut store, _) = Store::open(&dir.path().join("progress.db")).expect("store");
        store.record_lab_hint("01-x", 2).expect("hint");
        store.record_lab_hint("01-x", 1).expect("hint");
        let r = store.lab_results().expect("read")["01-x"];
        assert_eq!((r.hints, r.attempts, r.solved_at), (2, 0, None));
        store
            .record_lab_check("01-x", false, "duplicate-effect")
            .expect("record");
        assert_eq!(store.lab_results().expect("read")["01-x"].hints, 2);
    }
}

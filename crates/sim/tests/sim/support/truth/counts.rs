//! The story's counts against the report's metrics.

use queuelab_sim::{EventKind, MomentKind};

use super::Run;

/// Every count the story shows equals the count the report gives.
pub(super) fn count_falsehoods(run: &Run, out: &mut Vec<String>) {
    let n = |k: MomentKind| run.moments.iter().filter(|m| m.kind == k).count() as u64;
    let metrics = &run.report.metrics;
    let stale_deletes = run
        .events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::DeletedStaleHandle | EventKind::ForwardedToDlqStaleDelete
            )
        })
        .count() as u64;
    let pairs = [
        (
            "dead-lettered",
            n(MomentKind::DeadLettered),
            metrics.dead_lettered,
        ),
        (
            "duplicate-effect",
            n(MomentKind::DuplicateEffect),
            metrics.duplicate_effects,
        ),
        ("lost-order", n(MomentKind::LostOrder), metrics.lost),
        // A stale SQS delete (after a settle or a forward to the DLQ) counts as a lost hold but refuses nothing, so it has no lock-lost
        // moment: its own caption tells it.
        (
            "lock-lost",
            n(MomentKind::LockLost) + stale_deletes,
            metrics.lock_lost,
        ),
    ];
    for (kind, moments, metric) in pairs {
        if moments != metric {
            out.push(format!(
                "{}: {moments} {kind} moments, metric {metric}",
                run.what
            ));
        }
    }
    if run.report.invariants.out_of_order > 0 && n(MomentKind::OutOfOrder) == 0 {
        out.push(format!(
            "{}: {} orders out of order and no moment shows it",
            run.what, run.report.invariants.out_of_order
        ));
    }
}

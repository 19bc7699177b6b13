//! The list of UI string keys; `check` requires each in both languages. The chrome and the
//! learner's screens are listed in `keys/screens.rs`; the calculator, the simulator and what
//! came later are listed here.

mod screens;
mod workshop;
pub use workshop::WORKSHOP_KEYS;

/// Every string key the program uses. A test scans `src/` so this list cannot fall behind.
pub const KEYS: &[&str] = &ALL;

/// [`screens::SCREENS`] followed by [`MORE`], joined at compile time.
const ALL: [&str; screens::SCREENS.len() + MORE.len()] = join(screens::SCREENS, MORE);

/// Concatenates two key lists (a `const fn`, so the joined list costs nothing at run time).
const fn join<const N: usize>(a: &[&'static str], b: &[&'static str]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < a.len() {
        out[i] = a[i];
        i += 1;
    }
    let mut j = 0;
    while j < b.len() {
        out[a.len() + j] = b[j];
        j += 1;
    }
    out
}

/// The calculator, checklist, store notes, simulator, flow map and later keys.
const MORE: &[&str] = &[
    "calc.currency",
    "calc.err_large",
    "calc.err_negative",
    "calc.err_number",
    "calc.hint",
    "calc.hourly_cost",
    "calc.hours",
    "calc.incidents",
    "calc.people",
    "calc.result",
    "checklist.summary",
    "decision.see_it_key",
    "store.recovered",
    "store.shared_folder",
    "store.busy",
    "store.waited",
    "key.broker",
    "key.cause_fixed",
    "key.compare",
    "key.faster",
    "key.fault",
    "key.first_event",
    "key.mode",
    "key.pick",
    "key.pick_card",
    "key.play",
    "key.reorder",
    "key.replay",
    "key.replay_new_id",
    "key.restart",
    "key.run_to_end",
    "key.scenario",
    "key.seed",
    "key.slower",
    "key.step",
    "key.tabs",
    "metric.accepted",
    "metric.age_max",
    "metric.age_p50",
    "metric.age_p95",
    "metric.dead_lettered",
    "metric.delivered",
    "metric.duplicate_effects",
    "metric.effects",
    "metric.lock_lost",
    "metric.lost",
    "metric.out_of_order",
    "metric.outbox_lag",
    "metric.prevented",
    "metric.published",
    "metric.redeliveries",
    "metric.retries",
    "ordering.again",
    "ordering.correct",
    "ordering.missing",
    "ordering.progress",
    "ordering.record",
    "simulator.batch",
    "simulator.cause_fixed",
    "simulator.choose_fault",
    "simulator.choose_scenario",
    "simulator.compare_diff",
    "simulator.compare_paths",
    "simulator.compare_running",
    "simulator.compare_same",
    "simulator.compare_title",
    "simulator.compare_verdicts",
    "simulator.dlq_count",
    "simulator.triage_dropped",
    "simulator.triage_new_id",
    "simulator.triage_no_reason",
    "simulator.event",
    "simulator.failed",
    "simulator.fault_armed",
    "simulator.finished",
    "simulator.history",
    "simulator.invariants",
    "simulator.invariants_broken",
    "simulator.invariants_ok",
    "simulator.log_empty",
    "simulator.mark_down",
    "simulator.mark_duplicates",
    "simulator.mark_failed",
    "simulator.mark_unknown",
    "simulator.no_run",
    "simulator.not_started",
    "simulator.path",
    "simulator.paused",
    "simulator.picker_keys",
    "simulator.playing",
    "simulator.press_play",
    "simulator.rows",
    "simulator.seed",
    "simulator.tab_dlq",
    "simulator.tab_log",
    "simulator.tab_metrics",
    "simulator.tab_tables",
    // --- polish (issue 15 / 13) ---
    "key.page_down",
    "key.page_up",
    "key.top",
    "key.bottom",
    "key.tab_prev",
    "key.tabs_prev",
    "reader.help_title",
    "home.help_title",
    "quiz.picked_right",
    "quiz.picked_wrong",
    "quiz.missed",
    "quiz.select_first",
    "quiz.select_first_single",
    "quiz.tui_multi_hint",
    "quiz.tui_single_hint",
    "sim.cli_summary",
    "sim.cli_ok",
    "sim.cli_broken",
    "sim.cli_events",
    "sim.cli_files",
    "key.space_reader",
    "home.quit_confirm",
    "report.chapters_read",
    "report.learner",
    "report.subject_named",
    "report.details",
    "report.name_too_long",
    "report.name_control",
    "report.name_prompt",
    "report.name_hint",
    "report.tab_key",
    "simulator.quiet_step",
    "simulator.quiet_steps",
    "simulator.mode_safe",
    "simulator.mode_naive",
    "simulator.mode_pitfall",
    "flow.title_api",
    "flow.title_outbox",
    "flow.title_dispatcher",
    "flow.title_retry",
    "flow.title_dlq",
    "flow.title_consumers",
    "flow.title_effect",
    "flow.short_api",
    "flow.short_outbox",
    "flow.short_dispatcher",
    "flow.short_retry",
    "flow.short_dlq",
    "flow.short_consumers",
    "flow.short_effect",
    "flow.api",
    "flow.outbox",
    "flow.outbox_oldest",
    "flow.dispatcher",
    "flow.broker_asb",
    "flow.broker_sqs",
    "flow.retry",
    "flow.dlq",
    "flow.effect",
    "flow.effect_dups",
    "consumer.idle",
    "consumer.received",
    "consumer.processing",
    "consumer.duplicate",
    "consumer.applied",
    "consumer.completed",
    "consumer.deleted",
    "consumer.lost_connection_asb",
    "consumer.lost_connection_sqs",
    "consumer.lock_lost_asb",
    "consumer.lock_lost_sqs",
    "consumer.renewed_asb",
    "consumer.renewed_sqs",
    "consumer.failed",
    "consumer.retry",
    "consumer.dead_lettered",
    "simulator.story_header",
    "simulator.story_keys",
    "simulator.story_back",
    "simulator.story_head",
    "simulator.story_on",
    "simulator.story_off",
    "key.why",
    "key.next_moment",
    "key.pause_moments",
    "key.full_log",
    "key.sql",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_joined_list_holds_both_parts_once_each() {
        assert_eq!(KEYS.len(), screens::SCREENS.len() + MORE.len());
        assert_eq!(KEYS.first(), screens::SCREENS.first());
        assert_eq!(KEYS.last(), MORE.last());
        let unique: std::collections::BTreeSet<_> = KEYS.iter().collect();
        assert_eq!(unique.len(), KEYS.len(), "a key is listed twice");
        assert!(KEYS.iter().all(|k| k.contains('.')), "every slot filled");
    }
}

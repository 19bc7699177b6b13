//! The simulator's engine and the labs' checks, without the app: every scenario × mode ×
//! broker, the engine's API and history, the truth of its captions and moments, and each lab's
//! files checked as a learner's would be. One binary for all of them, so their shared support
//! compiles once and a change to a view does not relink them.

mod lab_catalogue;
mod lab_check;
mod lab_claim;
mod lab_external_effect;
mod lab_mutants;
mod lab_order;
mod lab_outbox;
mod lab_poison;
mod sim_asb_sends;
mod sim_dlq_truths;
mod sim_engine_api;
mod sim_event_fidelity;
mod sim_history_record;
mod sim_moments;
mod sim_property;
mod sim_regressions;
mod sim_scenarios;
mod sim_scheduled_copy;
mod sim_triage_replay;
mod sim_truth;
mod sim_vendor_truths;
mod support;

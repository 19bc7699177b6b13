//! The app's screens as a learner sees them, drawn on a test backend: the reader, the map, the
//! quiz, the labs, the dashboard, banners and sizes (with their snapshots), and the simulator's
//! screen driven through the app exactly as the runtime drives it.

mod banners;
mod calculator_screen;
mod dashboard_snapshots;
mod decision_screens;
mod decision_see_it;
mod first_frame;
mod join_dialog;
mod lab_captions_german;
mod lab_cause_event;
mod lab_snapshots;
mod map_snapshots;
mod ordering_screen;
mod qr_themes;
mod quiz_screens;
mod screen_sizes;
mod sim_caption_durations;
mod sim_content_override;
mod sim_decision_runs;
mod sim_flow_tokens;
mod sim_screen;
mod sim_screen_edges;
mod sim_screen_progress;
mod sim_story;
mod sim_triage_screen;
mod snapshots;
mod support;

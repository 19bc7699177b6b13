//! The real binary from outside: its command line, its screens in a real pseudo-terminal, a
//! closed or vanished terminal, the share server, and mail against a real SMTP server on
//! loopback (the library's mail flows and the whole walk through the plain modes).

mod cli;
mod closed_stdout;
mod code_race;
mod e2e_pty;
mod e2e_sim_pty;
mod http_hostile;
mod lab_bounded;
mod lab_census;
mod lab_cli;
mod lab_pty;
mod locked_store;
mod mail_smtp;
mod map_export;
mod map_pty;
mod plain_flow;
mod quiz_pty;
mod share_cli;
mod sim_cli;
mod sim_moments_cli;
mod sim_story_pty;
mod store_start_pty;
mod support;
mod terminal_closed;
mod terminal_restore;
mod walkthrough;

//! The course and the house: the content's rules and fixtures, the counts the README states, the
//! crates' layering, no history in code or docs, robustness against hostile input, and the log.

mod architecture;
mod content_fixtures;
mod course_rules;
mod log_early;
mod no_history;
mod readme_counts;
mod robustness;

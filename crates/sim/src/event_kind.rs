//! The kinds of events (defined in `queuelab-model`) and the check that the captions the engine
//! needs are all there, which takes the engine's own lists.

pub use model::event_kind::*;

#[cfg(test)]
mod tests;

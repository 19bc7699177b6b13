//! Messages into the pure core, and the effects it asks the runtime to carry out.

use super::input::{Key, Mouse};
use crate::domain::Fact;

/// Something that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    /// A key was pressed.
    Key(Key),
    /// The mouse was used.
    Mouse(Mouse),
    /// The terminal was resized.
    Resized { width: u16, height: u16 },
    /// A fact was saved (or not).
    FactSaved(Result<(), String>),
    /// Results were cleared (or not).
    ResultsCleared(Result<(), String>),
}

/// Something the runtime must do for the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Save a fact in its own transaction.
    Save(Fact),
    /// Delete every result about the learner.
    ClearResults,
    /// Leave the program (the runtime restores the terminal).
    Quit,
}

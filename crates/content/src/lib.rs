//! Course content as data: lessons, decisions, ordering game, reference, quiz, UI strings,
//! simulator scenarios and labs, loaded from the embedded copy or from a folder and validated.

// queuelab runs on Unix: Linux and macOS, and Windows through WSL, which is a Linux. A native
// Windows build would fail in a wall of errors about terminals, signals and file modes in the
// crates above (`src/platform.rs`, `crates/services/src/platform.rs`); this crate is the lowest,
// so its one message comes first and says what to do instead.
#[cfg(not(unix))]
compile_error!(
    "queuelab builds on Linux and macOS only. On Windows, build and run it inside WSL (Windows Subsystem for Linux): docs/src/platforms.md, \"Windows: WSL\", says how, step by step."
);

mod captions;
mod chapter;
mod decision;
mod deferred;
pub mod doc;
mod glossary;
mod labs;
mod lang;
mod loader;
mod moments;
mod ordering;
mod problem;
mod quiz;
mod reference;
pub mod scenario;
mod source;
mod strings;
mod toml_file;
mod validate;

pub use captions::{CAPTIONS_PATH, Captions, parse as captions_parse};
pub use chapter::Chapter;
pub use decision::{Decision, DecisionOption};
pub use deferred::Deferred;
pub use doc::{Block, Directive, Inline, InlineStyle};
pub use glossary::{Glossary, Term as GlossaryTerm};
pub use labs::{
    HINT_LEVELS as LAB_HINT_LEVELS, Known as LabsKnown, Lab, LabInvariant,
    MAX_SEEDS as LAB_MAX_SEEDS, Section as LabSection, StartFails, expected_failure,
    is_failure_name, load as load_labs,
};
pub use lang::Lang;
pub use loader::{Content, Course, load, load_shown, parse_one};
pub use moments::{MOMENT_KEYS, MOMENTS_PATH, parse as moments_parse};
pub use ordering::{Ordering, OrderingStep, STEP_COUNT as ORDERING_STEPS};
pub use problem::{Problem, line_column as problem_position};
pub use quiz::{QUESTION_COUNT, Question, QuestionOption, Quiz, QuizLevel, TOPICS};
pub use reference::{
    Calculator, ChecklistItem, FlowStage, Level, Reference, RunbookSignal, Source,
};
pub use scenario::{Scenario, ScenarioText};
pub use source::ContentSource;
pub use strings::{Key, Strings, key};

/// The version of the content format this build reads; every file declares it.
pub const FORMAT_VERSION: u32 = 1;

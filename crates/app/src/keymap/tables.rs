//! The key table of every screen. Order matters: the first row whose keys match wins.

use super::{Action, Binding, KeyCode, KeyPattern};
use content::key;

use Action as A;
use KeyCode as K;
use KeyPattern::{Char as C, Code, Digit};

const fn b(
    keys: &'static [KeyPattern],
    action: Action,
    label: content::Key,
    legend: bool,
) -> Binding {
    Binding {
        keys,
        action,
        label,
        legend,
    }
}

const MOVE: Binding = b(
    &[Code(K::Up), Code(K::Down), C('k'), C('j')],
    A::Up,
    key::key::UP_DOWN,
    true,
);
const OPEN: Binding = b(
    &[Code(K::Enter), Code(K::Right)],
    A::Open,
    key::key::ENTER,
    true,
);
const BACK: Binding = b(
    &[C('q'), Code(K::Esc), Code(K::Left)],
    A::Back,
    key::key::BACK,
    true,
);
const HELP: Binding = b(&[C('?')], A::Help, key::key::HELP, true);

pub(super) const HOME: &[Binding] = &[
    MOVE,
    OPEN,
    b(&[C('w')], A::Workshop, key::key::WORKSHOP, true),
    b(&[Digit], A::Number(0), key::key::NUMBER, false),
    b(&[C('q'), Code(K::Esc)], A::Back, key::key::QUIT, true),
    // After quit: a narrow legend drops it before "q quit".
    b(&[C('l')], A::Labs, key::key::LABS, true),
    HELP,
];

pub(super) const CHAPTERS: &[Binding] = &[
    MOVE,
    OPEN,
    b(&[Digit], A::Number(0), key::key::NUMBER_CHAPTERS, true),
    b(&[Code(K::Home), C('g')], A::Top, key::key::TOP, false),
    b(&[Code(K::End), C('G')], A::Bottom, key::key::BOTTOM, false),
    b(&[C('/')], A::Search, key::key::SEARCH, false),
    BACK,
    HELP,
];

pub(super) const READER: &[Binding] = &[
    b(
        &[Code(K::Up), Code(K::Down), C('k'), C('j')],
        A::Up,
        key::key::SCROLL,
        true,
    ),
    b(
        &[Code(K::PageDown)],
        A::PageDown,
        key::key::PAGE_DOWN,
        false,
    ),
    b(&[C(' ')], A::Select, key::key::SPACE_READER, false),
    b(
        &[Code(K::PageUp), C('b')],
        A::PageUp,
        key::key::PAGE_UP,
        false,
    ),
    b(&[Code(K::Home), C('g')], A::Top, key::key::TOP, false),
    b(&[Code(K::End), C('G')], A::Bottom, key::key::BOTTOM, false),
    b(
        &[C('n'), Code(K::Right)],
        A::NextChapter,
        key::key::NEXT_CHAPTER,
        true,
    ),
    b(
        &[C('p'), Code(K::Left)],
        A::PrevChapter,
        key::key::PREV_CHAPTER,
        false,
    ),
    b(&[Code(K::Tab)], A::FocusNext, key::key::TAB, true),
    b(&[Code(K::BackTab)], A::FocusPrev, key::key::TAB_PREV, false),
    b(&[Digit], A::Number(0), key::key::OPTION, false),
    b(&[Code(K::Enter)], A::Open, key::key::ENTER, false),
    b(&[C('s')], A::SeeItHappen, key::decision::SEE_IT_KEY, false),
    b(&[C('/')], A::Search, key::key::SEARCH, true),
    b(&[C('N')], A::SearchNext, key::key::SEARCH_NEXT, false),
    b(&[C('q'), Code(K::Esc)], A::Back, key::key::BACK, true),
    HELP,
];

pub(super) const SETTINGS: &[Binding] = &[
    MOVE,
    OPEN,
    b(&[C('l')], A::ToggleLang, key::key::TOGGLE_LANG, true),
    b(&[C('x')], A::Clear, key::key::CLEAR, true),
    BACK,
    // After Back: a narrow legend drops it before "q back".
    b(&[C('d')], A::DeleteDamaged, key::key::DELETE_DAMAGED, true),
    HELP,
];

pub(super) const ORDERING: &[Binding] = &[
    b(&[Digit], A::Number(0), key::key::PICK_CARD, true),
    MOVE,
    b(&[Code(K::PageUp)], A::PageUp, key::key::PAGE_UP, false),
    b(
        &[Code(K::PageDown)],
        A::PageDown,
        key::key::PAGE_DOWN,
        false,
    ),
    b(&[Code(K::Home)], A::Top, key::key::TOP, false),
    b(&[Code(K::End)], A::Bottom, key::key::BOTTOM, false),
    b(&[Code(K::Enter)], A::Open, key::key::PICK, true),
    b(&[C('r')], A::Restart, key::key::REORDER, true),
    BACK,
    HELP,
];

pub(super) const LAB_LIST: &[Binding] = &[
    MOVE,
    OPEN,
    b(&[Digit], A::Number(0), key::key::NUMBER_LABS, false),
    BACK,
    HELP,
];

pub(super) const LAB: &[Binding] = &[
    b(&[C('e')], A::Edit, key::key::LAB_EDIT, true),
    b(&[C('c')], A::CheckLab, key::key::LAB_CHECK, true),
    // In the help only: the failure line names it where it works.
    b(&[C('s')], A::SeeItHappen, key::key::LAB_FAILED_RUN, false),
    b(&[C('h')], A::Hint, key::key::LAB_HINT, true),
    b(&[C('r')], A::Restart, key::key::LAB_RESET, true),
    b(
        &[Code(K::Up), Code(K::Down), C('k'), C('j')],
        A::Up,
        key::key::SCROLL,
        false,
    ),
    b(
        &[Code(K::PageUp), C('b')],
        A::PageUp,
        key::key::PAGE_UP,
        false,
    ),
    b(
        &[Code(K::PageDown), C(' ')],
        A::PageDown,
        key::key::PAGE_DOWN,
        false,
    ),
    b(&[Code(K::Home), C('g')], A::Top, key::key::TOP, false),
    b(&[C('q'), Code(K::Esc)], A::Back, key::key::BACK, true),
    HELP,
];

pub(super) const SIMULATOR: &[Binding] = &[
    b(&[C(' '), C('.')], A::PlayPause, key::key::PLAY, true),
    b(
        &[Code(K::Left), Code(K::Right), C('h'), C('l')],
        A::StepBack,
        key::key::STEP,
        true,
    ),
    b(&[C('i')], A::InjectFault, key::key::FAULT, true),
    b(&[C('c')], A::ChooseScenario, key::key::SCENARIO, true),
    b(&[C('m')], A::CycleMode, key::key::MODE, true),
    b(&[Code(K::Tab)], A::FocusNext, key::key::TABS, true),
    b(
        &[Code(K::BackTab)],
        A::FocusPrev,
        key::key::TABS_PREV,
        false,
    ),
    b(&[C('v')], A::Compare, key::key::COMPARE, true),
    b(&[C('b')], A::CycleBroker, key::key::BROKER, false),
    b(&[C('+'), C('=')], A::Faster, key::key::FASTER, false),
    b(&[C('-')], A::Slower, key::key::SLOWER, false),
    b(
        &[Code(K::Home), C('g')],
        A::Top,
        key::key::FIRST_EVENT,
        false,
    ),
    b(
        &[Code(K::End), C('G')],
        A::Bottom,
        key::key::RUN_TO_END,
        false,
    ),
    b(&[C('r')], A::Restart, key::key::RESTART, false),
    b(&[C('n')], A::NextSeed, key::key::SEED, false),
    b(
        &[Code(K::Up), Code(K::Down), C('k'), C('j')],
        A::Up,
        key::key::SCROLL_OR_BATCH,
        false,
    ),
    b(&[Code(K::PageUp)], A::PageUp, key::key::PAGE_UP, false),
    b(
        &[Code(K::PageDown)],
        A::PageDown,
        key::key::PAGE_DOWN,
        false,
    ),
    b(&[C('f')], A::ToggleFixed, key::key::CAUSE_FIXED, false),
    b(&[C('w')], A::JumpToCause, key::key::WHY, true),
    b(&[C(']')], A::NextMoment, key::key::NEXT_MOMENT, false),
    b(&[C('[')], A::PrevMoment, key::key::PREV_MOMENT, false),
    b(
        &[C('p')],
        A::TogglePauseAtMoments,
        key::key::PAUSE_MOMENTS,
        false,
    ),
    b(&[C('o')], A::ToggleFullLog, key::key::FULL_LOG, false),
    b(&[C('s')], A::ToggleSql, key::key::SQL, false),
    b(&[Code(K::Enter)], A::Open, key::key::REPLAY, false),
    b(&[C('N')], A::ReplayNewIds, key::key::REPLAY_NEW_ID, false),
    b(&[C('q'), Code(K::Esc)], A::Back, key::key::BACK, true),
    HELP,
];

pub(super) const MAP: &[Binding] = &[
    b(
        &[Code(K::Up), Code(K::Down), C('k'), C('j')],
        A::Up,
        key::key::SCROLL,
        true,
    ),
    b(
        &[Code(K::PageDown), C(' ')],
        A::PageDown,
        key::key::PAGE_DOWN,
        false,
    ),
    b(
        &[Code(K::PageUp), C('b')],
        A::PageUp,
        key::key::PAGE_UP,
        false,
    ),
    b(&[Code(K::Home), C('g')], A::Top, key::key::TOP, false),
    b(&[Code(K::End), C('G')], A::Bottom, key::key::BOTTOM, false),
    b(&[C('s')], A::Share, key::key::SHARE, true),
    BACK,
    HELP,
];

pub(super) const QUIZ: &[Binding] = &[
    MOVE,
    b(&[C(' ')], A::Select, key::quiz::SELECT, true),
    b(&[Digit], A::Number(0), key::key::OPTION, false),
    b(&[Code(K::Enter)], A::Open, key::quiz::SUBMIT, true),
    b(
        &[Code(K::PageDown)],
        A::PageDown,
        key::key::PAGE_DOWN,
        false,
    ),
    b(&[Code(K::PageUp)], A::PageUp, key::key::PAGE_UP, false),
    b(&[Code(K::Home), C('g')], A::Top, key::key::TOP, false),
    b(&[Code(K::End), C('G')], A::Bottom, key::key::BOTTOM, false),
    b(&[C('r')], A::Retake, key::quiz::RETAKE, true),
    b(&[C('m')], A::SendReport, key::quiz::TO_REPORT, true),
    b(&[C('q'), Code(K::Esc)], A::Back, key::key::BACK, true),
    HELP,
];

/// While typing, the report screen takes characters itself; this table is what the legend
/// and help describe, and what applies once the report is queued.
pub(super) const REPORT: &[Binding] = &[
    b(&[Code(K::Enter)], A::Open, key::report::CONFIRM_KEY, true),
    b(&[Code(K::Tab)], A::FocusNext, key::report::TAB_KEY, false),
    b(&[C('r')], A::Retake, key::report::NEW_CODE_KEY, true),
    b(&[Code(K::Esc), C('q')], A::Back, key::key::BACK, true),
    HELP,
];

/// The stuck key: in every screen's help (it acts only while joined, so it takes no key from
/// any screen).
const STUCK: Binding = b(&[C(crate::STUCK_KEY)], A::Stuck, key::key::STUCK, false);

/// The workshop rows every help overlay ends with.
pub const WORKSHOP_HELP: &[Binding] = &[STUCK];

/// Keys of a workshop session: the stuck signal and the instructor's banner (follow it, put it
/// away; the banner names these two keys itself, and they act only while it shows).
pub const WORKSHOP: &[Binding] = &[
    STUCK,
    b(
        &[C(super::FOLLOW_KEY)],
        A::FollowPace,
        key::key::FOLLOW_PACE,
        false,
    ),
    b(
        &[C(super::DISMISS_KEY)],
        A::DismissPace,
        key::key::DISMISS_PACE,
        false,
    ),
];

//! The key table of every screen. Order matters: the first row whose keys match wins.

use super::{Action, Binding, KeyCode, KeyPattern};

use Action as A;
use KeyCode as K;
use KeyPattern::{Char as C, Code, Digit};

const fn b(
    keys: &'static [KeyPattern],
    action: Action,
    label: &'static str,
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
    "key.up_down",
    true,
);
const OPEN: Binding = b(
    &[Code(K::Enter), Code(K::Right)],
    A::Open,
    "key.enter",
    true,
);
const BACK: Binding = b(
    &[C('q'), Code(K::Esc), Code(K::Left)],
    A::Back,
    "key.back",
    true,
);
const HELP: Binding = b(&[C('?')], A::Help, "key.help", true);

pub(super) const HOME: &[Binding] = &[
    MOVE,
    OPEN,
    b(&[C('w')], A::Workshop, "key.workshop", true),
    b(&[Digit], A::Number(0), "key.number", false),
    b(&[C('q'), Code(K::Esc)], A::Back, "key.quit", true),
    // After quit: a narrow legend drops it before "q quit".
    b(&[C('l')], A::Labs, "key.labs", true),
    HELP,
];

pub(super) const CHAPTERS: &[Binding] = &[
    MOVE,
    OPEN,
    b(&[Digit], A::Number(0), "key.number_chapters", true),
    b(&[Code(K::Home), C('g')], A::Top, "key.top", false),
    b(&[Code(K::End), C('G')], A::Bottom, "key.bottom", false),
    b(&[C('/')], A::Search, "key.search", false),
    BACK,
    HELP,
];

pub(super) const READER: &[Binding] = &[
    b(
        &[Code(K::Up), Code(K::Down), C('k'), C('j')],
        A::Up,
        "key.scroll",
        true,
    ),
    b(&[Code(K::PageDown)], A::PageDown, "key.page_down", false),
    b(&[C(' ')], A::Select, "key.space_reader", false),
    b(&[Code(K::PageUp), C('b')], A::PageUp, "key.page_up", false),
    b(&[Code(K::Home), C('g')], A::Top, "key.top", false),
    b(&[Code(K::End), C('G')], A::Bottom, "key.bottom", false),
    b(
        &[C('n'), Code(K::Right)],
        A::NextChapter,
        "key.next_chapter",
        true,
    ),
    b(
        &[C('p'), Code(K::Left)],
        A::PrevChapter,
        "key.prev_chapter",
        false,
    ),
    b(&[Code(K::Tab)], A::FocusNext, "key.tab", true),
    b(&[Code(K::BackTab)], A::FocusPrev, "key.tab_prev", false),
    b(&[Digit], A::Number(0), "key.option", false),
    b(&[Code(K::Enter)], A::Open, "key.enter", false),
    b(&[C('s')], A::SeeItHappen, "decision.see_it_key", false),
    b(&[C('/')], A::Search, "key.search", true),
    b(&[C('N')], A::SearchNext, "key.search_next", false),
    b(&[C('q'), Code(K::Esc)], A::Back, "key.back", true),
    HELP,
];

pub(super) const SETTINGS: &[Binding] = &[
    MOVE,
    OPEN,
    b(&[C('l')], A::ToggleLang, "key.toggle_lang", true),
    b(&[C('x')], A::Clear, "key.clear", true),
    BACK,
    // After Back: a narrow legend drops it before "q back".
    b(&[C('d')], A::DeleteDamaged, "key.delete_damaged", true),
    HELP,
];

pub(super) const ORDERING: &[Binding] = &[
    b(&[Digit], A::Number(0), "key.pick_card", true),
    MOVE,
    b(&[Code(K::PageUp)], A::PageUp, "key.page_up", false),
    b(&[Code(K::PageDown)], A::PageDown, "key.page_down", false),
    b(&[Code(K::Home)], A::Top, "key.top", false),
    b(&[Code(K::End)], A::Bottom, "key.bottom", false),
    b(&[Code(K::Enter)], A::Open, "key.pick", true),
    b(&[C('r')], A::Restart, "key.reorder", true),
    BACK,
    HELP,
];

pub(super) const LAB_LIST: &[Binding] = &[
    MOVE,
    OPEN,
    b(&[Digit], A::Number(0), "key.number_labs", false),
    BACK,
    HELP,
];

pub(super) const LAB: &[Binding] = &[
    b(&[C('e')], A::Edit, "key.lab_edit", true),
    b(&[C('c')], A::CheckLab, "key.lab_check", true),
    // In the help only: the failure line names it where it works.
    b(&[C('s')], A::SeeItHappen, "key.lab_failed_run", false),
    b(&[C('h')], A::Hint, "key.lab_hint", true),
    b(&[C('r')], A::Restart, "key.lab_reset", true),
    b(
        &[Code(K::Up), Code(K::Down), C('k'), C('j')],
        A::Up,
        "key.scroll",
        false,
    ),
    b(&[Code(K::PageUp), C('b')], A::PageUp, "key.page_up", false),
    b(
        &[Code(K::PageDown), C(' ')],
        A::PageDown,
        "key.page_down",
        false,
    ),
    b(&[Code(K::Home), C('g')], A::Top, "key.top", false),
    b(&[C('q'), Code(K::Esc)], A::Back, "key.back", true),
    HELP,
];

pub(super) const SIMULATOR: &[Binding] = &[
    b(&[C(' '), C('.')], A::PlayPause, "key.play", true),
    b(
        &[Code(K::Left), Code(K::Right), C('h'), C('l')],
        A::StepBack,
        "key.step",
        true,
    ),
    b(&[C('i')], A::InjectFault, "key.fault", true),
    b(&[C('c')], A::ChooseScenario, "key.scenario", true),
    b(&[C('m')], A::CycleMode, "key.mode", true),
    b(&[Code(K::Tab)], A::FocusNext, "key.tabs", true),
    b(&[Code(K::BackTab)], A::FocusPrev, "key.tabs_prev", false),
    b(&[C('v')], A::Compare, "key.compare", true),
    b(&[C('b')], A::CycleBroker, "key.broker", false),
    b(&[C('+'), C('=')], A::Faster, "key.faster", false),
    b(&[C('-')], A::Slower, "key.slower", false),
    b(&[Code(K::Home), C('g')], A::Top, "key.first_event", false),
    b(&[Code(K::End), C('G')], A::Bottom, "key.run_to_end", false),
    b(&[C('r')], A::Restart, "key.restart", false),
    b(&[C('n')], A::NextSeed, "key.seed", false),
    b(
        &[Code(K::Up), Code(K::Down), C('k'), C('j')],
        A::Up,
        "key.scroll_or_batch",
        false,
    ),
    b(&[Code(K::PageUp)], A::PageUp, "key.page_up", false),
    b(&[Code(K::PageDown)], A::PageDown, "key.page_down", false),
    b(&[C('f')], A::ToggleFixed, "key.cause_fixed", false),
    b(&[C('w')], A::JumpToCause, "key.why", true),
    b(&[C(']')], A::NextMoment, "key.next_moment", false),
    b(&[C('[')], A::PrevMoment, "key.prev_moment", false),
    b(
        &[C('p')],
        A::TogglePauseAtMoments,
        "key.pause_moments",
        false,
    ),
    b(&[C('o')], A::ToggleFullLog, "key.full_log", false),
    b(&[C('s')], A::ToggleSql, "key.sql", false),
    b(&[Code(K::Enter)], A::Open, "key.replay", false),
    b(&[C('N')], A::ReplayNewIds, "key.replay_new_id", false),
    b(&[C('q'), Code(K::Esc)], A::Back, "key.back", true),
    HELP,
];

pub(super) const MAP: &[Binding] = &[
    b(
        &[Code(K::Up), Code(K::Down), C('k'), C('j')],
        A::Up,
        "key.scroll",
        true,
    ),
    b(
        &[Code(K::PageDown), C(' ')],
        A::PageDown,
        "key.page_down",
        false,
    ),
    b(&[Code(K::PageUp), C('b')], A::PageUp, "key.page_up", false),
    b(&[Code(K::Home), C('g')], A::Top, "key.top", false),
    b(&[Code(K::End), C('G')], A::Bottom, "key.bottom", false),
    b(&[C('s')], A::Share, "key.share", true),
    BACK,
    HELP,
];

pub(super) const QUIZ: &[Binding] = &[
    MOVE,
    b(&[C(' ')], A::Select, "quiz.select", true),
    b(&[Digit], A::Number(0), "key.option", false),
    b(&[Code(K::Enter)], A::Open, "quiz.submit", true),
    b(&[Code(K::PageDown)], A::PageDown, "key.page_down", false),
    b(&[Code(K::PageUp)], A::PageUp, "key.page_up", false),
    b(&[Code(K::Home), C('g')], A::Top, "key.top", false),
    b(&[Code(K::End), C('G')], A::Bottom, "key.bottom", false),
    b(&[C('r')], A::Retake, "quiz.retake", true),
    b(&[C('m')], A::SendReport, "quiz.to_report", true),
    b(&[C('q'), Code(K::Esc)], A::Back, "key.back", true),
    HELP,
];

/// While typing, the report screen takes characters itself; this table is what the legend
/// and help describe, and what applies once the report is queued.
pub(super) const REPORT: &[Binding] = &[
    b(&[Code(K::Enter)], A::Open, "report.confirm_key", true),
    b(&[Code(K::Tab)], A::FocusNext, "report.tab_key", false),
    b(&[C('r')], A::Retake, "report.new_code_key", true),
    b(&[Code(K::Esc), C('q')], A::Back, "key.back", true),
    HELP,
];

/// The stuck key: in every screen's help (it acts only while joined, so it takes no key from
/// any screen).
const STUCK: Binding = b(&[C(crate::STUCK_KEY)], A::Stuck, "key.stuck", false);

/// The workshop rows every help overlay ends with.
pub const WORKSHOP_HELP: &[Binding] = &[STUCK];

/// Keys of a workshop session: the stuck signal and the instructor's banner (follow it, put it
/// away; the banner names these two keys itself, and they act only while it shows).
pub const WORKSHOP: &[Binding] = &[
    STUCK,
    b(
        &[C(super::FOLLOW_KEY)],
        A::FollowPace,
        "key.follow_pace",
        false,
    ),
    b(
        &[C(super::DISMISS_KEY)],
        A::DismissPace,
        "key.dismiss_pace",
        false,
    ),
];

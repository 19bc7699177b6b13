//! The reader's interactive parts: focus, decision answers, checklist ticks, the calculator.

use super::super::doc_layout::{Target, targets};
use super::super::input::{Key, KeyCode};
use super::super::keymap::Action;
use super::super::{Effect, Session};
use super::{ReaderState, lines, scroll_by};
use content::key;
use domain::Fact;

/// The chapter's interactive parts.
fn chapter_targets(s: &ReaderState, session: &Session) -> Vec<Target> {
    let course = session.course();
    course
        .chapters
        .get(s.chapter)
        .map(|c| targets(c, course))
        .unwrap_or_default()
}

/// Whether the focused part is a checklist item.
pub fn checklist_focused(s: &ReaderState, session: &Session) -> bool {
    s.focus
        .and_then(|f| chapter_targets(s, session).get(f).cloned())
        .is_some_and(|t| matches!(t, Target::Checklist(_)))
}

/// Focuses a part (or none) and scrolls it into view.
pub fn focus(
    current: &mut ReaderState,
    session: &mut Session,
    target: Option<usize>,
) -> Vec<Effect> {
    current.focus = target;
    let Some(target) = target else {
        return Vec::new();
    };
    let all = lines(session, current);
    let first = all
        .iter()
        .position(|l| l.target == Some(target))
        .unwrap_or(0) as i64;
    let own_last = all
        .iter()
        .rposition(|l| l.target == Some(target))
        .unwrap_or(0);
    // The outcome lines right after the part (the product, an error) come on screen with it.
    let last = all
        .iter()
        .enumerate()
        .skip(own_last + 1)
        .take_while(|(_, l)| l.companion || l.target.is_some())
        .filter(|(_, l)| l.companion)
        .map(|(i, _)| i)
        .last()
        .unwrap_or(own_last) as i64;
    let height = i64::from(super::layout::reader_text(session.size.0, session.size.1).height);
    let scroll = i64::from(current.scroll);
    let delta = if first < scroll {
        first - scroll
    } else if last >= scroll + height {
        (last - height + 1).min(first) - scroll
    } else {
        0
    };
    scroll_by(current, session, delta)
}

/// Handles the actions that act on interactive parts.
pub fn on_action(s: &mut ReaderState, session: &mut Session, action: Action) -> Vec<Effect> {
    let all = chapter_targets(s, session);
    let current = s.focus;
    match action {
        Action::FocusNext if !all.is_empty() => {
            focus(s, session, Some(current.map_or(0, |f| (f + 1) % all.len())))
        }
        Action::FocusPrev if !all.is_empty() => focus(
            s,
            session,
            Some(current.map_or(all.len() - 1, |f| (f + all.len() - 1) % all.len())),
        ),
        Action::Number(n) => answer(s, session, &all, current, n),
        Action::Open => match current {
            Some(target) => activate(s, session, &all, target),
            None => Vec::new(),
        },
        Action::SeeItHappen => {
            // A focused decision's scenario first, then a scenario the text on screen names
            // ("Szenario `lost-ack`"), then the chapter's decision, then any scenario it names:
            // what the chapter promises, `s` opens.
            let focused = current
                .and_then(|t| all.get(t))
                .filter(|t| matches!(t, Target::Decision(_)));
            if focused.is_none()
                && let Some(id) = named_scenario(s, session, true)
            {
                return crate::simulator::open(session, Some(&id));
            }
            let decision =
                focused.or_else(|| all.iter().find(|t| matches!(t, Target::Decision(_))));
            if decision.is_none()
                && let Some(id) = named_scenario(s, session, false)
            {
                return crate::simulator::open(session, Some(&id));
            }
            if let Some(Target::Decision(id)) = decision {
                return see_decision_happen(session, id);
            }
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// "See it happen" for decision `id`: the learner's answer, if any, plays its own run beside
/// the safe one (predict, then observe). An answer whose design no run shows opens the right
/// one's run alone and says so, rather than playing another design as if it were the answer.
fn see_decision_happen(session: &mut Session, id: &str) -> Vec<Effect> {
    let Some(d) = session.course().decision(id) else {
        return Vec::new();
    };
    let chosen = session
        .progress
        .decisions
        .get(id)
        .and_then(|option| d.option(option));
    let (scenario, mode) = match chosen.map(|o| (o, o.run())) {
        Some((_, Some((scenario, mode)))) => (scenario.to_owned(), model::Mode::parse(mode)),
        Some((_, None)) => (d.scenario.clone(), Some(model::Mode::Safe)),
        None => (d.scenario.clone(), None),
    };
    let no_run = chosen.is_some_and(|o| o.run().is_none());
    let effects = crate::simulator::open_for_decision(session, &scenario, mode);
    if no_run {
        let text = session.strings().get(key::decision::NO_RUN).to_owned();
        session.notify(text, false);
    }
    effects
}

/// The first simulator scenario the chapter names by its id (on screen only, or anywhere).
fn named_scenario(s: &ReaderState, session: &Session, on_screen: bool) -> Option<String> {
    let lines = super::lines(session, s);
    let height = usize::from(crate::layout::reader_text(session.size.0, session.size.1).height);
    let (skip, take) = if on_screen {
        (s.scroll as usize, height)
    } else {
        (0, lines.len())
    };
    let ids: Vec<&str> = session
        .content
        .scenarios
        .iter()
        .map(|sc| sc.id.as_str())
        .collect();
    // Only inline code names a scenario (`lost-ack`): prose words such as "backlog" do not.
    lines
        .iter()
        .skip(skip)
        .take(take)
        .flat_map(|line| &line.spans)
        .filter(|span| span.tone == super::super::doc_layout::Tone::Code)
        .find_map(|span| {
            let word = span.text.trim().trim_matches('`');
            ids.contains(&word).then(|| word.to_owned())
        })
}

/// A digit answers the focused decision, or the chapter's only decision when none is focused.
fn answer(
    s: &mut ReaderState,
    session: &mut Session,
    all: &[Target],
    focused: Option<usize>,
    n: u8,
) -> Vec<Effect> {
    let decisions: Vec<usize> = all
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t, Target::Decision(_)))
        .map(|(i, _)| i)
        .collect();
    let target = match focused {
        Some(f) if decisions.contains(&f) => f,
        None if decisions.len() == 1 => decisions[0],
        _ => return Vec::new(),
    };
    let Some(Target::Decision(id)) = all.get(target) else {
        return Vec::new();
    };
    let Some(decision) = session.course().decision(id) else {
        return Vec::new();
    };
    let Some(option) = usize::from(n)
        .checked_sub(1)
        .and_then(|i| decision.options.get(i))
    else {
        return Vec::new();
    };
    let (decision, option) = (decision.id.clone(), option.id.clone());
    // While the instructor's second vote on it is open, the answer is this trainee's second
    // vote; the room's first votes stay as they were.
    let fact = if session.votes.in_second_vote(&decision) {
        session.votes.second_given.insert(decision.clone());
        Fact::SecondVote { decision, option }
    } else {
        Fact::DecisionAnswered { decision, option }
    };
    let mut effects = vec![session.record(fact)];
    effects.extend(focus(s, session, Some(target)));
    effects
}

/// Enter on a focused part: toggle a checklist item, edit a number, cycle the currency.
fn activate(
    s: &mut ReaderState,
    session: &mut Session,
    all: &[Target],
    target: usize,
) -> Vec<Effect> {
    match all.get(target) {
        Some(Target::Checklist(id)) => {
            let ticked = !session.progress.checklist.get(id).copied().unwrap_or(false);
            vec![session.record(Fact::ChecklistTicked {
                item: id.clone(),
                ticked,
            })]
        }
        Some(Target::CalcField(field)) => {
            let field = *field;
            s.calc_edit = Some((field, String::new()));
            s.calc_error = None;
            focus(s, session, Some(target))
        }
        Some(Target::CalcCurrency) => {
            s.calc.next_currency();
            focus(s, session, Some(target))
        }
        Some(Target::Decision(_)) | None => Vec::new(),
    }
}

/// A click focuses a part and activates it.
pub fn click(s: &mut ReaderState, session: &mut Session, target: usize) -> Vec<Effect> {
    let all = chapter_targets(s, session);
    s.focus = Some(target);
    activate(s, session, &all, target)
}

/// Keys while a calculator field is edited: digits and a decimal mark, Enter, Esc, Backspace.
/// Afterwards the field, the product and any error are brought on screen together.
pub fn on_calc_key(s: &mut ReaderState, session: &mut Session, key: Key) -> Vec<Effect> {
    edit_calc(s, key);
    let target = s.focus;
    focus(s, session, target)
}

fn edit_calc(s: &mut ReaderState, key: Key) {
    let Some((field, text)) = &mut s.calc_edit else {
        return;
    };
    match key.code {
        KeyCode::Char(c)
            if text.chars().count() < 12
                && (c.is_ascii_digit() || c == '.' || c == ',' || c == '-') =>
        {
            text.push(c);
        }
        KeyCode::Backspace => {
            text.pop();
        }
        KeyCode::Esc => {
            s.calc_edit = None;
            s.calc_error = None;
        }
        KeyCode::Enter => {
            let (field, text) = (*field, text.clone());
            match s.calc.set(field, &text) {
                Ok(()) => {
                    s.calc_edit = None;
                    s.calc_error = None;
                }
                Err(error) => s.calc_error = Some(error.message_key()),
            }
        }
        _ => {}
    }
}

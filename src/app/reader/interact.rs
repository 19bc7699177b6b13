//! The reader's interactive parts: focus, decision answers, checklist ticks, the calculator.

use super::super::doc_layout::{Target, targets};
use super::super::input::{Key, KeyCode};
use super::super::keymap::Action;
use super::super::{App, Effect, Screen};
use super::{ReaderState, lines, scroll_by};
use crate::domain::Fact;

fn state(app: &mut App) -> Option<&mut ReaderState> {
    match &mut app.screen {
        Screen::Reader(s) => Some(s),
        _ => None,
    }
}

/// The chapter's interactive parts.
fn chapter_targets(app: &App) -> Vec<Target> {
    let Screen::Reader(s) = &app.screen else {
        return Vec::new();
    };
    app.session
        .course()
        .chapters
        .get(s.chapter)
        .map(|c| targets(c, app.session.course()))
        .unwrap_or_default()
}

/// Focuses a part (or none) and scrolls it into view.
pub fn focus(app: &mut App, target: Option<usize>) -> Vec<Effect> {
    let Some(s) = state(app) else {
        return Vec::new();
    };
    s.focus = target;
    let Some(target) = target else {
        return Vec::new();
    };
    let Screen::Reader(current) = &app.screen else {
        return Vec::new();
    };
    let all = lines(
        &app.session.content,
        app.session.lang,
        &app.session.progress,
        app.session.options,
        app.session.size,
        current,
    );
    let first = all
        .iter()
        .position(|l| l.target == Some(target))
        .unwrap_or(0) as i64;
    let last = all
        .iter()
        .rposition(|l| l.target == Some(target))
        .unwrap_or(0) as i64;
    let height =
        i64::from(super::layout::reader_text(app.session.size.0, app.session.size.1).height);
    let scroll = i64::from(current.scroll);
    let delta = if first < scroll {
        first - scroll
    } else if last >= scroll + height {
        (last - height + 1).min(first) - scroll
    } else {
        0
    };
    scroll_by(app, delta)
}

/// Handles the actions that act on interactive parts.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let all = chapter_targets(app);
    let Some(current) = state(app).map(|s| s.focus) else {
        return Vec::new();
    };
    match action {
        Action::FocusNext if !all.is_empty() => {
            focus(app, Some(current.map_or(0, |f| (f + 1) % all.len())))
        }
        Action::FocusPrev if !all.is_empty() => focus(
            app,
            Some(current.map_or(all.len() - 1, |f| (f + all.len() - 1) % all.len())),
        ),
        Action::Number(n) => answer(app, &all, current, n),
        Action::Open => match current {
            Some(target) => activate(app, &all, target),
            None => Vec::new(),
        },
        Action::SeeItHappen => {
            let decision = current
                .and_then(|t| all.get(t))
                .or_else(|| all.iter().find(|t| matches!(t, Target::Decision(_))));
            if let Some(Target::Decision(id)) = decision {
                let scenario = app
                    .session
                    .course()
                    .decision(id)
                    .map(|d| d.scenario.clone())
                    .unwrap_or_default();
                return crate::app::simulator::open(app, Some(&scenario));
            }
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// A digit answers the focused decision, or the chapter's only decision when none is focused.
fn answer(app: &mut App, all: &[Target], focused: Option<usize>, n: u8) -> Vec<Effect> {
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
    let Some(decision) = app.session.course().decision(id) else {
        return Vec::new();
    };
    let Some(option) = usize::from(n)
        .checked_sub(1)
        .and_then(|i| decision.options.get(i))
    else {
        return Vec::new();
    };
    let fact = Fact::DecisionAnswered {
        decision: decision.id.clone(),
        option: option.id.clone(),
    };
    let mut effects = vec![app.session.record(fact)];
    effects.extend(focus(app, Some(target)));
    effects
}

/// Enter on a focused part: toggle a checklist item, edit a number, cycle the currency.
fn activate(app: &mut App, all: &[Target], target: usize) -> Vec<Effect> {
    match all.get(target) {
        Some(Target::Checklist(id)) => {
            let ticked = !app
                .session
                .progress
                .checklist
                .get(id)
                .copied()
                .unwrap_or(false);
            vec![app.session.record(Fact::ChecklistTicked {
                item: id.clone(),
                ticked,
            })]
        }
        Some(Target::CalcField(field)) => {
            let field = *field;
            if let Some(s) = state(app) {
                s.calc_edit = Some((field, String::new()));
                s.calc_error = None;
            }
            Vec::new()
        }
        Some(Target::CalcCurrency) => {
            let count = app
                .session
                .course()
                .reference
                .calculator
                .currencies
                .len()
                .max(1);
            if let Some(s) = state(app) {
                s.calc.currency = (s.calc.currency + 1) % count;
            }
            Vec::new()
        }
        Some(Target::Decision(_)) | None => Vec::new(),
    }
}

/// A click focuses a part and activates it.
pub fn click(app: &mut App, target: usize) -> Vec<Effect> {
    let all = chapter_targets(app);
    if let Some(s) = state(app) {
        s.focus = Some(target);
    }
    activate(app, &all, target)
}

/// Keys while a calculator field is edited: digits and a decimal mark, Enter, Esc, Backspace.
pub fn on_calc_key(app: &mut App, key: Key) -> Vec<Effect> {
    let Some(s) = state(app) else {
        return Vec::new();
    };
    let Some((field, text)) = &mut s.calc_edit else {
        return Vec::new();
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
    Vec::new()
}

//! The Room section: who is stuck (first: that is what the instructor acts on), then every
//! trainee with chapters read, decisions answered, quiz score, labs solved, where they are and
//! when last seen, the labs the room checked, and under the table the rules behind the figures.

use super::{cell, dim, plain, title};
use crate::ui::theme::Theme;
use app::dashboard::{AnswersView, Dashboard};
use app::doc_layout::Tone;
use content::key;
use domain::workshop::summary::TraineeView;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

/// Widths of the figure columns (name takes the rest).
const CHAPTERS_W: usize = 9;
const DECISIONS_W: usize = 11;
const QUIZ_W: usize = 7;
const LABS_W: usize = 6;
const SEEN_W: usize = 13;
/// The name column never gets narrower than this.
const MIN_NAME_W: usize = 10;
/// Wider names are cut: the figures stay near the names on a wide terminal.
const MAX_NAME_W: usize = 24;
/// The place column ("chapter Outbox") is at least this wide; it takes what the name leaves.
const MIN_SCREEN_W: usize = 16;

/// The section's lines at `width`: warnings, the door, who is stuck, the relay, the trainee
/// table, the labs and the rules behind the figures.
pub fn lines(dash: &Dashboard, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut out = warning_lines(dash, theme, width);
    out.extend(super::door::lines(dash, theme, width));
    stuck_lines(dash, theme, width, &mut out);
    relay_line(dash, width, &mut out);
    if !trainee_table(dash, theme, width, &mut out) {
        return out;
    }
    labs(dash, theme, width, &mut out);
    rules_lines(dash, theme, width, &mut out);
    out
}

/// Who is stuck, newest first: name, screen, since when, whether seen, and (privately) their
/// words.
fn stuck_lines(dash: &Dashboard, theme: &Theme, width: usize, out: &mut Vec<Line<'static>>) {
    let s = dash.strings();
    let view = &dash.summary;
    let mut stuck: Vec<_> = view.trainees.iter().filter(|t| t.stuck).collect();
    // Newest first: the one who just asked is the one to look at.
    stuck.sort_by_key(|t| std::cmp::Reverse(t.stuck_since_ms));
    out.push(title(
        &s.fill(key::dash::STUCK_TITLE, &[("n", &stuck.len().to_string())]),
        theme,
    ));
    if stuck.is_empty() {
        out.push(Line::from(dim(
            format!("   {}", s.get(key::dash::STUCK_NONE)),
            theme,
        )));
    }
    // What a trainee wrote is theirs: the section may be on the projector, so the words show
    // only in the private view, which says so.
    let private = dash.view == AnswersView::Private;
    let wrote = |t: &&TraineeView| t.stuck_text.as_deref().is_some_and(|w| !w.is_empty());
    if private && stuck.iter().any(wrote) {
        out.push(Line::from(Span::styled(
            format!(" {} ", s.get(key::dash::PRIVATE_ROOM)),
            theme.tone(Tone::Bad).add_modifier(Modifier::REVERSED),
        )));
    }
    for t in &stuck {
        // A title in the session's language, set by the host's summary.
        let screen = t.stuck_screen.as_deref().unwrap_or("-");
        let mut text = format!(
            "{}  {}",
            t.name,
            s.fill(key::dash::STUCK_ON, &[("screen", screen)])
        );
        // Since when and whether it was seen come before the words: a long text is what the
        // ellipsis may cut.
        if let Some(since) = t.stuck_since_ms {
            let minutes = ((dash.now_ms - since).max(0) / 60_000).to_string();
            text = format!(
                "{text} · {}",
                s.fill(key::dash::STUCK_SINCE, &[("n", &minutes)])
            );
        }
        if t.stuck_acknowledged {
            text = format!("{text} · {}", s.get(key::dash::STUCK_ACKED));
        }
        if let Some(words) = t.stuck_text.as_deref().filter(|w| !w.is_empty()) {
            text = if private {
                format!("{text}: \"{words}\"")
            } else {
                format!("{text} · {}", s.get(key::dash::STUCK_WROTE))
            };
        }
        out.push(Line::styled(
            format!("   {}", super::ellipsize(&text, width.saturating_sub(4))),
            theme.tone(Tone::Bad),
        ));
    }
}

/// The mail relay's counts, when the room has a relay.
fn relay_line(dash: &Dashboard, width: usize, out: &mut Vec<Line<'static>>) {
    let s = dash.strings();
    if let Some(relay) = &dash.summary.relay {
        out.push(Line::raw(""));
        out.push(Line::from(plain(format!(
            " {}",
            super::ellipsize(
                &s.fill(
                    key::dash::RELAY,
                    &[
                        ("queued", &relay.queued.to_string()),
                        ("sent", &relay.sent.to_string()),
                        ("retrying", &relay.retrying.to_string()),
                        ("failed", &relay.failed.to_string()),
                    ]
                ),
                width.saturating_sub(1)
            )
        ))));
    }
}

/// The trainee table: its title, the head and one row per trainee; `false` (after a note)
/// when there is no trainee yet.
fn trainee_table(
    dash: &Dashboard,
    theme: &Theme,
    width: usize,
    out: &mut Vec<Line<'static>>,
) -> bool {
    let s = dash.strings();
    let course = dash.course();
    let view = &dash.summary;
    out.push(Line::raw(""));
    out.push(title(
        &s.fill(
            key::dash::TRAINEES_TITLE,
            &[("n", &view.trainees.len().to_string())],
        ),
        theme,
    ));
    if view.trainees.is_empty() {
        out.push(Line::from(dim(
            format!("   {}", s.get(key::dash::NO_TRAINEES)),
            theme,
        )));
        return false;
    }
    let figures_w = 3 + CHAPTERS_W + DECISIONS_W + QUIZ_W + LABS_W + SEEN_W;
    let name_w = width
        .saturating_sub(figures_w + MIN_SCREEN_W)
        .clamp(MIN_NAME_W, MAX_NAME_W);
    let screen_w = width.saturating_sub(figures_w + name_w).max(MIN_SCREEN_W);
    let head = format!(
        "   {}{}{}{}{}{}{}",
        cell(s.get(key::dash::COL_NAME), name_w),
        cell(s.get(key::dash::COL_CHAPTERS), CHAPTERS_W),
        cell(s.get(key::dash::COL_DECISIONS), DECISIONS_W),
        cell(s.get(key::dash::COL_QUIZ), QUIZ_W),
        cell(s.get(key::dash::COL_LABS), LABS_W),
        cell(s.get(key::dash::COL_SEEN), SEEN_W),
        cell(s.get(key::dash::COL_SCREEN), screen_w),
    );
    out.push(Line::styled(head, theme.tone(Tone::Bold)));
    for t in &view.trainees {
        let figures = format!(
            "{}{}{}{}",
            cell(
                &format!("{}/{}", t.chapters_read, course.chapters.len()),
                CHAPTERS_W
            ),
            cell(
                &format!("{}/{}", t.decisions_answered(), course.decisions.len()),
                DECISIONS_W
            ),
            // The score: right of answered (the newest attempt), not progress.
            cell(&format!("{}/{}", t.quiz.correct, t.quiz.answered), QUIZ_W),
            cell(
                &format!("{}/{}", t.labs_solved.len(), dash.content.labs.len()),
                LABS_W
            ),
        );
        let mark = if t.stuck { " ! " } else { "   " };
        out.push(Line::from(vec![
            Span::styled(mark.to_owned(), theme.tone(Tone::Bad)),
            // One space always parts a long name from the figures.
            plain(format!("{} ", cell(&t.name, name_w.saturating_sub(1)))),
            plain(figures),
            dim(cell(s.get(t.presence(view.now_ms).key()), SEEN_W), theme),
            plain(cell(t.screen.as_deref().unwrap_or("-"), screen_w)),
        ]));
    }
    true
}

/// The rules behind the figures, wrapped, under the table.
fn rules_lines(dash: &Dashboard, theme: &Theme, width: usize, out: &mut Vec<Line<'static>>) {
    let s = dash.strings();
    out.push(Line::raw(""));
    let minutes = (domain::workshop::summary::ACTIVE_MS / 60_000).to_string();
    let rules = s.fill(
        key::dash::ROOM_RULES,
        &[
            ("rule", s.get(key::chapters::READ_RULE)),
            ("minutes", &minutes),
        ],
    );
    for line in textwrap_lines(&rules, width.saturating_sub(4)) {
        out.push(Line::from(dim(format!("   {line}"), theme)));
    }
}

/// One line per lab somebody checked: how many solved it, and where the others' newest check
/// stopped (the moment or lab invariant by its id, as the lab check prints it).
fn labs(dash: &Dashboard, theme: &Theme, width: usize, out: &mut Vec<Line<'static>>) {
    let s = dash.strings();
    if dash.summary.labs.is_empty() {
        return;
    }
    out.push(Line::raw(""));
    out.push(title(s.get(key::dash::LABS_TITLE), theme));
    for lab in &dash.content.labs {
        let Some(room) = dash.summary.labs.get(&lab.id) else {
            continue;
        };
        let text = s.fill(
            key::dash::LAB_LINE,
            &[
                ("n", &lab.number.to_string()),
                ("title", lab.title(dash.lang)),
                ("solved", &room.solved.to_string()),
            ],
        );
        out.push(Line::from(plain(format!(
            "   {}",
            super::ellipsize(&text, width.saturating_sub(4))
        ))));
        if !room.failing.is_empty() {
            let mut failing: Vec<(&String, &u32)> = room.failing.iter().collect();
            // The most common failure first: that is what to explain to the room.
            failing.sort_by_key(|(reason, n)| (std::cmp::Reverse(**n), *reason));
            let list: Vec<String> = failing
                .iter()
                .map(|(r, n)| format!("{} ({n})", reason_title(dash, r)))
                .collect();
            let failing = s.fill(key::dash::LAB_FAILING, &[("list", &list.join(", "))]);
            out.push(Line::from(dim(
                format!(
                    "     {}",
                    super::ellipsize(&failing, width.saturating_sub(6))
                ),
                theme,
            )));
        }
    }
}

/// A lab check's failure reason by its short title in the dashboard's language: a moment by
/// its name on the simulator's story panel ("duplicate effect"), a lab invariant or another
/// reason by `lab.reason.ID`; an id this build does not know stays as it came.
fn reason_title(dash: &Dashboard, id: &str) -> String {
    if let Some(kind) = dash.content.moments.get(dash.lang, &format!("kind.{id}")) {
        return kind.to_owned();
    }
    // The id comes from a trainee's device, perhaps another build: looked up by name.
    dash.strings()
        .lookup(&format!("lab.reason.{id}"))
        .unwrap_or(id)
        .to_owned()
}

/// `text` broken at spaces into lines of at most `width` columns (a word longer than that
/// stands alone and is cut by the terminal).
fn textwrap_lines(text: &str, width: usize) -> Vec<String> {
    use unicode_width::UnicodeWidthStr;
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && current.width() + 1 + word.width() > width {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// The host's warnings from its start, wrapped, above everything else in the room: they ask
/// the instructor to act before trainees join.
fn warning_lines(dash: &Dashboard, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for warning in &dash.warnings {
        for part in super::join::words(warning, width.saturating_sub(3)) {
            out.push(Line::from(Span::styled(
                format!(" ! {part}"),
                theme.tone(Tone::Bad),
            )));
        }
    }
    if !out.is_empty() {
        out.push(Line::raw(""));
    }
    out
}

//! The session summary as files and pages: CSV (one row per trainee), a static HTML report, and
//! the projector page (`/dashboard`). All HTML is self-contained: inline CSS, no scripts, no
//! external resources. Names only, never an e-mail address (the host stores none).

use content::key;
use domain::html::escape_html as esc;
use domain::workshop::summary::{OptionLabel, utc_minute};
use domain::workshop::{RoomTexts, SummaryView};
use std::fmt::Write as _;
use std::path::Path;

/// No fetches, no scripts: the page is inline CSS and text. The one form, the projector's
/// login, posts to the host itself.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const STYLE: &str = "body{font-family:sans-serif;margin:2rem;background:#fff;color:#111}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:1.5rem}
table{border-collapse:collapse}td,th{padding:.2rem .6rem;text-align:left;border-bottom:1px solid #ccc}
.bar{display:inline-block;height:1rem;background:#2a6;vertical-align:middle}
.chart td{border:none}.chart td+td{white-space:nowrap}.right td:first-child{font-weight:bold}";

/// One CSV field, quoted when it must be (RFC 4180) and defused against spreadsheet formulas.
fn csv(field: &str) -> String {
    let field = if field.starts_with(['=', '+', '-', '@']) {
        format!("'{field}")
    } else {
        field.to_owned()
    };
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field
    }
}

/// An instructor-copy answer for the CSV: yes, no, or empty when nobody was asked.
fn yes_no(answer: Option<bool>) -> &'static str {
    match answer {
        Some(true) => "yes",
        Some(false) => "no",
        None => "",
    }
}

/// The per-trainee CSV; the decision columns in the course's order, headed by their title in
/// the language of `texts`, which carries the number ("Decision 1: The broker is down", then
/// "Second vote: Decision 1: …").
pub fn trainees_csv(view: &SummaryView, texts: &RoomTexts) -> String {
    let decisions = texts.in_decision_order(view.decisions.keys());
    let mut out = String::from(
        "name,chapters_read,quiz_answered,quiz_correct,quiz_level,ordering_solved,ordering_mistakes,scenarios,labs_solved,stuck,last_step,last_seen_utc,presence,instructor_copy",
    );
    // A second vote's column follows only for the decisions the instructor opened one on.
    let seconds = texts.in_decision_order(view.second_votes.keys());
    for d in &decisions {
        out.push(',');
        out.push_str(&csv(&texts.decision(d).title));
    }
    for d in &seconds {
        out.push(',');
        let title = texts.decision(d).title;
        let round = texts.strings.get(key::dash::SECOND_VOTE);
        out.push_str(&csv(&format!("{round}: {title}")));
    }
    out.push('\n');
    for t in &view.trainees {
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv(&t.name),
            t.chapters_read,
            t.quiz.answered,
            t.quiz.correct,
            csv(t.level.as_deref().unwrap_or("")),
            t.ordering.solved,
            t.ordering.mistakes,
            t.scenarios.len(),
            csv(&t.labs_solved.join(" ")),
            t.stuck,
            csv(t.screen.as_deref().unwrap_or("")),
            utc_minute(t.last_seen_ms),
            t.presence(view.now_ms).id(),
            yes_no(t.instructor_copy)
        );
        let columns = decisions
            .iter()
            .map(|d| (*d, &t.decisions))
            .chain(seconds.iter().map(|d| (*d, &t.second_votes)));
        for (d, votes) in columns {
            out.push(',');
            let chosen = votes.get(d).map(|o| option_label(view, d, o));
            out.push_str(&csv(chosen.as_deref().unwrap_or("")));
        }
        out.push('\n');
    }
    out
}

/// "2. text" for option `option` of `decision`, as the trainee's card numbers it (the id when
/// the summary has no label for it).
fn option_label(view: &SummaryView, decision: &str, option: &str) -> String {
    view.options
        .get(decision)
        .and_then(|labels| labels.iter().find(|l| l.id == option))
        .map_or_else(|| option.to_owned(), OptionLabel::label)
}

/// One bar of a chart: label, value out of total, and whether it is the right answer (marked).
pub(super) type BarRow = (String, u32, u32, bool);

/// The distribution rows of a decision: every option in its number order, 0 where nobody chose
/// it (options the summary has no labels for follow by id). With `show_right` the right
/// option is marked (after the reveal: the room may know it then).
pub(super) fn decision_rows(
    view: &SummaryView,
    decision: &str,
    counts: &std::collections::BTreeMap<String, u32>,
    show_right: bool,
) -> Vec<BarRow> {
    let total: u32 = counts.values().sum();
    let mut rows: Vec<BarRow> = Vec::new();
    let labels = view
        .options
        .get(decision)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for label in labels {
        rows.push((
            label.label(),
            counts.get(&label.id).copied().unwrap_or(0),
            total,
            show_right && label.correct,
        ));
    }
    for (id, n) in counts {
        if !labels.iter().any(|l| &l.id == id) {
            rows.push((id.clone(), *n, total, false));
        }
    }
    rows
}

/// Rows without a right answer (quiz shares, scenarios).
fn unmarked(rows: Vec<(String, u32, u32)>) -> Vec<BarRow> {
    rows.into_iter().map(|(l, v, t)| (l, v, t, false)).collect()
}

/// A table of bars, each with "value/total · share %" (the share rounded to a whole percent).
pub(super) fn bar_rows(out: &mut String, rows: &[BarRow]) {
    out.push_str("<table class=\"chart\">");
    for (row, share) in rows.iter().zip(shares(rows)) {
        let _ = write!(
            out,
            "<tr{}>{}{}</tr>",
            right_class(row),
            label_cell(row),
            bar_cell(row, share, 300)
        );
    }
    out.push_str("</table>");
}

/// Whole percents of the rows: for a distribution (every row of one total) by the largest
/// remainder, so they add up to 100; otherwise each rounded alone.
pub(super) fn shares(rows: &[BarRow]) -> Vec<u32> {
    let total = rows.first().map_or(0, |r| r.2);
    if total == 0 || rows.iter().any(|r| r.2 != total) {
        return rows
            .iter()
            .map(|r| (r.1 * 200 + r.2).checked_div(2 * r.2).unwrap_or(0))
            .collect();
    }
    let exact: Vec<u64> = rows.iter().map(|r| u64::from(r.1) * 100).collect();
    let total = u64::from(total);
    let mut out: Vec<u32> = exact.iter().map(|e| (e / total) as u32).collect();
    let given: u32 = out.iter().sum();
    let counted: u64 = rows.iter().map(|r| u64::from(r.1)).sum();
    // Only a distribution whose rows add up to its total has 100 to hand out.
    if counted == total {
        let mut order: Vec<usize> = (0..rows.len()).collect();
        // Largest remainder first; ties to the earlier option.
        order.sort_by_key(|&i| std::cmp::Reverse(exact[i] % total));
        for &i in order.iter().take(100_u32.saturating_sub(given) as usize) {
            out[i] += 1;
        }
    }
    out
}

/// Two rounds of one decision side by side: a row per option with the first round's bar and
/// the second's, under the column heads `heads` (rows of both in the same option order).
pub(super) fn paired_bar_rows(
    out: &mut String,
    heads: [&str; 2],
    first: &[BarRow],
    second: &[BarRow],
) {
    let _ = write!(
        out,
        "<table class=\"chart paired\"><tr><th></th><th>{}</th><th>{}</th></tr>",
        esc(heads[0]),
        esc(heads[1])
    );
    let rows = first
        .iter()
        .zip(second)
        .zip(shares(first).into_iter().zip(shares(second)));
    for ((row, other), (share, other_share)) in rows {
        let _ = write!(
            out,
            "<tr{}>{}{}{}</tr>",
            right_class(row),
            label_cell(row),
            bar_cell(row, share, 150),
            bar_cell(other, other_share, 150)
        );
    }
    out.push_str("</table>");
}

/// The row class of the right answer (bold).
fn right_class(row: &BarRow) -> &'static str {
    if row.3 { " class=\"right\"" } else { "" }
}

/// The label cell; the right answer's mark is a character as well as a style: it survives a
/// black-and-white beamer.
fn label_cell((label, _, _, right): &BarRow) -> String {
    let mark = if *right { " \u{2713}" } else { "" };
    format!("<td>{}{mark}</td>", esc(label))
}

/// The bar cell, `max_px` wide at 100 %, with its whole-percent `share`.
fn bar_cell((_, value, total, _): &BarRow, share: u32, max_px: u32) -> String {
    let width = (value * max_px).checked_div(*total).unwrap_or(0);
    format!(
        "<td><span class=\"bar\" style=\"width:{width}px\"></span> {value}/{total} · {share} %</td>"
    )
}

/// The export's page of `view` in the language of `texts`: every decision's distribution (the
/// session is over), the quiz, the ordering game, the scenarios and the Room table.
fn page(title: &str, view: &SummaryView, texts: &RoomTexts) -> String {
    let s = &texts.strings;
    let mut out = format!(
        "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style></head><body><h1>{}</h1>",
        texts.lang,
        esc(title),
        esc(&view.session)
    );
    let n = view.trainees.len() as u32;
    let stuck = view.trainees.iter().filter(|t| t.stuck).count();
    let _ = write!(
        out,
        "<p id=\"trainees\">{}</p><p id=\"stuck\">{}</p>",
        esc(&s.fill(key::dash::TRAINEES_TITLE, &[("n", &n.to_string())])),
        esc(&s.fill(key::dash::STUCK_TITLE, &[("n", &stuck.to_string())]))
    );
    let _ = write!(out, "<h2>{}</h2>", esc(s.get(key::dash::DECISIONS_TITLE)));
    for decision in texts.in_decision_order(view.decisions.keys()) {
        let Some(options) = view.decisions.get(decision) else {
            continue;
        };
        let total: u32 = options.values().sum();
        let text = texts.decision(decision);
        let answered = s.fill(
            key::projector::ANSWERED,
            &[("n", &total.to_string()), ("total", &n.to_string())],
        );
        let _ = write!(
            out,
            "<h3>{}</h3><p class=\"situation\">{}</p><p class=\"answered\">{}</p>",
            esc(&text.title),
            esc(&text.situation),
            esc(&answered)
        );
        let revealed = view.revealed.iter().any(|r| r == decision);
        let first = decision_rows(view, decision, options, revealed);
        match view.second_votes.get(decision) {
            Some(second) => paired_bar_rows(
                &mut out,
                [s.get(key::dash::FIRST_VOTE), s.get(key::dash::SECOND_VOTE)],
                &first,
                &decision_rows(view, decision, second, revealed),
            ),
            None => bar_rows(&mut out, &first),
        }
    }
    let _ = write!(out, "<h2>{}</h2>", esc(s.get(key::dash::QUIZ_TITLE)));
    let rows: Vec<_> = view
        .quiz
        .iter()
        .map(|(q, t)| (texts.question(q), t.correct, t.answered))
        .collect();
    bar_rows(&mut out, &unmarked(rows));
    let ordering = s.fill(
        key::dash::ORDERING,
        &[
            ("solved", &view.ordering.solved.to_string()),
            ("attempts", &view.ordering.attempts.to_string()),
            ("mistakes", &view.ordering.mistakes.to_string()),
        ],
    );
    let _ = write!(
        out,
        "<p id=\"ordering\">{}</p><h2>{}</h2>",
        esc(&ordering),
        esc(s.get(key::dash::SCENARIOS_TITLE))
    );
    let rows: Vec<_> = view
        .scenarios
        .iter()
        .map(|(id, c)| (texts.scenario(id), *c, n))
        .collect();
    bar_rows(&mut out, &unmarked(rows));
    trainee_table(&mut out, view, texts);
    out.push_str("</body></html>\n");
    out
}

/// The export's table of trainees: the Room table's columns.
fn trainee_table(out: &mut String, view: &SummaryView, texts: &RoomTexts) {
    let s = &texts.strings;
    let _ = write!(
        out,
        "<h2>{}</h2><table><tr>",
        esc(s.get(key::dash::TAB_ROOM))
    );
    for key in [
        key::dash::COL_NAME,
        key::dash::COL_CHAPTERS,
        key::dash::COL_DECISIONS,
        key::dash::COL_QUIZ,
        key::dash::COL_LABS,
        key::dash::COL_LEVEL,
        key::dash::COL_SCREEN,
        key::dash::COL_SEEN,
        key::host::STATUS_STUCK,
        key::export::COL_INSTRUCTOR_COPY,
    ] {
        let _ = write!(out, "<th>{}</th>", esc(s.get(key)));
    }
    out.push_str("</tr>");
    for t in &view.trainees {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&t.name),
            t.chapters_read,
            t.decisions_answered(),
            t.quiz.correct,
            t.quiz.answered,
            t.labs_solved.len(),
            esc(t.level.as_deref().unwrap_or("")),
            esc(t.screen.as_deref().unwrap_or("")),
            esc(s.get(t.presence(view.now_ms).key())),
            if t.stuck { s.get(key::export::YES) } else { "" },
            match t.instructor_copy {
                Some(true) => s.get(key::export::YES),
                Some(false) => s.get(key::export::NO),
                None => "",
            }
        );
    }
    out.push_str("</table>");
}

/// Writes `summary.csv`, `summary.html` (in the language of `texts`) and `summary.json` into
/// `dir`.
pub fn write_all(
    view: &SummaryView,
    texts: &RoomTexts,
    dir: &Path,
) -> Result<Vec<std::path::PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Names only: a trainee's id is a credential half, and a file travels further than the
    // instructor's screen.
    let mut anonymous = view.clone();
    for t in &mut anonymous.trainees {
        t.id.clear();
    }
    let json = serde_json::to_string_pretty(&anonymous).map_err(|e| e.to_string())?;
    let title = texts
        .strings
        .fill(key::export::TITLE, &[("session", &view.session)]);
    let files = [
        ("summary.csv", trainees_csv(view, texts)),
        ("summary.html", page(&title, view, texts)),
        ("summary.json", json),
    ];
    let mut written = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests;

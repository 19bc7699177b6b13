//! The session summary as files and pages: CSV (one row per trainee), a static HTML report, and
//! the projector page (`/dashboard`). All HTML is self-contained: inline CSS, no scripts, no
//! external resources. Names only, never an e-mail address (the host stores none).

use crate::domain::html::escape_html as esc;
use crate::domain::workshop::SummaryView;
use crate::domain::workshop::summary::OptionLabel;
use std::fmt::Write as _;
use std::path::Path;

/// No fetches, no scripts: the page is inline CSS and text.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE: &str = "body{font-family:sans-serif;margin:2rem;background:#fff;color:#111}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:1.5rem}
table{border-collapse:collapse}td,th{padding:.2rem .6rem;text-align:left;border-bottom:1px solid #ccc}
.bar{display:inline-block;height:1rem;background:#2a6;vertical-align:middle}
.chart td{border:none}.right td:first-child{font-weight:bold}";

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

/// The per-trainee CSV.
pub fn trainees_csv(view: &SummaryView) -> String {
    let decisions: Vec<&String> = view.decisions.keys().collect();
    let mut out = String::from(
        "name,chapters_read,quiz_answered,quiz_correct,ordering_solved,ordering_mistakes,scenarios,stuck",
    );
    for d in &decisions {
        out.push(',');
        out.push_str(&csv(&format!("decision:{d}")));
    }
    out.push('\n');
    for t in &view.trainees {
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{}",
            csv(&t.name),
            t.chapters_read,
            t.quiz.answered,
            t.quiz.correct,
            t.ordering.solved,
            t.ordering.mistakes,
            t.scenarios.len(),
            t.stuck
        );
        for d in &decisions {
            out.push(',');
            let chosen = t.decisions.get(*d).map(|o| option_label(view, d, o));
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
type BarRow = (String, u32, u32, bool);

/// The distribution rows of a decision: every option in its number order, 0 where nobody chose
/// it (options the summary has no labels for follow by id). With `show_right` the right
/// option is marked (after the reveal: the room may know it then).
fn decision_rows(
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

fn bar_rows(out: &mut String, rows: &[BarRow]) {
    out.push_str("<table class=\"chart\">");
    for (label, value, total, right) in rows {
        let width = if *total == 0 { 0 } else { value * 300 / total };
        // The mark is a character as well as a style: it survives a black-and-white beamer.
        let (class, mark) = if *right {
            (" class=\"right\"", " \u{2713}")
        } else {
            ("", "")
        };
        let _ = write!(
            out,
            "<tr{class}><td>{}{mark}</td><td><span class=\"bar\" style=\"width:{width}px\"></span> {value}/{total}</td></tr>",
            esc(label)
        );
    }
    out.push_str("</table>");
}

fn page(title: &str, view: &SummaryView, with_names: bool) -> String {
    let mut out = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style></head><body><h1>{}</h1>",
        esc(title),
        esc(&view.session)
    );
    let n = view.trainees.len() as u32;
    let stuck: Vec<&str> = view
        .trainees
        .iter()
        .filter(|t| t.stuck)
        .map(|t| t.name.as_str())
        .collect();
    let _ = write!(
        out,
        "<p id=\"trainees\">Trainees: {n}</p><p id=\"stuck\">Stuck: {}</p>",
        esc(&stuck.join(", "))
    );
    out.push_str("<h2>Decisions</h2>");
    for (decision, options) in &view.decisions {
        let total: u32 = options.values().sum();
        let _ = write!(out, "<h3>{}</h3>", esc(decision));
        // The room sees how it answered only once the instructor reveals it, so nobody copies
        // the majority; the export (after the session) shows everything.
        if !with_names && !view.revealed.contains(decision) {
            let _ = write!(
                out,
                "<p class=\"hidden\">{total} answers, hidden until the instructor reveals them</p>"
            );
            continue;
        }
        let revealed = view.revealed.contains(decision);
        bar_rows(&mut out, &decision_rows(view, decision, options, revealed));
    }
    out.push_str("<h2>Quiz: share correct</h2>");
    let rows: Vec<_> = view
        .quiz
        .iter()
        .map(|(q, t)| (q.clone(), t.correct, t.answered))
        .collect();
    bar_rows(&mut out, &unmarked(rows));
    let _ = write!(
        out,
        "<h2>Ordering game</h2><p>solved {} of {n}, mistakes {}</p><h2>Scenarios run</h2>",
        view.ordering.solved, view.ordering.mistakes
    );
    let rows: Vec<_> = view
        .scenarios
        .iter()
        .map(|(s, c)| (s.clone(), *c, n))
        .collect();
    bar_rows(&mut out, &unmarked(rows));
    if with_names {
        out.push_str("<h2>Trainees</h2><table><tr><th>name</th><th>chapters</th><th>decisions</th><th>quiz</th><th>stuck</th></tr>");
        for t in &view.trainees {
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}/{}</td><td>{}</td></tr>",
                esc(&t.name),
                t.chapters_read,
                t.decisions.len(),
                t.quiz.correct,
                t.quiz.answered,
                if t.stuck { "yes" } else { "" }
            );
        }
        out.push_str("</table>");
    }
    out.push_str("</body></html>\n");
    out
}

/// The projector page: distributions as charts, names only in the stuck line.
pub fn dashboard_page(view: &SummaryView) -> String {
    // A projector page stays current by reloading itself: no script, nothing external.
    page("queuelab dashboard", view, false).replacen(
        "<head>",
        &format!("<head><meta http-equiv=\"refresh\" content=\"{PROJECTOR_REFRESH_SECS}\">"),
        1,
    )
}

/// Seconds between reloads of the projector page.
const PROJECTOR_REFRESH_SECS: u32 = 5;

/// Writes `summary.csv`, `summary.html` and `summary.json` into `dir`.
pub fn write_all(view: &SummaryView, dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let json = serde_json::to_string_pretty(view).map_err(|e| e.to_string())?;
    let files = [
        ("summary.csv", trainees_csv(view)),
        ("summary.html", page("queuelab session summary", view, true)),
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
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_defuses_formulas() {
        assert_eq!(csv("Ada"), "Ada");
        assert_eq!(csv("a,b"), "\"a,b\"");
        assert_eq!(csv("=cmd()"), "'=cmd()");
        assert_eq!(csv("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn the_projector_shows_a_distribution_only_once_revealed() {
        let mut view = SummaryView::default();
        for d in ["broker-down", "big-payload"] {
            view.decisions
                .insert(d.into(), [("a".to_owned(), 3), ("b".to_owned(), 1)].into());
        }
        view.revealed = vec!["big-payload".into()];
        let html = dashboard_page(&view);
        assert_eq!(html.matches("class=\"bar\"").count(), 2, "{html}");
        assert!(html.contains("4 answers, hidden until the instructor reveals them"));
        let export = page("summary", &view, true);
        assert_eq!(export.matches("class=\"bar\"").count(), 4, "{export}");
    }

    #[test]
    fn after_the_reveal_the_projector_marks_the_right_option_and_keeps_every_count() {
        let label = |id: &str, number, text: &str, correct| OptionLabel {
            id: id.into(),
            number,
            text: text.into(),
            correct,
        };
        let mut view = SummaryView::default();
        view.options.insert(
            "big-payload".into(),
            vec![
                label("inline", 1, "Inline it", false),
                label("claim-check", 2, "Claim check", true),
                label("compress", 3, "Compress", false),
                label("split", 4, "Split it", false),
            ],
        );
        view.decisions.insert(
            "big-payload".into(),
            [("inline".to_owned(), 3), ("claim-check".to_owned(), 2)].into(),
        );
        let hidden = dashboard_page(&view);
        assert!(!hidden.contains('\u{2713}') && !hidden.contains("class=\"right\""));
        assert!(
            !hidden.contains("Claim check"),
            "nothing of a hidden vote: {hidden}"
        );
        view.revealed = vec!["big-payload".into()];
        let shown = dashboard_page(&view);
        assert!(
            shown.contains("<tr class=\"right\"><td>2. Claim check \u{2713}</td>"),
            "{shown}"
        );
        assert_eq!(
            shown.matches('\u{2713}').count(),
            1,
            "only the right one: {shown}"
        );
        for count in ["3/5", "2/5", "0/5"] {
            assert!(shown.contains(count), "{count}: {shown}");
        }
        assert_eq!(shown.matches("0/5").count(), 2, "options 3 and 4 stay at 0");
    }

    #[test]
    fn options_are_numbered_with_their_text_and_zero_where_nobody_chose_them() {
        use crate::domain::workshop::summary::{OrderingTally, QuizTally, TraineeView};
        let label = |id: &str, number, text: &str| OptionLabel {
            id: id.into(),
            number,
            text: text.into(),
            correct: false,
        };
        let mut view = SummaryView::default();
        view.options.insert(
            "big-payload".into(),
            vec![
                label("inline", 1, "Inline it"),
                label("claim-check", 2, "Claim check"),
            ],
        );
        view.decisions
            .insert("big-payload".into(), [("claim-check".to_owned(), 3)].into());
        view.trainees.push(TraineeView {
            id: "t".into(),
            name: "Ada".into(),
            chapters_read: 0,
            decisions: [("big-payload".to_owned(), "claim-check".to_owned())].into(),
            quiz: QuizTally::default(),
            ordering: OrderingTally::default(),
            scenarios: Vec::new(),
            stuck: false,
            stuck_screen: None,
            stuck_text: None,
            last_seen_ms: 0,
            stuck_since_ms: None,
            stuck_acknowledged: false,
        });
        let export = page("summary", &view, true);
        assert!(
            export.contains(
                "<td>1. Inline it</td><td><span class=\"bar\" style=\"width:0px\"></span> 0/3</td>"
            ),
            "{export}"
        );
        assert!(export.contains("<td>2. Claim check</td>"), "{export}");
        assert!(
            trainees_csv(&view).contains(",2. Claim check\n"),
            "{}",
            trainees_csv(&view)
        );
    }

    #[test]
    fn pages_escape_names() {
        let view = SummaryView {
            session: "<b>room</b>".into(),
            ..SummaryView::default()
        };
        let html = dashboard_page(&view);
        assert!(html.contains("&lt;b&gt;room"), "{html}");
        assert!(html.contains("http-equiv=\"refresh\""), "{html}");
        assert!(
            !html.contains("<script") && !html.contains("://"),
            "self-contained"
        );
    }
}

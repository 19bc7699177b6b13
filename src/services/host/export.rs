//! The session summary as files and pages: CSV (one row per trainee), a static HTML report, and
//! the projector page (`/dashboard`). All HTML is self-contained: inline CSS, no scripts, no
//! external resources. Names only, never an e-mail address (the host stores none).

use crate::domain::html::escape_html as esc;
use crate::domain::workshop::SummaryView;
use std::fmt::Write as _;
use std::path::Path;

/// No fetches, no scripts: the page is inline CSS and text.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE: &str = "body{font-family:sans-serif;margin:2rem;background:#fff;color:#111}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:1.5rem}
table{border-collapse:collapse}td,th{padding:.2rem .6rem;text-align:left;border-bottom:1px solid #ccc}
.bar{display:inline-block;height:1rem;background:#2a6;vertical-align:middle}
.chart td{border:none}";

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
            out.push_str(&csv(t.decisions.get(*d).map_or("", String::as_str)));
        }
        out.push('\n');
    }
    out
}

fn bar_rows(out: &mut String, rows: &[(String, u32, u32)]) {
    out.push_str("<table class=\"chart\">");
    for (label, value, total) in rows {
        let width = if *total == 0 { 0 } else { value * 300 / total };
        let _ = write!(
            out,
            "<tr><td>{}</td><td><span class=\"bar\" style=\"width:{width}px\"></span> {value}/{total}</td></tr>",
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
        let rows: Vec<_> = options
            .iter()
            .map(|(o, c)| (o.clone(), *c, total))
            .collect();
        bar_rows(&mut out, &rows);
    }
    out.push_str("<h2>Quiz: share correct</h2>");
    let rows: Vec<_> = view
        .quiz
        .iter()
        .map(|(q, t)| (q.clone(), t.correct, t.answered))
        .collect();
    bar_rows(&mut out, &rows);
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
    bar_rows(&mut out, &rows);
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

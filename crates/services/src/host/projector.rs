//! The projector page (`/dashboard`): what a room sees on a 1280x720 beamer, in the session's
//! language. One decision at a time in large type, the quiz as the few questions the room finds
//! hard, stuck trainees as a count. No names, no key, no script, nothing fetched from elsewhere;
//! the page reloads itself to stay current.

use super::export::{BarRow, bar_rows, decision_rows, paired_bar_rows};
use domain::html::escape_html as esc;
use domain::workshop::{JoinUrl, PaceKind, RoomTexts, SummaryView};
use std::fmt::Write as _;

/// Seconds between reloads of the projector page.
const REFRESH_SECS: u32 = 5;

/// At most this many quiz questions are shown: the hardest, by share correct.
const HARD_QUESTIONS: usize = 3;

/// Large type for a beamer; the focus decision fills the first screen.
const STYLE: &str = "html{font-size:clamp(12px,1.25vw,40px)}
body{font-family:sans-serif;margin:1.2rem 2rem;background:#fff;color:#111;font-size:1.45rem}
.options{font-size:1.35rem;margin:.4rem 0}.options li{margin:.2rem 0}
.right td:first-child{border-left:.5rem solid #111;padding-left:.5rem}
.right .bar{background:repeating-linear-gradient(45deg,#111 0 .3rem,#2a6 .3rem .6rem)}
header{display:flex;gap:2.5rem;align-items:baseline;border-bottom:2px solid #ccc;padding-bottom:.4rem}
header h1{font-size:1.7rem;margin:0}
h2{font-size:1.6rem;margin:.9rem 0 .3rem}h3{font-size:1.25rem;margin:1.2rem 0 .3rem;color:#444}
p{margin:.3rem 0}.situation{font-size:1.3rem}
table{border-collapse:collapse}td{padding:.25rem .6rem;text-align:left;vertical-align:middle}
.bar{display:inline-block;height:1.3rem;background:#2a6;vertical-align:middle}
.right td:first-child{font-weight:bold}.chart td+td{white-space:nowrap}.others,.quiz{font-size:1.15rem}
th{text-align:left;font-size:1.1rem;color:#444;padding:0 .6rem}.paired{font-size:1.3rem}";

/// How to join, in one line: the code alone when the session is advertised (the address as
/// the fallback), else `HOST:PORT CODE`; the check digits beside it.
fn join_line(out: &mut String, texts: &RoomTexts, join: &JoinLines) {
    let s = &texts.strings;
    let _ = write!(
        out,
        "<p id=\"join\">{}: <b>{}</b> · {}: <b>{}</b></p>",
        esc(s.get("dash.join_line")),
        esc(&join.url.join_command(join.discovery.is_some())),
        esc(s.get("dash.check_digits")),
        esc(&join.digits)
    );
    if let Some(name) = &join.discovery {
        let short = join.url.short_line();
        let found = s.fill("dash.join_found", &[("name", name), ("short", &short)]);
        let _ = write!(
            out,
            "<p id=\"join-fallback\" class=\"others\">{}</p>",
            esc(&found)
        );
    }
}

/// The decision the room looks at: the one the newest pacing command revealed or opened a
/// second vote on; before that,
/// the first of `ordered` (the decisions in the course's order) not yet revealed that has
/// answers, then the first not revealed, then the last.
fn focus<'a>(view: &'a SummaryView, ordered: &[&'a str]) -> Option<&'a str> {
    if let Some(pace) = &view.last_pace
        && let PaceKind::RevealDecision { decision } | PaceKind::SecondVote { decision } =
            &pace.kind
        && let Some((id, _)) = view.decisions.get_key_value(decision)
    {
        return Some(id);
    }
    let open = |id: &&str| !view.revealed.iter().any(|r| r == id);
    let answered = |id: &&str| {
        view.decisions
            .get(*id)
            .is_some_and(|o| o.values().sum::<u32>() > 0)
    };
    ordered
        .iter()
        .copied()
        .find(|id| open(id) && answered(id))
        .or_else(|| ordered.iter().copied().find(open))
        .or_else(|| ordered.last().copied())
}

/// What the room reads about joining: never the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinLines {
    /// The join URL (its code, address and the certificate's check digits are shown).
    pub url: JoinUrl,
    /// The name the session is advertised under on the LAN; None when it is not.
    pub discovery: Option<String>,
    /// The certificate's check digits in this session, derived once at start.
    pub digits: String,
}

/// The projector page of `view` in the language of `texts`, with `join` under the header once
/// the host knows its address.
pub fn page(view: &SummaryView, texts: &RoomTexts, join: Option<&JoinLines>) -> String {
    let s = &texts.strings;
    let title = s.fill("projector.title", &[("session", &view.session)]);
    // "n of m answered" counts, as m, the trainees in the room: a trainee who left is no
    // longer expected to vote.
    let n = view.presence_counts(view.now_ms).0 as u32;
    let stuck = view.trainees.iter().filter(|t| t.stuck).count();
    let mut out = format!(
        "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"refresh\" content=\"{REFRESH_SECS}\">\
<meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style>\
</head><body><header><h1>{}</h1><p id=\"trainees\">{}</p><p id=\"stuck\">{}</p></header>",
        texts.lang,
        esc(&title),
        esc(&view.session),
        esc(&s.fill("dash.trainees_title", &[("n", &n.to_string())])),
        // A count only: a projected name tells the room who needs help.
        esc(&s.fill("dash.stuck_title", &[("n", &stuck.to_string())])),
    );
    if let Some(join) = join {
        join_line(&mut out, texts, join);
    }
    // Sorted once per render: the focus and the list of the others both read it.
    let ordered = texts.in_decision_order(view.decisions.keys());
    let focused = focus(view, &ordered);
    if let Some(decision) = focused {
        focus_card(&mut out, view, texts, decision, n);
    }
    other_decisions(&mut out, view, texts, &ordered, focused, n);
    hard_questions(&mut out, view, texts);
    out.push_str("</body></html>\n");
    out
}

/// The decision in focus: situation, how many answered, and once revealed the distribution
/// with the right option marked.
fn focus_card(out: &mut String, view: &SummaryView, texts: &RoomTexts, decision: &str, n: u32) {
    let s = &texts.strings;
    let text = texts.decision(decision);
    let options = view.decisions.get(decision).cloned().unwrap_or_default();
    let total: u32 = options.values().sum();
    let _ = write!(
        out,
        "<section id=\"focus\"><h2>{}</h2><p class=\"situation\">{}</p><p class=\"answered\">{}</p>",
        esc(&text.title),
        esc(&text.situation),
        esc(&s.fill(
            "projector.answered",
            &[("n", &total.to_string()), ("total", &n.to_string())]
        )),
    );
    // The room sees how it answered only once the instructor reveals it, so nobody copies the
    // majority.
    let revealed = view.revealed.iter().any(|r| r == decision);
    let second = view.second_votes.get(decision);
    if let Some(second) = second {
        let given: u32 = second.values().sum();
        let _ = write!(
            out,
            "<p id=\"second-vote\" class=\"answered\">{}: {}</p>",
            esc(s.get("dash.second_vote")),
            esc(&s.fill(
                "projector.answered",
                &[("n", &given.to_string()), ("total", &n.to_string())]
            )),
        );
    }
    let first = decision_rows(view, decision, &options, true);
    match second {
        // Both rounds side by side: the room sees how the discussion moved it.
        Some(second) if revealed => paired_bar_rows(
            out,
            [s.get("dash.first_vote"), s.get("dash.second_vote")],
            &first,
            &decision_rows(view, decision, second, true),
        ),
        _ if revealed => bar_rows(out, &first),
        _ => {
            // The options while the room votes, so people can argue about "option 3"; none
            // marked until the reveal.
            out.push_str("<ol class=\"options\">");
            for label in view
                .options
                .get(decision)
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                let _ = write!(
                    out,
                    "<li value=\"{}\">{}</li>",
                    label.number,
                    esc(&label.text)
                );
            }
            out.push_str("</ol>");
            let _ = write!(
                out,
                "<p class=\"hidden\">{}</p>",
                esc(&s.fill("projector.hidden", &[("n", &total.to_string())]))
            );
        }
    }
    out.push_str("</section>");
}

/// The other decisions of `ordered` (the course's order), a line each: title, answered,
/// revealed or not.
fn other_decisions(
    out: &mut String,
    view: &SummaryView,
    texts: &RoomTexts,
    ordered: &[&str],
    focused: Option<&str>,
    n: u32,
) {
    let s = &texts.strings;
    let others: Vec<&str> = ordered
        .iter()
        .copied()
        .filter(|id| Some(*id) != focused)
        .collect();
    if others.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<h3>{}</h3><table class=\"others\">",
        esc(s.get("projector.other_decisions"))
    );
    for id in others {
        let total: u32 = view.decisions.get(id).map_or(0, |o| o.values().sum());
        let state = if view.revealed.iter().any(|r| r == id) {
            s.get("projector.revealed")
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&texts.decision(id).title),
            esc(&s.fill(
                "projector.answered",
                &[("n", &total.to_string()), ("total", &n.to_string())]
            )),
            esc(state)
        );
    }
    out.push_str("</table>");
}

/// The questions the room answers worst (share correct over the newest attempts), at most
/// [`HARD_QUESTIONS`]; questions everyone got right are not shown.
fn hard_questions(out: &mut String, view: &SummaryView, texts: &RoomTexts) {
    let s = &texts.strings;
    let _ = write!(out, "<h3>{}</h3>", esc(s.get("projector.hard_questions")));
    let mut hard: Vec<BarRow> = view
        .quiz
        .iter()
        .filter(|(_, t)| t.answered > 0 && t.correct < t.answered)
        .map(|(q, t)| (texts.question(q), t.correct, t.answered, false))
        .collect();
    // Lowest share correct first; ties by the number of answers, then by text.
    hard.sort_by(|a, b| {
        (u64::from(a.1) * u64::from(b.2))
            .cmp(&(u64::from(b.1) * u64::from(a.2)))
            .then(b.2.cmp(&a.2))
            .then(a.0.cmp(&b.0))
    });
    hard.truncate(HARD_QUESTIONS);
    if hard.is_empty() {
        let key = if view.quiz.values().any(|t| t.answered > 0) {
            "projector.none_hard"
        } else {
            "projector.no_quiz"
        };
        let _ = write!(out, "<p class=\"quiz\">{}</p>", esc(s.get(key)));
    } else {
        out.push_str("<div class=\"quiz\">");
        bar_rows(out, &hard);
        out.push_str("</div>");
    }
}

#[cfg(test)]
mod tests;

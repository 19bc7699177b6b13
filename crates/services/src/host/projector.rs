//! The projector page (`/dashboard`): what a room sees on a beamer, in the session's language.
//! One decision at a time in large type, the quiz as the few questions the room finds hard,
//! stuck trainees as a count, and how to join: the code in large type beside a QR code of the
//! join URL. No names, no key, nothing fetched from elsewhere. One script of the host's own
//! ([`SCRIPT_PATH`]) swaps in the page's changing part about once a second from [`LIVE_PATH`];
//! without script the page reloads itself.

use super::export::{BarRow, bar_rows, decision_rows, paired_bar_rows};
use crate::export::qr_image;
use content::key;
use domain::html::escape_html as esc;
use domain::qr::QrMatrix;
use domain::workshop::{JoinUrl, PaceKind, RoomTexts, SummaryView};
use std::fmt::Write as _;

/// Seconds between reloads of the projector page in a browser that runs no script.
const REFRESH_SECS: u32 = 5;

/// Where the page's script is served: the host's own, the only script the page may run.
pub const SCRIPT_PATH: &str = "/projector.js";

/// Where the script fetches the page's changing part (as JSON `{"html": …}`): exactly what the
/// page shows, behind the same instructor login.
pub const LIVE_PATH: &str = "/dashboard/live";

/// The script: polls [`LIVE_PATH`] and swaps the answer in.
pub const SCRIPT: &str = include_str!("projector/live.js");

/// The projector page's policy: its own script and its own fetches, inline style, nothing else
/// (the QR code is inline SVG, so no image source either).
pub const CSP: &str = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// At most this many quiz questions are shown: the hardest, by share correct.
const HARD_QUESTIONS: usize = 3;

/// Large type for a beamer; the focus decision fills the first screen, the join box stands to
/// its right. Sizes follow the viewport, so 1920x1080 is filled as 1280x720 is.
const STYLE: &str = "html{font-size:clamp(12px,1.25vw,48px)}
body{font-family:sans-serif;margin:1rem 1.6rem;background:#fff;color:#111;font-size:1.6rem;
display:grid;grid-template-columns:minmax(0,1fr) auto;gap:0 2rem;align-items:start}
.options{font-size:1.5rem;margin:.4rem 0}.options li{margin:.25rem 0}
.right td:first-child{border-left:.5rem solid #111;padding-left:.5rem}
.right .bar{background:repeating-linear-gradient(45deg,#111 0 .3rem,#2a6 .3rem .6rem)}
header{display:flex;flex-wrap:wrap;gap:0 2.5rem;align-items:baseline;border-bottom:2px solid #ccc;padding-bottom:.3rem}
header h1{font-size:1.9rem;margin:0}header p{font-size:1.5rem}
h2{font-size:1.9rem;margin:.7rem 0 .3rem}h3{font-size:1.35rem;margin:1rem 0 .3rem;color:#333}
p{margin:.3rem 0}.situation{font-size:1.5rem}.answered,.hidden{font-size:1.4rem}
table{border-collapse:collapse}td{padding:.25rem .6rem;text-align:left;vertical-align:middle}
.bar{display:inline-block;height:1.4rem;background:#2a6;vertical-align:middle}
.right td:first-child{font-weight:bold}.chart td+td{white-space:nowrap}.others,.quiz{font-size:1.3rem}
th{text-align:left;font-size:1.2rem;color:#333;padding:0 .6rem}.paired{font-size:1.45rem}
#join{width:min(22vw,42vh);text-align:center;border:2px solid #ccc;padding:.6rem;font-size:1.25rem}
#join .qr{display:block;width:100%;height:auto}#join p{margin:.2rem 0}
#code{font-family:monospace;font-size:3.4rem;font-weight:bold;letter-spacing:.08em;margin:.1rem 0}
#join-command{font-family:monospace;font-size:1.3rem}#join-fallback{font-size:1rem;overflow-wrap:anywhere}";

/// How to join, as a box beside the decision: the code in large type, the QR code of the join
/// URL (a phone opens the join page), the command to type, the check digits, and the address
/// for networks that block the session's advertisement.
fn join_box(out: &mut String, texts: &RoomTexts, join: &JoinLines) {
    let s = &texts.strings;
    let url = join.url.to_string();
    let _ = write!(
        out,
        "<aside id=\"join\"><p>{}</p><p id=\"code\">{}</p>",
        esc(s.get(key::projector::JOIN_CODE)),
        esc(&join.url.code)
    );
    // A URL the host builds is far below a QR code's capacity; should one not fit, the box
    // still names the code and the command.
    if let Ok(matrix) = QrMatrix::encode(&url) {
        out.push_str(&qr_image::svg(&matrix, &url, false));
        let _ = write!(out, "<p>{}</p>", esc(s.get(key::projector::SCAN_JOIN)));
    }
    let _ = write!(
        out,
        "<p>{}:</p><p id=\"join-command\"><b>{}</b></p><p>{}: <b>{}</b></p>",
        esc(s.get(key::dash::JOIN_LINE)),
        esc(&join.url.join_command(join.discovery.is_some())),
        esc(s.get(key::dash::CHECK_DIGITS)),
        esc(&join.digits)
    );
    if let Some(name) = &join.discovery {
        let short = join.url.short_line();
        let found = s.fill(key::dash::JOIN_FOUND, &[("name", name), ("short", &short)]);
        let _ = write!(out, "<p id=\"join-fallback\">{}</p>", esc(&found));
    }
    out.push_str("</aside>");
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

/// The projector page of `view` in the language of `texts`, with the join box beside it once
/// the host knows its address.
pub fn page(view: &SummaryView, texts: &RoomTexts, join: Option<&JoinLines>) -> String {
    let title = texts
        .strings
        .fill(key::projector::TITLE, &[("session", &view.session)]);
    // The reload is for a browser without script only: with script, the live part is swapped
    // in about once a second and a reload would only make the page flicker.
    let mut out = format!(
        "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\">\
<noscript><meta http-equiv=\"refresh\" content=\"{REFRESH_SECS}\"></noscript>\
<meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style>\
<script src=\"{SCRIPT_PATH}\" defer></script></head><body><main id=\"live\" data-src=\"{LIVE_PATH}\">{}</main>",
        texts.lang,
        esc(&title),
        live(view, texts),
    );
    if let Some(join) = join {
        join_box(&mut out, texts, join);
    }
    out.push_str("</body></html>\n");
    out
}

/// The part of the page that changes while the room works: header, the decision in focus, the
/// other decisions and the hard quiz questions. The page holds it, and [`LIVE_PATH`] serves it
/// alone, so the script shows exactly what a reload would.
pub fn live(view: &SummaryView, texts: &RoomTexts) -> String {
    let s = &texts.strings;
    // "n of m answered" counts, as m, the trainees in the room: a trainee who left is no
    // longer expected to vote.
    let n = view.presence_counts(view.now_ms).0 as u32;
    let stuck = view.trainees.iter().filter(|t| t.stuck).count();
    let mut out = format!(
        "<header><h1>{}</h1><p id=\"trainees\">{}</p><p id=\"stuck\">{}</p></header>",
        esc(&view.session),
        esc(&s.fill(key::dash::TRAINEES_TITLE, &[("n", &n.to_string())])),
        // A count only: a projected name tells the room who needs help.
        esc(&s.fill(key::dash::STUCK_TITLE, &[("n", &stuck.to_string())])),
    );
    // Sorted once per render: the focus and the list of the others both read it.
    let ordered = texts.in_decision_order(view.decisions.keys());
    let focused = focus(view, &ordered);
    if let Some(decision) = focused {
        focus_card(&mut out, view, texts, decision, n);
    }
    other_decisions(&mut out, view, texts, &ordered, focused, n);
    hard_questions(&mut out, view, texts);
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
            key::projector::ANSWERED,
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
            esc(s.get(key::dash::SECOND_VOTE)),
            esc(&s.fill(
                key::projector::ANSWERED,
                &[("n", &given.to_string()), ("total", &n.to_string())]
            )),
        );
    }
    let first = decision_rows(view, decision, &options, true);
    match second {
        // Both rounds side by side: the room sees how the discussion moved it.
        Some(second) if revealed => paired_bar_rows(
            out,
            [s.get(key::dash::FIRST_VOTE), s.get(key::dash::SECOND_VOTE)],
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
                esc(&s.fill(key::projector::HIDDEN, &[("n", &total.to_string())]))
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
        esc(s.get(key::projector::OTHER_DECISIONS))
    );
    for id in others {
        let total: u32 = view.decisions.get(id).map_or(0, |o| o.values().sum());
        let state = if view.revealed.iter().any(|r| r == id) {
            s.get(key::projector::REVEALED)
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&texts.decision(id).title),
            esc(&s.fill(
                key::projector::ANSWERED,
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
    let _ = write!(
        out,
        "<h3>{}</h3>",
        esc(s.get(key::projector::HARD_QUESTIONS))
    );
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
            key::projector::NONE_HARD
        } else {
            key::projector::NO_QUIZ
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

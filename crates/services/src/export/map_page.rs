//! `map.html`: the quick-reference map for a phone. One self-contained file: inline CSS and SVG,
//! no scripts, no fonts, no external resources, so it works offline and from the LAN share.

use super::html::{escape, flow_svg};
use content::key;
use content::{Course, Lang};
use std::fmt::Write as _;

/// Mobile-first styles; the token animation stops under `prefers-reduced-motion`.
const CSS: &str = "\
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1f;--muted:#5a5a66;--box:#eef2f8;--line:#3a5a8c;--accent:#c2410c}
@media (prefers-color-scheme:dark){:root{--bg:#15161a;--fg:#ececf1;--muted:#a2a2b0;--box:#252a35;--line:#8fb0e8;--accent:#fb923c}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
main{max-width:42rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 .25rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem;border-bottom:2px solid var(--line);padding-bottom:.2rem}
p.lead,footer{color:var(--muted)}
nav{display:flex;gap:.5rem;flex-wrap:wrap}
nav a{color:var(--line);text-decoration:none;border:1px solid var(--line);border-radius:1rem;padding:.15rem .7rem;font-size:.9rem}
svg.flow{width:100%;height:auto;max-width:32rem;display:block;margin:0 auto}
.stage rect{fill:var(--box);stroke:var(--line);stroke-width:1.5}
.stage.side rect{stroke:var(--accent);stroke-dasharray:5 3}
.label{font-weight:700;font-size:15px;fill:var(--fg)}
.detail{font-size:11px;fill:var(--muted)}
.edge{stroke:var(--line);stroke-width:2}
.edge.branch{stroke:var(--accent);stroke-dasharray:5 3}
.tip{fill:var(--line)}
.token{fill:var(--accent);animation:travel 6s ease-in-out infinite}
@keyframes travel{0%{transform:translateY(0);opacity:0}8%{opacity:1}92%{opacity:1}100%{transform:translateY(var(--travel));opacity:0}}
@media (prefers-reduced-motion:reduce){.token{animation:none;opacity:0}}
ol{padding-left:1.6rem}
li{margin:.4rem 0}
details{background:var(--box);border-radius:.5rem;padding:.5rem .8rem;margin:.5rem 0}
summary{font-weight:700;cursor:pointer}
dt{font-weight:600;color:var(--muted);font-size:.9rem}
dd{margin:0 0 .4rem}
footer{font-size:.85rem;margin-top:2rem;word-break:break-all}
";

/// The phone page in `lang`; `url` (where the page lives) is printed in the footer when known.
pub fn render(course: &Course, lang: Lang, url: Option<&str>) -> String {
    render_with(course, lang, url, "")
}

/// The phone page a workshop host serves at its join URL (the QR code on the projector): how to
/// join from a terminal, the check digits to compare, then the quick-reference map.
pub fn render_for_room(course: &Course, lang: Lang, join_line: &str, digits: &str) -> String {
    render_with(course, lang, None, &join_section(course, join_line, digits))
}

/// The join page while the room still votes on a decision whose feedback is held: how to join,
/// and a line that the map follows once the decisions are revealed, since its checklist answers
/// them.
pub fn render_for_room_before_reveal(
    course: &Course,
    lang: Lang,
    join_line: &str,
    digits: &str,
) -> String {
    let s = &course.strings;
    let body = format!(
        "<header><h1>{}</h1></header>{}<p class=\"lead\">{}</p>",
        escape(s.get(key::map::ROOM_TITLE)),
        join_section(course, join_line, digits),
        escape(s.get(key::map::ROOM_LATER)),
    );
    page(lang, s.get(key::map::ROOM_TITLE), CSS, &body)
}

/// How to join: the line to type and the check digits to compare.
fn join_section(course: &Course, join_line: &str, digits: &str) -> String {
    let s = &course.strings;
    format!(
        "<section id=\"join\"><h2>{}</h2><p>{}</p><p><code>{}</code></p><p>{}</p></section>",
        escape(s.get(key::map::ROOM_TITLE)),
        escape(s.get(key::map::ROOM_TYPE)),
        escape(join_line),
        escape(&s.fill(key::map::ROOM_DIGITS, &[("digits", digits)])),
    )
}

/// The page with `intro` (trusted HTML made here) after the header.
fn render_with(course: &Course, lang: Lang, url: Option<&str>, intro: &str) -> String {
    let s = &course.strings;
    let r = &course.reference;
    let mut body = String::new();
    let _ = write!(
        body,
        "<header><h1>{}</h1><p class=\"lead\">{}</p><nav><a href=\"#flow\">{}</a>\
         <a href=\"#checklist\">{}</a><a href=\"#runbook\">{}</a></nav></header>",
        escape(s.get(key::menu::MAP)),
        escape(s.get(key::map::LEAD)),
        escape(s.get(key::widget::FLOW)),
        escape(s.get(key::widget::CHECKLIST)),
        escape(s.get(key::widget::RUNBOOK)),
    );
    body.push_str(intro);
    let _ = write!(
        body,
        "<section id=\"flow\"><h2>{}</h2>{}<p class=\"lead\">{}</p></section>",
        escape(s.get(key::widget::FLOW)),
        flow_svg(&r.flow, s.get(key::widget::FLOW), true),
        escape(s.get(key::map::FLOW_CAPTION)),
    );
    let _ = write!(
        body,
        "<section id=\"checklist\"><h2>{}</h2><p class=\"lead\">{}</p><ol>",
        escape(s.get(key::widget::CHECKLIST)),
        escape(s.get(key::map::CHECKLIST_HINT)),
    );
    for item in &r.checklist {
        let _ = write!(body, "<li>{}</li>", escape(&item.question));
    }
    let _ = write!(
        body,
        "</ol></section><section id=\"runbook\"><h2>{}</h2>",
        escape(s.get(key::widget::RUNBOOK))
    );
    for signal in &r.runbook {
        let _ = write!(
            body,
            "<details open><summary>{}</summary><dl><dt>{}</dt><dd>{}</dd><dt>{}</dt><dd>{}</dd>\
             </dl></details>",
            escape(&signal.name),
            escape(s.get(key::map::WATCH)),
            escape(&signal.watch),
            escape(s.get(key::map::WHY)),
            escape(&signal.why),
        );
    }
    body.push_str("</section><footer>");
    if let Some(url) = url {
        let _ = write!(
            body,
            "<p>{}</p>",
            escape(&s.fill(key::map::THIS_PAGE, &[("url", url)]))
        );
    }
    let _ = write!(body, "<p>{}</p></footer>", escape(s.get(key::map::OFFLINE)));
    page(lang, s.get(key::menu::MAP), CSS, &body)
}

/// A complete HTML document around `body`.
pub fn page(lang: Lang, title: &str, css: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{}</title><style>{css}</style></head><body><main>{body}</main></body></html>\n",
        lang.code(),
        escape(title),
    )
}

//! `card.html`: the printable A4 reference card — QR code with its URL in text, the flow, the
//! checklist and the runbook signal names — sized in millimetres so it prints on one page.

use super::html::{escape, flow_svg};
use super::map_page::page;
use super::qr_image;
use content::key;
use content::{Course, Lang};
use domain::qr::QrMatrix;
use std::fmt::Write as _;

/// Print styles: fixed A4 page, millimetre boxes, black on white.
const CSS: &str = "\
@page{size:A4 portrait;margin:10mm}
*{box-sizing:border-box}
html,body{margin:0;background:#fff;color:#000}
body{font:9.5pt/1.35 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;-webkit-print-color-adjust:exact;print-color-adjust:exact}
main{width:190mm;max-height:277mm;margin:0 auto;overflow:hidden}
h1{font-size:17pt;margin:0 0 1mm}
h2{font-size:11pt;margin:3mm 0 1.5mm;border-bottom:.4mm solid #000;padding-bottom:.5mm}
p{margin:0 0 1.5mm}
.top{display:flex;gap:6mm;align-items:flex-start}
.qrbox{width:58mm;flex:none;text-align:center}
svg.qr{width:58mm;height:58mm;display:block}
.url{font:600 9pt/1.25 ui-monospace,Menlo,Consolas,monospace;overflow-wrap:normal;word-break:normal;margin-top:1mm}
.flowbox{flex:1}
svg.flow{width:100%;height:auto;max-height:92mm}
.stage rect{fill:#f1f1f1;stroke:#000;stroke-width:1.2}
.stage.side rect{stroke-dasharray:5 3}
.label{font-weight:700;font-size:15px}
.detail{font-size:11px;fill:#333}
.edge{stroke:#000;stroke-width:1.6}
.edge.branch{stroke-dasharray:5 3}
.tip{fill:#000}
ol.check{margin:0;padding:0;list-style:none;counter-reset:q}
ol.check li{counter-increment:q;display:flex;gap:2mm;margin:0 0 1.3mm;break-inside:avoid}
ol.check li::before{content:counter(q) '.';width:5mm;flex:none;text-align:right;font-weight:600}
.box{flex:none;width:3.5mm;height:3.5mm;border:.3mm solid #000;margin-top:.4mm}
ul.signals{margin:0;padding:0;list-style:none;columns:2;column-gap:6mm}
ul.signals li{break-inside:avoid;margin:0 0 1.2mm}
@media screen{body{background:#ddd}main{background:#fff;padding:10mm;margin:5mm auto;width:210mm;max-height:none;box-shadow:0 0 3mm #999}}
";

/// The card in `lang` for `url` (shown as QR and as text).
pub fn render(course: &Course, lang: Lang, url: &str, qr: &QrMatrix) -> String {
    let s = &course.strings;
    let r = &course.reference;
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>{}</h1><p>{}</p><div class=\"top\"><div class=\"qrbox\">{}<div class=\"url\">{}</div>\
         <p>{}</p></div><div class=\"flowbox\">{}</div></div>",
        escape(s.get(key::map::CARD_TITLE)),
        escape(s.get(key::map::LEAD)),
        qr_image::svg(qr, url, false),
        // Break only after a `/` (not inside `//`), never inside a word.
        escape(url)
            .replace('/', "/<wbr>")
            .replace("/<wbr>/<wbr>", "//"),
        escape(s.get(key::map::SCAN)),
        flow_svg(&r.flow, s.get(key::widget::FLOW), false),
    );
    let _ = write!(
        body,
        "<h2>{}</h2><p>{}</p><ol class=\"check\">",
        escape(s.get(key::widget::CHECKLIST)),
        escape(s.get(key::map::CHECKLIST_HINT))
    );
    for item in &r.checklist {
        let _ = write!(
            body,
            "<li><span class=\"box\"></span><span>{}</span></li>",
            escape(&item.question)
        );
    }
    let _ = write!(
        body,
        "</ol><h2>{}</h2><ul class=\"signals\">",
        escape(s.get(key::widget::RUNBOOK))
    );
    for signal in &r.runbook {
        let _ = write!(
            body,
            "<li><b>{}</b>: {}</li>",
            escape(&signal.name),
            escape(&signal.watch)
        );
    }
    body.push_str("</ul>");
    page(lang, s.get(key::map::CARD_TITLE), CSS, &body)
}

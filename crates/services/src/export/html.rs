//! Pieces both HTML pages share: escaping and the flow map as inline SVG.

use content::FlowStage;
use std::fmt::Write as _;

/// Flow stage ids drawn as the side branch (retry and dead-letter queue) instead of the main path.
const BRANCH_IDS: [&str; 2] = ["retry", "dlq"];
/// The main stage the branch hangs off (the consumer sees the failures).
const BRANCH_ANCHOR_ID: &str = "consumer-inbox";

// Geometry of the flow SVG in user units.
const MAIN_X: u32 = 10;
const MAIN_W: u32 = 200;
const BOX_H: u32 = 46;
const ROW: u32 = 68;
const BRANCH_X: u32 = 236;
const BRANCH_W: u32 = 124;
const VIEW_W: u32 = 370;

pub use domain::html::escape_html as escape;

/// The flow map as an inline SVG: the main path top to bottom, retry and DLQ on the side. With
/// `animated`, a token travels the main path (CSS class `token`, stopped by reduced motion).
pub fn flow_svg(stages: &[FlowStage], label: &str, animated: bool) -> String {
    let (main, branch): (Vec<&FlowStage>, Vec<&FlowStage>) = stages
        .iter()
        .partition(|s| !BRANCH_IDS.contains(&s.id.as_str()));
    let anchor = main
        .iter()
        .position(|s| s.id == BRANCH_ANCHOR_ID)
        .unwrap_or(main.len().saturating_sub(2));
    let rows = main.len().max(anchor + branch.len()) as u32;
    let height = rows * ROW - (ROW - BOX_H) + 20;
    let mut svg = format!(
        "<svg class=\"flow\" viewBox=\"0 0 {VIEW_W} {height}\" role=\"img\" aria-label=\"{}\">",
        escape(label)
    );
    svg.push_str(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" \
         markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" \
         class=\"tip\"/></marker></defs>",
    );
    let centre = MAIN_X + MAIN_W / 2;
    for i in 1..main.len() as u32 {
        let y1 = top(i - 1) + BOX_H;
        let _ = write!(
            svg,
            "<line class=\"edge\" x1=\"{centre}\" y1=\"{y1}\" x2=\"{centre}\" y2=\"{}\" \
             marker-end=\"url(#arrow)\"/>",
            top(i) - 2
        );
    }
    for (j, _) in branch.iter().enumerate() {
        let row = (anchor + j) as u32;
        let mid = top(row) + BOX_H / 2;
        if j == 0 {
            // Failure: from the anchor stage to the first branch stage, and back to the stage
            // before it (redelivery).
            let _ = write!(
                svg,
                "<line class=\"edge branch\" x1=\"{}\" y1=\"{mid}\" x2=\"{}\" y2=\"{mid}\" \
                 marker-end=\"url(#arrow)\"/>",
                MAIN_X + MAIN_W,
                BRANCH_X - 2
            );
            if row > 0 {
                let back = top(row - 1) + BOX_H / 2;
                let _ = write!(
                    svg,
                    "<polyline class=\"edge branch\" points=\"{bx},{top} {bx},{back} {mx},{back}\" \
                     fill=\"none\" marker-end=\"url(#arrow)\"/>",
                    bx = BRANCH_X + BRANCH_W / 2,
                    top = top(row),
                    mx = MAIN_X + MAIN_W + 2,
                );
            }
        } else {
            let cx = BRANCH_X + BRANCH_W / 2;
            let _ = write!(
                svg,
                "<line class=\"edge branch\" x1=\"{cx}\" y1=\"{}\" x2=\"{cx}\" y2=\"{}\" \
                 marker-end=\"url(#arrow)\"/>",
                top(row - 1) + BOX_H,
                top(row) - 2
            );
        }
    }
    for (i, stage) in main.iter().enumerate() {
        stage_box(&mut svg, stage, MAIN_X, top(i as u32), MAIN_W, "stage");
    }
    for (j, stage) in branch.iter().enumerate() {
        let y = top((anchor + j) as u32);
        stage_box(&mut svg, stage, BRANCH_X, y, BRANCH_W, "stage side");
    }
    if animated && main.len() > 1 {
        let travel = top(main.len() as u32 - 1);
        let _ = write!(
            svg,
            "<circle class=\"token\" cx=\"{centre}\" cy=\"10\" r=\"6\" \
             style=\"--travel:{travel}px\"/>"
        );
    }
    svg.push_str("</svg>");
    svg
}

fn top(row: u32) -> u32 {
    10 + row * ROW
}

fn stage_box(svg: &mut String, stage: &FlowStage, x: u32, y: u32, w: u32, class: &str) {
    let cx = x + w / 2;
    let _ = write!(
        svg,
        "<g class=\"{class}\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{BOX_H}\" \
         rx=\"8\"/>{}{}</g>",
        text(&stage.label, cx, y + 20, w, 15, "label"),
        text(&stage.detail, cx, y + 37, w, 11, "detail"),
    );
}

/// A centred text line; squeezed with `textLength` when a rough width estimate says it would
/// overflow its box (long German words), so it never spills over the neighbour.
fn text(value: &str, cx: u32, y: u32, box_w: u32, size: u32, class: &str) -> String {
    let room = box_w - 12;
    let estimate = value.chars().count() as u32 * size * 58 / 100;
    let squeeze = if estimate > room {
        format!(" textLength=\"{room}\" lengthAdjust=\"spacingAndGlyphs\"")
    } else {
        String::new()
    };
    format!(
        "<text class=\"{class}\" x=\"{cx}\" y=\"{y}\" text-anchor=\"middle\"{squeeze}>{}</text>",
        escape(value)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(id: &str, label: &str) -> FlowStage {
        FlowStage {
            id: id.to_owned(),
            label: label.to_owned(),
            detail: "d".to_owned(),
        }
    }

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn branch_stages_go_to_the_side_and_labels_are_escaped() {
        let stages = [
            stage("api", "A<I"),
            stage("consumer-inbox", "C"),
            stage("retry", "R"),
            stage("dlq", "D"),
        ];
        let svg = flow_svg(&stages, "Flow", true);
        assert!(svg.contains("A&lt;I") && !svg.contains("A<I"));
        assert!(svg.contains(&format!("x=\"{BRANCH_X}\"")), "{svg}");
        assert_eq!(svg.matches("class=\"stage side\"").count(), 2);
        assert!(svg.contains("class=\"token\""));
        assert!(!flow_svg(&stages, "Flow", false).contains("token"));
    }
}

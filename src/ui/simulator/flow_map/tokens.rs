//! The arrows between the boxes and the message tokens that travel on them. A token carries
//! its order number ("3"), so a learner can follow order 3 from the API to its effect; a
//! redelivered one carries a mark ("↺3", ASCII "*3"), and a message that goes back to the
//! broker travels the arrow backwards ("◀3").

use super::super::super::chrome::clip;
use app::layout::Area;
use app::simulator::{Move, labels};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;
use sim::Stage;

/// Box indices (into `Stage::ALL` order) of the main line, left to right.
const CHAIN: [usize; 6] = [0, 1, 2, 3, 6, 7];
/// Box index of the broker and of the consumers (the lower boxes hang under them).
const BROKER: usize = 3;
const CONSUMERS: usize = 6;

/// The glyphs of one drawing style.
struct Glyphs {
    line: &'static str,
    right: &'static str,
    left: &'static str,
    up_down: &'static str,
    down: &'static str,
    up: &'static str,
    again: &'static str,
}

fn glyphs(ascii: bool) -> Glyphs {
    if ascii {
        Glyphs {
            line: "-",
            right: ">",
            left: "<",
            up_down: "|",
            down: "v",
            up: "^",
            again: "*",
        }
    } else {
        Glyphs {
            line: "─",
            right: "▶",
            left: "◀",
            up_down: "↕",
            down: "↓",
            up: "↑",
            again: "↺",
        }
    }
}

/// The text of a token: its order number, marked when it is a redelivery.
pub fn label(m: &Move, ascii: bool) -> String {
    let order = labels::order_of(&m.message_id);
    if m.again {
        format!("{}{order}", glyphs(ascii).again)
    } else {
        order
    }
}

/// The arrow row of the main line (the middle of the boxes).
fn arrow_row(boxes: &[Area; 8]) -> u16 {
    boxes[0].y + boxes[0].height / 2
}

/// The gap after chain box `k`: first and last column (inclusive), if there is room.
fn gap(boxes: &[Area; 8], k: usize) -> Option<(u16, u16)> {
    let (a, b) = (boxes[CHAIN[k]], boxes[CHAIN[k + 1]]);
    let x0 = a.x + a.width;
    (b.x > x0 && a.height > 0).then(|| (x0, b.x - 1))
}

/// Draws the arrows: the main line left to right, broker and retry up and down, consumers
/// down to the DLQ.
pub fn arrows(frame: &mut Frame<'_>, boxes: &[Area; 8], ascii: bool, style: Style) {
    let g = glyphs(ascii);
    let y = arrow_row(boxes);
    for k in 0..CHAIN.len() - 1 {
        let Some((x0, x1)) = gap(boxes, k) else {
            continue;
        };
        let text = format!("{}{}", g.line.repeat(usize::from(x1 - x0)), g.right);
        frame.render_widget(
            Paragraph::new(Span::styled(text, style)),
            clip(frame, Rect::new(x0, y, x1 - x0 + 1, 1)),
        );
    }
    for (upper, glyph) in [(BROKER, g.up_down), (CONSUMERS, g.down)] {
        if let Some((x, lane)) = lane_cell(boxes, upper) {
            frame.render_widget(
                Paragraph::new(Span::styled(glyph, style)),
                clip(frame, Rect::new(x, lane, 1, 1)),
            );
        }
    }
}

/// The connector cell between a main box and the lower box under it.
fn lane_cell(boxes: &[Area; 8], upper: usize) -> Option<(u16, u16)> {
    let a = boxes[upper];
    let lower = if upper == BROKER { 4 } else { 5 };
    let lane = a.y + a.height;
    (boxes[lower].y > lane).then_some((a.x + a.width / 2, lane))
}

/// Where a stage sits on the main line, and the lower box it goes through (retry under the
/// broker, DLQ under the consumers).
fn on_chain(stage: Stage) -> (usize, Option<usize>) {
    match stage {
        Stage::Api => (0, None),
        Stage::Outbox => (1, None),
        Stage::Dispatcher => (2, None),
        Stage::Broker => (3, None),
        Stage::Retry => (3, Some(BROKER)),
        Stage::Consumer => (4, None),
        Stage::Dlq => (4, Some(CONSUMERS)),
        Stage::Effect => (5, None),
    }
}

/// A place a token's label can stand: a column on an arrow, or next to a lane connector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// At column `x` of the arrow over columns `gap`; `back` turns its head to the left.
    Arrow { x: u16, gap: (u16, u16), back: bool },
    /// On the lane next to the connector at `x`; `down` towards the lower box.
    Lane { x: u16, y: u16, down: bool },
}

/// The slots a token passes from `m.from` to `m.to`, in travel order.
fn path(m: &Move, boxes: &[Area; 8], width: u16) -> Vec<Slot> {
    let (from, from_lower) = on_chain(m.from);
    let (to, to_lower) = on_chain(m.to);
    let mut slots = Vec::new();
    if let Some(upper) = from_lower
        && let Some((x, y)) = lane_cell(boxes, upper)
    {
        slots.push(Slot::Lane { x, y, down: false });
    }
    let span: Vec<usize> = if from <= to {
        (from..to).collect()
    } else {
        (to..from).rev().collect()
    };
    for k in span {
        let Some((x0, x1)) = gap(boxes, k) else {
            continue;
        };
        let back = from > to;
        // The label keeps the arrowhead visible where the gap allows (at x1 going right, at
        // x0 going back).
        let (first, last) = if back {
            (
                (x0 + 1).min(x1),
                (x1 + 1).saturating_sub(width).max(x0 + 1).min(x1),
            )
        } else {
            (x0, x1.saturating_sub(width).max(x0))
        };
        let mut xs: Vec<u16> = (first..=last).collect();
        if back {
            xs.reverse();
        }
        slots.extend(xs.into_iter().map(|x| Slot::Arrow {
            x,
            gap: (x0, x1),
            back,
        }));
    }
    if let Some(upper) = to_lower
        && let Some((x, y)) = lane_cell(boxes, upper)
    {
        slots.push(Slot::Lane { x, y, down: true });
    }
    slots
}

/// Draws the tokens of the current beat at `t` (0.0 leaving, 1.0 arriving) of their way.
pub fn movers(
    frame: &mut Frame<'_>,
    moves: &[Move],
    t: f32,
    boxes: &[Area; 8],
    ascii: bool,
    style: Style,
) {
    let g = glyphs(ascii);
    let y = arrow_row(boxes);
    // Where tokens share an arrow, a redelivery is drawn last (on top): it is the story.
    let mut ordered: Vec<&Move> = moves.iter().filter(|m| !m.again).collect();
    ordered.extend(moves.iter().filter(|m| m.again));
    for m in ordered {
        let text = label(m, ascii);
        let width = text.chars().count() as u16;
        let slots = path(m, boxes, width);
        let Some(last) = slots.len().checked_sub(1) else {
            continue;
        };
        let i = ((last as f32) * t.clamp(0.0, 1.0)).round() as usize;
        match slots[i.min(last)] {
            Slot::Arrow {
                x,
                gap: (x0, x1),
                back,
            } => {
                // The label stays inside its gap, never on a box border.
                let room = (x1 + 1).saturating_sub(x);
                let text: String = text.chars().take(usize::from(room)).collect();
                let width = width.min(room);
                let line = g.line.repeat(usize::from(x1 - x0));
                let arrow = if back {
                    format!("{}{line}", g.left)
                } else {
                    format!("{line}{}", g.right)
                };
                frame.render_widget(
                    Paragraph::new(Span::styled(arrow, style)),
                    clip(frame, Rect::new(x0, y, x1 - x0 + 1, 1)),
                );
                frame.render_widget(
                    Paragraph::new(Span::styled(text, style)),
                    clip(frame, Rect::new(x, y, width, 1)),
                );
            }
            Slot::Lane { x, y: lane, down } => {
                let glyph = if down { g.down } else { g.up };
                frame.render_widget(
                    Paragraph::new(Span::styled(format!("{glyph}{text}"), style)),
                    clip(frame, Rect::new(x, lane, width + 1, 1)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::layout;

    fn boxes() -> [Area; 8] {
        layout::flow_boxes(Area {
            x: 1,
            y: 2,
            width: 78,
            height: 8,
        })
    }

    fn mv(from: Stage, to: Stage, again: bool) -> Move {
        Move {
            message_id: "msg-000003".into(),
            from,
            to,
            again,
        }
    }

    #[test]
    fn a_token_travels_on_the_arrows_between_its_boxes() {
        let b = boxes();
        let slots = path(&mv(Stage::Api, Stage::Dispatcher, false), &b, 1);
        let xs: Vec<u16> = slots
            .iter()
            .map(|s| match s {
                Slot::Arrow { x, back: false, .. } => *x,
                other => panic!("{other:?}"),
            })
            .collect();
        // Two arrows: API -> Outbox, Outbox -> Dispatcher, every column outside the boxes.
        assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
        for x in &xs {
            assert!(
                b.iter().all(|a| *x < a.x || *x >= a.x + a.width),
                "{x} inside a box"
            );
        }
        assert!(xs[0] >= b[0].x + b[0].width && *xs.last().expect("slots") < b[2].x);
    }

    #[test]
    fn a_message_going_back_travels_right_to_left_and_a_redelivery_is_marked() {
        let b = boxes();
        let slots = path(&mv(Stage::Consumer, Stage::Broker, false), &b, 1);
        assert!(matches!(
            slots.first(),
            Some(Slot::Arrow { back: true, .. })
        ));
        let again = mv(Stage::Broker, Stage::Consumer, true);
        assert_eq!(label(&again, false), "↺3");
        assert_eq!(label(&again, true), "*3");
        let dlq = path(&mv(Stage::Consumer, Stage::Dlq, false), &b, 1);
        assert!(matches!(dlq.last(), Some(Slot::Lane { down: true, .. })));
    }

    /// A label wider than its gap (a long order number) stops short of the next box's border.
    #[test]
    fn a_wide_label_never_draws_over_a_box_border() {
        use ratatui::Terminal;
        use ratatui::backend::TestBackend;
        let b = boxes();
        let mut term = Terminal::new(TestBackend::new(80, 12)).expect("terminal");
        let wide = Move {
            message_id: "msg-123456".into(),
            from: Stage::Dispatcher,
            to: Stage::Broker,
            again: false,
        };
        for t in [0.0, 0.5, 1.0] {
            term.draw(|f| {
                movers(
                    f,
                    std::slice::from_ref(&wide),
                    t,
                    &b,
                    false,
                    Style::default(),
                );
            })
            .expect("draw");
            let (x0, x1) = gap(&b, 2).expect("a gap before the broker");
            let y = arrow_row(&b);
            let buf = term.backend().buffer();
            let after = buf[(x1 + 1, y)].symbol().to_owned();
            assert_eq!(after, " ", "t {t}: column {} is the broker box's", x1 + 1);
            let drawn: String = (x0..=x1).map(|x| buf[(x, y)].symbol().to_owned()).collect();
            assert!(drawn.starts_with('1'), "t {t}: {drawn:?}");
        }
    }
}

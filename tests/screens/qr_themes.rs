//! The terminal QR code decodes in every theme: rendered with `NO_COLOR`, its cells are painted
//! as a light theme shows them (default foreground dark, default background light) and as a
//! dark theme does, and both images must scan to the map URL.

use crate::support::screen as support;

use queuelab::app::{Info, MapSetup, Options};
use queuelab::content::Lang;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use support::{new_app, press, render};

const URL: &str = "https://example.org/queuelab-map";

/// Grey level of a cell colour in a theme whose defaults are `fg` and `bg`.
fn grey(color: Color, default: u8) -> u8 {
    match color {
        Color::Reset => default,
        Color::White | Color::Gray => 255,
        Color::Black | Color::DarkGray => 0,
        other => panic!("unexpected colour in the QR area: {other:?}"),
    }
}

/// Paints the whole screen: half blocks take the foreground, the rest the background; reverse
/// video swaps them.
fn paint(buffer: &Buffer, fg: u8, bg: u8) -> image::GrayImage {
    const PX: u32 = 4;
    let area = buffer.area;
    image::GrayImage::from_fn(
        u32::from(area.width) * PX,
        u32::from(area.height) * 2 * PX,
        |x, y| {
            let cell = &buffer[((x / PX) as u16, (y / (2 * PX)) as u16)];
            let (mut f, mut b) = (grey(cell.fg, fg), grey(cell.bg, bg));
            if cell.modifier.contains(Modifier::REVERSED) {
                std::mem::swap(&mut f, &mut b);
            }
            let upper = y % (2 * PX) < PX;
            let symbol = cell.symbol();
            let painted = symbol == "█" || (symbol == "▀" && upper) || (symbol == "▄" && !upper);
            image::Luma([if painted { f } else { b }])
        },
    )
}

fn scan(img: image::GrayImage) -> Option<String> {
    let mut prepared = rqrr::PreparedImage::prepare(img);
    let grids = prepared.detect_grids();
    grids.first()?.decode().ok().map(|(_, text)| text)
}

#[test]
fn the_terminal_qr_code_decodes_on_light_and_dark_themes_with_no_color() {
    let options = Options {
        no_color: true,
        ..Options::default()
    };
    let mut app = new_app(Lang::En, options, Info::default(), 100, 40);
    app.session.map = MapSetup::new(Some(URL.to_owned()), 8737);
    press(&mut app, "3");
    let buffer = render(&app);
    assert_eq!(
        scan(paint(&buffer, 0, 255)).as_deref(),
        Some(URL),
        "light theme"
    );
    assert_eq!(
        scan(paint(&buffer, 255, 0)).as_deref(),
        Some(URL),
        "dark theme"
    );
}

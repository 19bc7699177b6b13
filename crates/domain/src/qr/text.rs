//! Draws a QR matrix as lines of terminal text. Light modules are drawn as filled cells and dark
//! modules as blanks: with the QR's own light-on-dark colours (or a dark terminal theme) that
//! gives the dark-on-light code scanners expect, and the quiet zone is drawn, never assumed.

use super::QrMatrix;

/// Quiet zone in the terminal, in modules. The standard asks for 4; scanners read 2 reliably and
/// it keeps the code on an 80x24 screen.
pub const TERMINAL_QUIET_ZONE: usize = 2;

/// How modules become characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Glyphs {
    /// Upper/lower half blocks: one cell holds two module rows, so modules stay square.
    HalfBlock,
    /// `--ascii`: two `#` per light module, one line per module row.
    Ascii,
}

/// Columns and lines the drawing of `matrix` needs.
pub fn size(matrix: &QrMatrix, glyphs: Glyphs, quiet: usize) -> (usize, usize) {
    let side = matrix.width() + 2 * quiet;
    match glyphs {
        Glyphs::HalfBlock => (side, side.div_ceil(2)),
        Glyphs::Ascii => (2 * side, side),
    }
}

/// The drawing as lines of equal width.
pub fn render(matrix: &QrMatrix, glyphs: Glyphs, quiet: usize) -> Vec<String> {
    let side = matrix.width() + 2 * quiet;
    // Beyond the last row counts as dark (a blank), so an odd last line shows only its top half.
    let light = |x: usize, y: usize| y < side && !matrix.is_dark_framed(x, y, quiet);
    match glyphs {
        Glyphs::HalfBlock => (0..side)
            .step_by(2)
            .map(|y| {
                (0..side)
                    .map(|x| match (light(x, y), light(x, y + 1)) {
                        (true, true) => '█',
                        (true, false) => '▀',
                        (false, true) => '▄',
                        (false, false) => ' ',
                    })
                    .collect()
            })
            .collect(),
        Glyphs::Ascii => (0..side)
            .map(|y| {
                (0..side)
                    .map(|x| if light(x, y) { "##" } else { "  " })
                    .collect()
            })
            .collect(),
    }
}

/// The drawing if it fits in `columns` x `lines`; `None` means "enlarge the terminal" — a cut
/// QR code would scan as garbage or not at all.
pub fn render_fitting(
    matrix: &QrMatrix,
    glyphs: Glyphs,
    quiet: usize,
    columns: usize,
    lines: usize,
) -> Option<Vec<String>> {
    let (w, h) = size(matrix, glyphs, quiet);
    (w <= columns && h <= lines).then(|| render(matrix, glyphs, quiet))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> QrMatrix {
        // A 3x3 "code": dark diagonal.
        QrMatrix::from_rows(&[
            vec![true, false, false],
            vec![false, true, false],
            vec![false, false, true],
        ])
        .expect("square")
    }

    #[test]
    fn half_blocks_pack_two_rows_and_draw_the_quiet_zone_light() {
        let lines = render(&tiny(), Glyphs::HalfBlock, 1);
        assert_eq!(
            lines,
            vec!["█▀███".to_owned(), "██▄▀█".to_owned(), "▀▀▀▀▀".to_owned()]
        );
        assert_eq!(size(&tiny(), Glyphs::HalfBlock, 1), (5, 3));
    }

    #[test]
    fn ascii_uses_two_hashes_per_light_module() {
        let lines = render(&tiny(), Glyphs::Ascii, 0);
        assert_eq!(lines, vec!["  ####", "##  ##", "####  "]);
        assert_eq!(size(&tiny(), Glyphs::Ascii, 0), (6, 3));
    }

    #[test]
    fn a_code_that_does_not_fit_is_not_drawn() {
        let m = QrMatrix::encode("https://example.org/lab").expect("encodes");
        let (w, h) = size(&m, Glyphs::HalfBlock, TERMINAL_QUIET_ZONE);
        assert!(render_fitting(&m, Glyphs::HalfBlock, 2, w, h).is_some());
        assert!(render_fitting(&m, Glyphs::HalfBlock, 2, w - 1, h).is_none());
        assert!(render_fitting(&m, Glyphs::HalfBlock, 2, w, h - 1).is_none());
        assert!(render_fitting(&m, Glyphs::Ascii, 2, 0, 0).is_none());
    }

    #[test]
    fn every_line_has_the_same_width() {
        let m = QrMatrix::encode("https://example.org/lab").expect("encodes");
        for glyphs in [Glyphs::HalfBlock, Glyphs::Ascii] {
            let lines = render(&m, glyphs, TERMINAL_QUIET_ZONE);
            let (w, h) = size(&m, glyphs, TERMINAL_QUIET_ZONE);
            assert_eq!(lines.len(), h);
            assert!(lines.iter().all(|l| l.chars().count() == w));
        }
    }

    /// Paints the text back into pixels the way a terminal shows it with light glyphs on a dark
    /// background, and scans it: proof the drawing is a readable code, not only a pretty one.
    fn scan(lines: &[String], glyphs: Glyphs, glyph_light: bool) -> Option<String> {
        const PX: u32 = 6;
        let cells: Vec<Vec<char>> = lines.iter().map(|l| l.chars().collect()).collect();
        let (cols, rows) = (cells[0].len() as u32, cells.len() as u32);
        // A half-block cell is one module wide and two tall; an ASCII cell half a module wide.
        let (cell_w, cell_h) = match glyphs {
            Glyphs::HalfBlock => (PX, 2 * PX),
            Glyphs::Ascii => (PX / 2, PX),
        };
        let img = image::GrayImage::from_fn(cols * cell_w, rows * cell_h, |x, y| {
            let c = cells[(y / cell_h) as usize][(x / cell_w) as usize];
            let upper = y % cell_h < cell_h / 2;
            let lit = match c {
                '█' | '#' => true,
                '▀' => upper,
                '▄' => !upper,
                _ => false,
            };
            image::Luma([if lit == glyph_light { 255 } else { 0 }])
        });
        let mut prepared = rqrr::PreparedImage::prepare(img);
        let grids = prepared.detect_grids();
        grids.first()?.decode().ok().map(|(_, text)| text)
    }

    #[test]
    fn the_terminal_drawing_scans_back_to_the_url() {
        let url = "http://192.168.178.20:8737/";
        let m = QrMatrix::encode(url).expect("encodes");
        for glyphs in [Glyphs::HalfBlock, Glyphs::Ascii] {
            let lines = render(&m, glyphs, TERMINAL_QUIET_ZONE);
            assert_eq!(
                scan(&lines, glyphs, true).as_deref(),
                Some(url),
                "{glyphs:?}"
            );
            // Negative control: the same glyphs drawn dark (a light theme without the QR's own
            // colours) give an inverted code the scanner does not read.
            assert_eq!(scan(&lines, glyphs, false), None, "{glyphs:?}");
        }
    }
}

//! The real binary in a pseudo-terminal: Home's "Quick-reference map" opens the map, and the code
//! on the screen, read back through a terminal emulator, scans to the configured URL.

use crate::support::pty;

use pty::Session;

const URL: &str = "https://example.org/lab";

/// Cuts the QR block out of the screen text: its first row is the longest run of full blocks
/// (the top quiet zone), and it ends with the row of upper half blocks (the bottom quiet zone).
fn qr_block(screen: &str) -> Vec<Vec<char>> {
    let rows: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let (top, col, width) = rows
        .iter()
        .enumerate()
        .filter_map(|(y, row)| {
            let start = row.iter().position(|&c| c == '█')?;
            let run = row[start..].iter().take_while(|&&c| c == '█').count();
            Some((y, start, run))
        })
        .max_by_key(|&(y, _, run)| (run, std::cmp::Reverse(y)))
        .expect("a full-block row");
    rows[top..]
        .iter()
        .map(|row| {
            row.iter()
                .skip(col)
                .take(width)
                .copied()
                .collect::<Vec<char>>()
        })
        .take_while(|row| row.len() == width && row.iter().all(|c| "█▀▄ ".contains(*c)))
        .collect()
}

/// Paints the half blocks as the terminal shows them (glyphs white on black) and scans them.
fn scan(block: &[Vec<char>]) -> Option<String> {
    const PX: u32 = 6;
    let (w, h) = (block[0].len() as u32, block.len() as u32);
    let img = image::GrayImage::from_fn(w * PX, h * 2 * PX, |x, y| {
        let c = block[(y / (2 * PX)) as usize][(x / PX) as usize];
        let upper = y % (2 * PX) < PX;
        let lit = c == '█' || (c == '▀' && upper) || (c == '▄' && !upper);
        image::Luma([if lit { 255 } else { 0 }])
    });
    let mut prepared = rqrr::PreparedImage::prepare(img);
    let grids = prepared.detect_grids();
    grids.first()?.decode().ok().map(|(_, text)| text)
}

#[test]
fn the_map_screen_shows_a_code_that_scans_to_the_map_url() {
    let data = tempfile::tempdir().expect("tempdir");
    let config = data.path().join("queuelab.toml");
    std::fs::write(&config, format!("[workshop]\nmap_url = \"{URL}\"\n")).expect("config");
    let config = config.to_str().expect("utf-8");
    let mut s = Session::start(data.path(), &["--lang", "en", "--config", config], 100, 40);
    s.wait_for("Start with chapter 1");
    s.send("3");
    s.wait_for(URL);
    let screen = s.screen();
    assert!(screen.contains("Production checklist") && screen.contains("API → DB + Outbox"));
    let block = qr_block(&screen);
    assert!(block.len() > 10, "{screen}");
    assert_eq!(scan(&block).as_deref(), Some(URL), "{screen}");
    s.send("q");
    s.wait_for("Quick-reference map");
    s.send("\x03");
    assert!(s.wait_exit());
}

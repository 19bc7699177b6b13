//! Where each screen puts its parts. Both the views (to draw) and the update (to hit-test
//! mouse clicks and to size scrolling) use these pure functions, so they cannot disagree.

/// A rectangle of cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Area {
    /// Left column.
    pub x: u16,
    /// Top row.
    pub y: u16,
    /// Width in cells.
    pub width: u16,
    /// Height in cells.
    pub height: u16,
}

impl Area {
    /// True when the cell lies inside.
    pub fn contains(self, column: u16, row: u16) -> bool {
        column >= self.x
            && column < self.x + self.width
            && row >= self.y
            && row < self.y + self.height
    }
}

/// The smallest terminal the workshop draws in.
pub const MIN_WIDTH: u16 = 60;
/// The smallest terminal height.
pub const MIN_HEIGHT: u16 = 18;
/// Reading is easier when lines stay short; wider terminals get margins.
pub const MAX_TEXT_WIDTH: u16 = 100;

/// True when the terminal is too small to draw anything useful.
pub fn too_small(width: u16, height: u16) -> bool {
    width < MIN_WIDTH || height < MIN_HEIGHT
}

/// The header line.
pub fn header(width: u16) -> Area {
    Area {
        x: 0,
        y: 0,
        width,
        height: 1,
    }
}

/// Everything between header and legend.
pub fn body(width: u16, height: u16) -> Area {
    Area {
        x: 0,
        y: 1,
        width,
        height: height.saturating_sub(2),
    }
}

/// The one-line key legend at the bottom.
pub fn legend(width: u16, height: u16) -> Area {
    Area {
        x: 0,
        y: height.saturating_sub(1),
        width,
        height: 1,
    }
}

/// A list inside the body, below one title line, with a one-column margin.
pub fn list(width: u16, height: u16) -> Area {
    let body = body(width, height);
    Area {
        x: 2,
        y: body.y + 2,
        width: body.width.saturating_sub(4),
        height: body.height.saturating_sub(3),
    }
}

/// The reader's text column: centred, at most [`MAX_TEXT_WIDTH`] wide, below the title line
/// and above a status line.
pub fn reader_text(width: u16, height: u16) -> Area {
    let body = body(width, height);
    let text_width = width.saturating_sub(4).min(MAX_TEXT_WIDTH);
    let x = (width - text_width) / 2;
    Area {
        x,
        y: body.y + 1,
        width: text_width,
        height: body.height.saturating_sub(2),
    }
}

/// Where Home puts its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HomeLayout {
    /// Title and subtitle (wrapped onto a second row when they do not fit one).
    pub title: Area,
    /// The progress panel.
    pub progress: Area,
    /// The menu, one row per entry.
    pub menu: Area,
    /// Too short for the whole panel: it leaves out its heading and the two counts the header
    /// already shows.
    pub compact: bool,
}

/// Rows of the full progress panel (heading + six counts) and of the compact one.
const PROGRESS_ROWS: u16 = 7;
const COMPACT_PROGRESS_ROWS: u16 = 4;

/// Home: title, the progress panel (left or top) and the menu. `title_chars` is the length of
/// "title  subtitle"; every menu entry stays visible down to the minimum size.
pub fn home(width: u16, height: u16, title_chars: usize) -> HomeLayout {
    let body = body(width, height);
    let menu_rows = super::MenuItem::ALL.len() as u16;
    // The row above the legend carries the status line.
    let usable = body.height.saturating_sub(1);
    let title_rows = if title_chars < usize::from(width) {
        1
    } else {
        2
    };
    let title = Area {
        x: 1,
        y: body.y,
        width: width.saturating_sub(2),
        height: title_rows,
    };
    let top = body.y + title_rows + 1;
    if width >= 90 {
        let height = usable.saturating_sub(title_rows + 1);
        let progress = Area {
            x: 2,
            y: top,
            width: 40,
            height,
        };
        let menu = Area {
            x: 46,
            y: top,
            width: width.saturating_sub(48),
            height,
        };
        return HomeLayout {
            title,
            progress,
            menu,
            compact: false,
        };
    }
    let compact = title_rows + 1 + PROGRESS_ROWS + 1 + menu_rows > usable;
    let progress_rows = if compact {
        COMPACT_PROGRESS_ROWS
    } else {
        PROGRESS_ROWS
    };
    // A spare row goes between the panel and the menu first, then below the title.
    let spare = usable.saturating_sub(title_rows + progress_rows + menu_rows);
    let above = u16::from(spare >= 2);
    let between = u16::from(spare >= 1);
    let progress = Area {
        x: 2,
        y: body.y + title_rows + above,
        width: width.saturating_sub(4),
        height: progress_rows,
    };
    let menu_y = progress.y + progress_rows + between;
    let menu = Area {
        x: 2,
        y: menu_y,
        width: width.saturating_sub(4),
        height: (body.y + usable).saturating_sub(menu_y),
    };
    HomeLayout {
        title,
        progress,
        menu,
        compact,
    }
}

/// The ordering game's cards: one row each, below the title and progress lines.
pub fn ordering_cards(width: u16, height: u16) -> Area {
    let body = body(width, height);
    Area {
        x: 2,
        y: body.y + 3,
        width: width.saturating_sub(4),
        height: (content::ORDERING_STEPS as u16).min(body.height.saturating_sub(3)),
    }
}

/// The parts of the simulator screen, top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SimAreas {
    /// Scenario, mode, broker, seed, play state, event and time.
    pub info: Area,
    /// The flow map.
    pub map: Area,
    /// Narration (caption or transcript).
    pub caption: Area,
    /// Tab titles.
    pub tabs: Area,
    /// The tab's content.
    pub content: Area,
    /// The run directory's path.
    pub path: Area,
}

/// Where the simulator puts its parts; taller terminals give the map, the narration and the
/// tabs more rows.
pub fn simulator(width: u16, height: u16) -> SimAreas {
    let body = body(width, height);
    // One row above the legend stays free for the status line.
    let rows = body.height.saturating_sub(1);
    let map_h: u16 = if rows >= 34 { 11 } else { 8 };
    // The story panel: a header and the moment's explanation, which wraps to several rows
    // at 80 columns.
    let caption_h: u16 = match rows {
        34.. => 7,
        26.. => 6,
        _ => 5,
    };
    let x = 1;
    let w = width.saturating_sub(2);
    let row = |y: u16, h: u16| Area {
        x,
        y,
        width: w,
        height: h,
    };
    let info = row(body.y, 1);
    let map = row(info.y + 1, map_h);
    let caption = row(map.y + map_h, caption_h);
    let tabs = row(caption.y + caption_h, 1);
    let content_h = rows.saturating_sub(1 + map_h + caption_h + 1 + 1);
    let content = row(tabs.y + 1, content_h);
    let path = row(content.y + content_h, 1);
    SimAreas {
        info,
        map,
        caption,
        tabs,
        content,
        path,
    }
}

/// The boxes of the flow map in `Stage::ALL` order (API, OUTBOX, DISPATCHER, BROKER, RETRY,
/// DLQ, CONSUMERS, EFFECT): six left to right, RETRY under BROKER and DLQ under CONSUMERS.
/// The gaps between them hold the arrows the message tokens travel on.
pub fn flow_boxes(map: Area) -> [Area; 8] {
    // Smallest widths: the titles fit, the counts fit as numbers (a legend says what they
    // mean), and the consumers box holds "A #10 abgeschlossen" on one row per instance.
    const MIN: [u16; 6] = [6, 8, 12, 9, 21, 9];
    // Widths at which each box's words fit in both languages; extra width goes there first,
    // one column per box in turn.
    const COMFORT: [u16; 6] = [12, 15, 13, 14, 21, 16];
    // Where the boxes' short titles ("API", "Disp.", "Retry" under the broker) still fit.
    const FLOOR: [u16; 6] = [5, 7, 7, 7, 15, 7];
    let gap = flow_gap(map.width);
    let min_total: u16 = MIN.iter().sum::<u16>() + gap * 5;
    let mut extra = map.width.saturating_sub(min_total);
    let mut widths = MIN;
    while extra > 0 && widths.iter().zip(COMFORT).any(|(w, c)| *w < c) {
        for (w, c) in widths.iter_mut().zip(COMFORT) {
            if extra > 0 && *w < c {
                *w += 1;
                extra -= 1;
            }
        }
    }
    // Beyond comfort the consumers box takes a third, the rest share evenly.
    let consumer_extra = extra / 3;
    let each = (extra - consumer_extra) / 5;
    for (i, w) in widths.iter_mut().enumerate() {
        *w += if i == 4 { consumer_extra } else { each };
    }
    let room = map.width.saturating_sub(gap * 5);
    let needed: u16 = widths.iter().sum();
    let floor: u16 = FLOOR.iter().sum();
    if needed > room && room >= floor {
        // Below the smallest width each box gives up the same share of what lies above its
        // floor (the counts show as numbers, the titles stay whole).
        let (give, spare) = (u32::from(needed - room), u32::from(needed - floor));
        for (w, f) in widths.iter_mut().zip(FLOOR) {
            *w -= (u32::from(*w - f) * give).div_ceil(spare) as u16;
        }
    } else if needed > room {
        // Narrower still every box shrinks by the same share.
        widths = widths.map(|w| (u32::from(w) * u32::from(room) / u32::from(needed.max(1))) as u16);
    }
    let lower_h: u16 = if map.height >= 10 { 4 } else { 3 };
    let main_h = map.height.saturating_sub(lower_h + 1).max(3);
    let mut main = [Area::default(); 6];
    let mut left = map.x;
    for (i, w) in widths.iter().enumerate() {
        let w = (*w).min((map.x + map.width).saturating_sub(left));
        main[i] = Area {
            x: left,
            y: map.y,
            width: w,
            height: main_h,
        };
        left = left.saturating_add(w + gap).min(map.x + map.width);
    }
    let lower = |above: Area| Area {
        x: above.x,
        y: map.y + main_h + 1,
        width: above.width,
        height: lower_h.min((map.y + map.height).saturating_sub(map.y + main_h + 1)),
    };
    [
        main[0],
        main[1],
        main[2],
        main[3],
        lower(main[3]),
        lower(main[4]),
        main[4],
        main[5],
    ]
}

/// Columns between two boxes of the flow map: room for an arrow with a token's order number
/// on it ("─3▶"), wider when the terminal allows.
pub fn flow_gap(width: u16) -> u16 {
    match width {
        120.. => 4,
        90.. => 3,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_fit_inside_the_terminal() {
        for (w, h) in [(60, 18), (80, 24), (200, 60), (0, 0), (1, 1)] {
            for area in [
                header(w),
                body(w, h),
                legend(w, h),
                list(w, h),
                reader_text(w, h),
                home(w, h, 90).title,
                home(w, h, 90).progress,
                home(w, h, 90).menu,
                ordering_cards(w, h),
                simulator(w, h).info,
                simulator(w, h).content,
                simulator(w, h).path,
            ]
            .into_iter()
            .chain(flow_boxes(simulator(w, h).map))
            {
                if too_small(w, h) {
                    continue;
                }
                assert!(
                    area.x + area.width <= w && area.y + area.height <= h,
                    "{area:?} in {w}x{h}"
                );
            }
        }
    }

    #[test]
    fn every_menu_entry_has_a_row_down_to_the_minimum() {
        for (w, h) in [(60, 18), (70, 20), (80, 24), (89, 18), (200, 60)] {
            let parts = home(w, h, 90);
            assert!(
                usize::from(parts.menu.height) >= super::super::MenuItem::ALL.len(),
                "{w}x{h}: {parts:?}"
            );
            // The menu ends above the status line and the legend.
            assert!(
                parts.menu.y + parts.menu.height <= h - 2,
                "{w}x{h}: {parts:?}"
            );
            let stacked = parts.progress.x == parts.menu.x;
            assert!(!stacked || parts.progress.y + parts.progress.height <= parts.menu.y);
        }
    }
}

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

/// Home: the progress panel (left or top) and the menu.
pub fn home(width: u16, height: u16) -> (Area, Area) {
    let body = body(width, height);
    let wide = width >= 90;
    if wide {
        let left = Area {
            x: 2,
            y: body.y + 2,
            width: 40,
            height: body.height.saturating_sub(2),
        };
        let menu = Area {
            x: 46,
            y: body.y + 2,
            width: width.saturating_sub(48),
            height: body.height.saturating_sub(2),
        };
        (left, menu)
    } else {
        let progress = Area {
            x: 2,
            y: body.y + 2,
            width: width.saturating_sub(4),
            height: 7,
        };
        let menu = Area {
            x: 2,
            y: body.y + 10,
            width: width.saturating_sub(4),
            height: body.height.saturating_sub(10),
        };
        (progress, menu)
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
                home(w, h).0,
                home(w, h).1,
            ] {
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
}

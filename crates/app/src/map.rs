//! The quick-reference map screen: the compact flow, the ten checklist questions, the six runbook
//! signals, and a QR code with its URL. The URL is the config's `map_url`, or the LAN address
//! while the map is shared (the server itself runs in the runtime, on its own thread).

use content::key;

mod lines;

use super::input::{Mouse, MouseKind};
use super::keymap::Action;
use super::layout::{self, Area};
use super::{Effect, Screen, Session, ShareFailure, ShareRequest};
use domain::qr::QrMatrix;
use domain::qr::text::{self, Glyphs, TERMINAL_QUIET_ZONE};

pub use lines::lines;

/// The text column is never narrower than this; the QR code yields first.
const MIN_TEXT_WIDTH: u16 = 36;
/// The QR panel is at least this wide, for the URL and the hints beneath the code.
const MIN_PANEL_WIDTH: u16 = 30;
/// Lines under the code: the URL and a hint (the quiet zone already sets them apart). A longer
/// URL wraps into the hint's line, which is also in the key legend.
const LINES_UNDER_QR: u16 = 2;

/// The map screen's own state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MapState {
    /// First visible line of the text column.
    pub scroll: u16,
}

/// The LAN share as the core sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Sharing {
    /// Not shared.
    #[default]
    Off,
    /// Asked the runtime to start; waiting for the answer.
    Starting,
    /// Served at this URL.
    On(String),
}

/// The map's address and the share, kept across screens (the server outlives the screen).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MapSetup {
    /// `[workshop] map_url` from the config.
    pub map_url: Option<String>,
    /// `[share] port` from the config.
    pub share_port: u16,
    /// The LAN share.
    pub sharing: Sharing,
    /// The code for [`MapSetup::url`], encoded once when the URL changes, not every frame.
    qr: Option<QrMatrix>,
}

impl MapSetup {
    /// The setup for a config's map URL and share port.
    pub fn new(map_url: Option<String>, share_port: u16) -> Self {
        let mut setup = MapSetup {
            map_url,
            share_port,
            ..MapSetup::default()
        };
        setup.refresh_qr();
        setup
    }

    /// The URL the QR code opens: the LAN share while it runs, else the config's.
    pub fn url(&self) -> Option<&str> {
        match &self.sharing {
            Sharing::On(url) => Some(url),
            _ => self.map_url.as_deref(),
        }
    }

    /// The QR code for [`MapSetup::url`] (`None` without a URL or when it cannot be encoded).
    pub fn qr(&self) -> Option<&QrMatrix> {
        self.qr.as_ref()
    }

    fn refresh_qr(&mut self) {
        self.qr = self.url().and_then(|url| QrMatrix::encode(url).ok());
    }
}

/// Where the map screen puts its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapAreas {
    /// The scrolling text column (flow, checklist, runbook).
    pub text: Area,
    /// The QR panel (code, URL, hints).
    pub panel: Area,
    /// Whether the QR code fits into the panel (else the panel says "enlarge").
    pub qr_fits: bool,
}

/// The glyphs the options ask for.
pub fn glyphs(ascii: bool) -> Glyphs {
    if ascii {
        Glyphs::Ascii
    } else {
        Glyphs::HalfBlock
    }
}

/// Cells the drawn code needs, with the terminal quiet zone.
pub fn qr_size(qr: &QrMatrix, ascii: bool) -> (u16, u16) {
    let (w, h) = text::size(qr, glyphs(ascii), TERMINAL_QUIET_ZONE);
    (
        u16::try_from(w).unwrap_or(u16::MAX),
        u16::try_from(h).unwrap_or(u16::MAX),
    )
}

/// The smallest terminal that shows the code next to a readable text column.
pub fn needed_size(qr: (u16, u16)) -> (u16, u16) {
    let panel = qr.0.max(MIN_PANEL_WIDTH);
    (
        (2 + MIN_TEXT_WIDTH + 2 + panel + 1).max(layout::MIN_WIDTH),
        (qr.1 + LINES_UNDER_QR + 4).max(layout::MIN_HEIGHT),
    )
}

/// Splits the body: text on the left, the QR panel on the right. Title line on top, the status
/// line kept free at the bottom.
pub fn areas(width: u16, height: u16, qr: Option<(u16, u16)>) -> MapAreas {
    let body = layout::body(width, height);
    let top = body.y + 1;
    let rows = body.height.saturating_sub(2);
    let (need_w, need_h) = qr.map_or((0, 0), needed_size);
    let qr_fits = qr.is_some() && width >= need_w && height >= need_h;
    let panel_width = match qr {
        Some((w, _)) if qr_fits => w.max(MIN_PANEL_WIDTH),
        _ => MIN_PANEL_WIDTH,
    }
    .min(width.saturating_sub(MIN_TEXT_WIDTH + 5));
    let panel_x = width.saturating_sub(panel_width + 1);
    MapAreas {
        text: Area {
            x: 2,
            y: top,
            width: panel_x.saturating_sub(4),
            height: rows,
        },
        panel: Area {
            x: panel_x,
            y: top,
            width: panel_width,
            height: rows,
        },
        qr_fits,
    }
}

/// The areas for the session's current size and code.
pub fn current_areas(session: &Session) -> MapAreas {
    let qr = session
        .map
        .qr()
        .map(|qr| qr_size(qr, session.options.ascii));
    areas(session.size.0, session.size.1, qr)
}

/// Opens the map screen.
pub fn open(session: &mut Session) -> Vec<Effect> {
    session.push(Screen::Map(MapState::default()));
    Vec::new()
}

/// Handles a key action on the map screen.
pub fn on_action(map: &mut MapState, session: &mut Session, action: Action) -> Vec<Effect> {
    if action == Action::Share {
        return toggle_share(session);
    }
    let text = current_areas(session).text;
    let total = lines(session, usize::from(text.width)).len();
    let max = u16::try_from(total.saturating_sub(usize::from(text.height))).unwrap_or(u16::MAX);
    let page = text.height.saturating_sub(1).max(1);
    map.scroll = match action {
        Action::Up => map.scroll.saturating_sub(1),
        Action::Down => map.scroll.saturating_add(1),
        Action::PageUp => map.scroll.saturating_sub(page),
        Action::PageDown => map.scroll.saturating_add(page),
        Action::Top => 0,
        Action::Bottom => max,
        _ => map.scroll,
    }
    .min(max);
    Vec::new()
}

/// The mouse wheel scrolls the text.
pub fn on_mouse(map: &mut MapState, session: &mut Session, mouse: Mouse) -> Vec<Effect> {
    match mouse.kind {
        MouseKind::ScrollUp => on_action(map, session, Action::Up),
        MouseKind::ScrollDown => on_action(map, session, Action::Down),
        MouseKind::Click => Vec::new(),
    }
}

/// Starts sharing when off, stops it when on.
fn toggle_share(session: &mut Session) -> Vec<Effect> {
    match session.map.sharing {
        Sharing::Off => {
            session.map.sharing = Sharing::Starting;
            vec![Effect::Share(ShareRequest::Start {
                port: session.map.share_port,
                lang: session.lang,
            })]
        }
        // A second press while starting waits for the answer instead of racing it.
        Sharing::Starting => Vec::new(),
        Sharing::On(_) => {
            session.map.sharing = Sharing::Off;
            session.map.refresh_qr();
            let text = session.strings().get(key::map::SHARE_STOPPED).to_owned();
            session.notify(text, false);
            vec![Effect::Share(ShareRequest::Stop)]
        }
    }
}

/// The runtime's answer to [`ShareRequest::Start`]: the URL phones open, or why not.
pub fn on_share_started(
    session: &mut Session,
    result: Result<String, ShareFailure>,
) -> Vec<Effect> {
    match result {
        Ok(url) => {
            session.map.sharing = Sharing::On(url);
            session.status = None;
        }
        Err(failure) => {
            session.map.sharing = Sharing::Off;
            let reason = match failure {
                ShareFailure::NoLan => session.strings().get(key::share::NO_LAN).to_owned(),
                ShareFailure::Bind(reason) => reason,
            };
            let text = session
                .strings()
                .fill(key::map::SHARE_FAILED, &[("reason", &reason)]);
            session.notify(text, true);
        }
    }
    session.map.refresh_qr();
    Vec::new()
}

#[cfg(test)]
mod tests;

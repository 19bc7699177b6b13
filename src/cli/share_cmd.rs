//! `queuelab share`: serves the phone map on the LAN until Ctrl+C, printing its URL and QR code.

use super::{Cli, Failure};
use crate::platform::signals::StopSignals;
use content::Strings;
use content::key;
use domain::qr::QrMatrix;
use domain::qr::text::{self, Glyphs, TERMINAL_QUIET_ZONE};
use services::export;
use services::share::{self, ShareServer};
use std::io::IsTerminal;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// White on black: light modules filled white, dark modules black, whatever the theme.
const QR_COLOURS: &str = "\x1b[97;40m";
const RESET: &str = "\x1b[0m";

/// Serves the map on `bind`:`port` (port: flag, else config) until Ctrl+C or SIGTERM.
pub fn run(cli: &Cli, bind: IpAddr, port: Option<u16>) -> Result<(), Failure> {
    let paths = super::paths(cli)?;
    let config = super::config(&paths)?;
    let content = super::load_content(cli)?;
    let lang = super::pick_lang(cli.globals.lang, None, config.workshop.language);
    let course = content.course(lang);
    let s = &course.strings;
    let port = port.unwrap_or(config.share.port);
    // The page names the address phones reach it at; the port is known before binding unless 0.
    let public_ip = if bind.is_unspecified() {
        share::lan_ip()
    } else {
        Some(bind).filter(|ip| !ip.is_loopback())
    };
    let stop = StopSignal::register()?;
    let server = start(bind, port, public_ip, course, lang)?;
    let port = server.local_addr().port();
    match public_ip {
        Some(ip) => {
            let url = share::url_for(ip, port);
            say(format!("{}\n\n  {url}\n", s.get(key::share::SERVING)));
            print_qr(&url, cli.globals.ascii, s);
        }
        None => say(s.get(key::share::NO_LAN)),
    }
    let local = if bind.is_unspecified() || bind.is_loopback() {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        bind
    };
    say(s.fill(key::share::LOCAL, &[("url", &share::url_for(local, port))]));
    let listening = server.local_addr().to_string();
    say(s.fill(key::share::LISTENING, &[("addr", &listening)]));
    say(s.get(key::share::STOP));
    stop.wait();
    server.stop();
    say(s.get(key::share::STOPPED));
    Ok(())
}

fn start(
    bind: IpAddr,
    port: u16,
    public_ip: Option<IpAddr>,
    course: &content::Course,
    lang: content::Lang,
) -> Result<ShareServer, Failure> {
    // With port 0 the real port is only known after binding; the footer then omits the URL.
    let page_url = public_ip
        .filter(|_| port != 0)
        .map(|ip| share::url_for(ip, port));
    let page = export::map_html(course, lang, page_url.as_deref());
    ShareServer::start(SocketAddr::new(bind, port), page).map_err(|e| Failure::new(e.to_string()))
}

/// Prints the QR code, or the "enlarge" hint when the terminal is too narrow for it.
pub(super) fn print_qr(url: &str, ascii: bool, s: &Strings) {
    let Ok(matrix) = QrMatrix::encode(url) else {
        return;
    };
    let glyphs = if ascii {
        Glyphs::Ascii
    } else {
        Glyphs::HalfBlock
    };
    let tty = std::io::stdout().is_terminal();
    let columns = crossterm::terminal::size()
        .ok()
        .filter(|_| tty)
        .map_or(usize::MAX, |(w, _)| usize::from(w));
    let (w, h) = text::size(&matrix, glyphs, TERMINAL_QUIET_ZONE);
    let Some(lines) =
        text::render_fitting(&matrix, glyphs, TERMINAL_QUIET_ZONE, columns, usize::MAX)
    else {
        let (w, h) = (w.to_string(), h.to_string());
        let _ = super::out::line(format!(
            "{}\n",
            s.fill(key::map::ENLARGE, &[("w", &w), ("h", &h)])
        ));
        return;
    };
    let colour = tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    // Best effort: the caller's next line meets a closed pipe and ends the command.
    let mut out = std::io::stdout().lock();
    for line in lines {
        let written = if colour {
            super::out::to(&mut out, format!("{QR_COLOURS}{line}{RESET}"))
        } else {
            super::out::to(&mut out, line)
        };
        if written.is_err() {
            return;
        }
    }
    let _ = super::out::to(&mut out, "");
}

/// Prints a line of the server's talk. A reader that stopped reading (`queuelab share | head
/// -2`) must not stop the server: phones may be using it, so a closed stdout is ignored, and
/// `writeln!` underneath never panics the way `println!` does.
fn say(text: impl std::fmt::Display) {
    let _ = super::out::line(text);
}

/// Ctrl+C (SIGINT) and SIGTERM handlers, registered before the "press Ctrl+C" hint is printed so
/// an early Ctrl+C still ends the command cleanly instead of killing it.
pub(super) struct StopSignal {
    runtime: tokio::runtime::Runtime,
    signals: StopSignals,
}

impl StopSignal {
    pub(super) fn register() -> Result<StopSignal, Failure> {
        let fail = |e: std::io::Error| Failure::new(format!("cannot wait for Ctrl+C: {e}"));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .map_err(fail)?;
        let signals = {
            let _context = runtime.enter();
            StopSignals::listen().map_err(fail)?
        };
        Ok(StopSignal { runtime, signals })
    }

    /// Blocks until one of the signals arrives.
    pub(super) fn wait(self) {
        let StopSignal {
            runtime,
            mut signals,
        } = self;
        runtime.block_on(signals.next());
    }
}

//! The LAN map server behind the map screen's `s` key. The server answers requests on its own
//! thread and runtime; the UI loop only binds the socket (no network traffic) and keeps the
//! handle, and stopping never waits for a client, so no client can slow the learner's screen.

use app::{Msg, ShareFailure};
use content::{Content, Lang};
use services::share::{self, ShareServer};
use services::{export, log};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The running server, if any; dropping the slot stops it.
#[derive(Default)]
pub struct ShareSlot {
    server: Option<ShareServer>,
}

impl ShareSlot {
    /// Serves the map in `lang` on all interfaces; answers with the URL phones open.
    pub fn start(&mut self, content: &Content, lang: Lang, port: u16) -> Msg {
        self.stop();
        let Some(ip) = share::lan_ip() else {
            return Msg::ShareStarted(Err(ShareFailure::NoLan));
        };
        let url = share::url_for(ip, port);
        let page = export::map_html(content.course(lang), lang, Some(&url));
        let bind = SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port);
        match ShareServer::start(bind, page) {
            Ok(server) => {
                let url = share::url_for(ip, server.local_addr().port());
                log::info(&format!("sharing the map at {url}"));
                self.server = Some(server);
                Msg::ShareStarted(Ok(url))
            }
            Err(e) => {
                log::warn(&format!("sharing the map failed: {e}"));
                // The status line has one row: address and OS reason, without the CLI's advice.
                let share::ShareError::Bind { addr, reason } = e;
                Msg::ShareStarted(Err(ShareFailure::Bind(format!("{addr}: {reason}"))))
            }
        }
    }

    /// Stops the server: the port closes at once; open connections end on the server's own
    /// thread within its grace period, without the UI loop waiting for them.
    pub fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            drop(server);
            log::info("stopped sharing the map");
        }
    }
}

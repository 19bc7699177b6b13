//! Serving a workshop session until Ctrl+C or SIGTERM: the certificate from the data folder
//! (made on first start), the session database, the mail relay with the host's mail config.

use super::host_cmd::HostArgs;
use super::join_cmd::say;
use super::share_cmd::{StopSignal, print_qr};
use super::{Cli, Failure};
use crate::app::dashboard::{Access, Dashboard};
use crate::domain::workshop::JoinUrl;
use crate::services::host::mail_relay::MailRelay;
use crate::services::host::{HostState, server};
use crate::services::share::lan_ip;
use crate::services::tls::Identity;
use std::io::{IsTerminal, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// Starts the host and serves until stopped.
pub fn run(cli: &Cli, args: &HostArgs) -> Result<(), Failure> {
    let paths = super::paths(cli)?;
    let config = super::config(&paths)?;
    paths.ensure_data_dir().map_err(Failure::new)?;
    let _ = crate::services::log::init(&paths.log_file());
    let content = super::load_content(cli)?;
    let identity = Identity::load_or_create(&paths.data_dir.join("host-identity.der"))
        .map_err(Failure::new)?;
    let tls = identity.server_config().map_err(Failure::new)?;
    let relay = MailRelay::open(&paths.data_dir, &config, &content).map_err(Failure::new)?;
    let name = args.name.as_deref().or(config.workshop.name.as_deref());
    let state = HostState::open(&paths.data_dir, name, &content)
        .map_err(Failure::new)?
        .with_relay(relay);
    let state = Arc::new(state);
    let bind = args.bind.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    let stop = StopSignal::register()?;
    let server = server::start(SocketAddr::new(bind, args.port), Arc::clone(&state), tls)
        .map_err(|e| Failure::new(format!("{e}; pick another port with --port")))?;
    // Trainees on the LAN need a routable address; a loopback or specific bind names itself.
    let public = if bind.is_unspecified() {
        lan_ip().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
    } else {
        bind
    };
    let url = JoinUrl {
        host: public.to_string(),
        port: server.local_addr().port(),
        code: state.code.clone(),
        fingerprint: identity.fingerprint(),
    };
    let projector = format!("https://{}/dashboard?key={}", url.authority(), state.key);
    let tty = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if !args.headless && tty {
        let lang = super::pick_lang(cli.globals.lang, None, config.workshop.language);
        let access = Access {
            join_url: url.to_string(),
            projector_url: projector,
            key: state.key.clone(),
        };
        let mut dash = Dashboard::new(Arc::new(content), lang, access, cli.globals.ascii);
        dash.no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        // The dashboard owns Ctrl+C and SIGTERM while it runs.
        drop(stop);
        let shown = crate::runtime::dashboard_loop::run(dash, &state);
        server.stop();
        shown.map_err(Failure::new)?;
        say!("session stopped; a restart with the same --data-dir continues it");
        say!("join: {url}");
        say!("instructor key: {}", state.key);
        return Ok(());
    }
    if !args.headless {
        say!("{}", state.name);
        print_qr(
            &url.to_string(),
            cli.globals.ascii,
            &content.course(crate::content::Lang::En).strings,
        );
    }
    say!("join: {url}");
    say!("instructor key: {}", state.key);
    if !args.headless {
        say!("projector: {projector}");
        say!(
            "status: queuelab host status --url '{url}' --key {}",
            state.key
        );
        say!("Ctrl+C stops the session; a restart with the same --data-dir continues it.");
    }
    // Tests and scripts read these lines while the host runs.
    let _ = std::io::stdout().flush();
    stop.wait();
    server.stop();
    if !args.headless {
        say!("session stopped");
    }
    Ok(())
}

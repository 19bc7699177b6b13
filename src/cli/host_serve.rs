//! Serving a workshop session until Ctrl+C or SIGTERM: the certificate from the data folder
//! (made on first start), the session database, the mail relay with the host's mail config.

use super::join_cmd::say;
use super::share_cmd::{StopSignal, print_qr};
use super::{Cli, Failure};
use app::dashboard::{Access, Dashboard};
use content::key;
use domain::workshop::{JoinUrl, check_digits};
use services::discovery;
use services::host::mail_relay::{self, MailRelay};
use services::host::{HostState, JoinPages, files, projector, server};
use services::share::lan_ip;
use services::tls::Identity;
use std::io::{IsTerminal, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// Default port of a workshop host.
pub const DEFAULT_PORT: u16 = 8740;

// How `queuelab host` serves (the options without a subcommand). No doc comment here: clap
// would take it for the help of `queuelab host`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (default: all interfaces; the join URL shows the LAN address).
    #[arg(long)]
    pub bind: Option<IpAddr>,
    /// Port to listen on.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The session's name, shown to trainees.
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,
    /// Run without a terminal dashboard: print `join: URL`, `join short: HOST:PORT CODE`,
    /// `check digits: DIGITS`, `discovery: NAME` and `instructor key: KEY`, serve until Ctrl+C
    /// or SIGTERM.
    #[arg(long)]
    pub headless: bool,
    /// When trainees see whether a decision answer is right: `held` (the default) only after
    /// the instructor reveals the decision, so the room votes before anyone knows (peer
    /// instruction); `immediate` at once. The session keeps the setting across restarts;
    /// without the flag a restart keeps what was set before.
    #[arg(long, value_enum, value_name = "WHEN")]
    pub feedback: Option<Feedback>,
    /// Do not advertise the session on the LAN. By default the host advertises itself by
    /// DNS-SD (multicast DNS), so trainees join with the code alone: `queuelab join CODE`.
    #[arg(long)]
    pub no_discovery: bool,
}

/// When trainees see right/wrong for a decision (`--feedback`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Feedback {
    /// After the instructor reveals the decision.
    Held,
    /// At once.
    Immediate,
}

/// Starts the host and serves until stopped.
pub fn run(cli: &Cli, args: &ServeArgs) -> Result<(), Failure> {
    let paths = super::paths(cli)?;
    let config = super::config(&paths)?;
    let shared = paths.ensure_data_dir().map_err(Failure::new)?;
    let _ = services::log::init(&paths.log_file());
    // The dashboard covers the terminal: its warnings are shown inside it, in its language.
    let dashboard =
        !args.headless && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let mut warnings = shared_folder_warning(&paths, shared.is_some(), dashboard);
    // Held until the session stops: a second host on this folder would serve the same code
    // and key with a second copy of the state.
    let _folder = files::lock_folder(&paths.data_dir).map_err(|e| Failure::new(e.to_string()))?;
    let content = super::load_content(cli)?;
    let identity = Identity::load_or_create(&paths.data_dir.join("host-identity.der"))
        .map_err(Failure::new)?;
    let tls = identity.server_config().map_err(Failure::new)?;
    let opened = open_state(
        cli,
        args,
        &paths,
        &config,
        &content,
        dashboard,
        &mut warnings,
    )?;
    let (state, lang) = (Arc::new(opened.0), opened.1);
    let bind = args.bind.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    let stop = StopSignal::register()?;
    let server = server::start(SocketAddr::new(bind, args.port), Arc::clone(&state), tls)
        .map_err(|e| Failure::new(format!("{e}; pick another port with --port")))?;
    let url = join_url(bind, server.local_addr().port(), &state, &identity);
    // Derived once: each derivation costs about 0.1 s by design (see `check_digits`).
    let digits =
        check_digits(&url.fingerprint, &url.code).map_err(|e| Failure::new(e.to_string()))?;
    // Held until the session stops; dropping it says goodbye on the network.
    let advertised = advertise(args, &state.name, bind, &url);
    let reach = Reach {
        url,
        digits,
        discovery: advertised.as_ref().map(|a| a.name.clone()),
    };
    publish_join_pages(&state, &content, lang, &reach);
    let projector = format!(
        "https://{}{}",
        reach.url.authority(),
        services::host::login::PROJECTOR_PATH
    );
    if dashboard {
        let access = Access {
            join_url: reach.url.to_string(),
            projector_url: projector,
            key: state.key.clone(),
            discovery: reach.discovery.clone(),
            check_digits: reach.digits.clone(),
        };
        // The dashboard owns Ctrl+C and SIGTERM while it runs.
        drop(stop);
        let shown = show_dashboard(cli, &paths, content, lang, access, &warnings, &state);
        server.stop();
        shown?;
        // No instructor key here: the terminal may still be on the projector. A restart shows
        // it again with `v`.
        say!("session stopped; a restart with the same --data-dir continues it");
        say!("join: {}", reach.url);
        return Ok(());
    }
    print_access(cli, args, &content, &state, &reach, &projector);
    // Tests and scripts read these lines while the host runs.
    let _ = std::io::stdout().flush();
    stop.wait();
    server.stop();
    if !args.headless {
        say!("session stopped");
    }
    Ok(())
}

/// Decides whether the data folder is shared with other users of this computer: then the
/// instructor is warned (on stderr at once when there is no dashboard to show it in).
fn shared_folder_warning(
    paths: &services::Paths,
    shared: bool,
    dashboard: bool,
) -> Vec<StartWarning> {
    let mut warnings = Vec::new();
    if shared {
        warnings.push(StartWarning::SharedFolder);
        if !dashboard {
            warn(&format!(
                "other users of this computer can read {}; {} there hold the join code, the instructor key and the trainees' addresses. Use a private folder (chmod 700) or another --data-dir.",
                paths.data_dir.display(),
                files::HOST_FILES
            ));
        }
    }
    warnings
}

/// The URL trainees join with: on the LAN a routable address (a loopback or specific bind
/// names itself), the served port, the session's code and the certificate's fingerprint.
fn join_url(bind: IpAddr, port: u16, state: &HostState, identity: &Identity) -> JoinUrl {
    let public = if bind.is_unspecified() {
        lan_ip().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
    } else {
        bind
    };
    JoinUrl {
        host: public.to_string(),
        port,
        code: state.code.clone(),
        fingerprint: identity.fingerprint(),
    }
}

/// How trainees reach the running session: the join URL, its check digits and the name it is
/// advertised under (none without discovery).
struct Reach {
    url: JoinUrl,
    digits: String,
    discovery: Option<String>,
}

/// Decides the session's state before serving: its language (`--lang`, else the language it
/// was served in before, else the config's), its feedback setting and whether reports go out
/// through the mail relay (without the config's mail settings: a warning instead).
fn open_state(
    cli: &Cli,
    args: &ServeArgs,
    paths: &services::Paths,
    config: &services::Config,
    content: &content::Content,
    dashboard: bool,
    warnings: &mut Vec<StartWarning>,
) -> Result<(HostState, content::Lang), Failure> {
    let name = args.name.as_deref().or(config.workshop.name.as_deref());
    let state = HostState::open(&paths.data_dir, name, content).map_err(Failure::new)?;
    let lang = super::pick_lang(
        cli.globals.lang,
        state.stored_lang(),
        config.workshop.language,
    );
    let mut state = state
        .set_session_lang(lang)
        .map_err(|e| Failure::new(e.to_string()))?;
    if let Some(feedback) = args.feedback {
        state = state
            .set_hold_feedback(feedback == Feedback::Held)
            .map_err(|e| Failure::new(e.to_string()))?;
    }
    if let Some(reason) = mail_relay::missing_settings(config) {
        warnings.push(StartWarning::NoRelay);
        if !dashboard {
            warn(&format!("{reason}; they are told so when they try"));
        }
    } else {
        let relay = MailRelay::open(&paths.data_dir, config, content).map_err(Failure::new)?;
        state = state.with_relay(relay);
    }
    Ok((state, lang))
}

/// Hands the projector and the room pages the join lines: the full room page and the one shown
/// before the instructor reveals a decision.
fn publish_join_pages(
    state: &HostState,
    content: &content::Content,
    lang: content::Lang,
    reach: &Reach,
) {
    state.set_projector_join(projector::JoinLines {
        url: reach.url.clone(),
        discovery: reach.discovery.clone(),
        digits: reach.digits.clone(),
    });
    let join_line = format!("queuelab join {} --name NAME", reach.url.short_line());
    let course = content.course(lang);
    let digits = &reach.digits;
    state.set_join_pages(JoinPages {
        full: services::export::room_html(course, lang, &join_line, digits),
        before_reveal: services::export::room_html_before_reveal(course, lang, &join_line, digits),
    });
}

/// Runs the terminal dashboard with the start warnings in its language (also logged) until the
/// instructor leaves it.
fn show_dashboard(
    cli: &Cli,
    paths: &services::Paths,
    content: content::Content,
    lang: content::Lang,
    access: Access,
    warnings: &[StartWarning],
    state: &HostState,
) -> Result<(), Failure> {
    let mut dash = Dashboard::new(Arc::new(content), lang, access, cli.globals.ascii);
    dash.no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    dash.warnings = warnings
        .iter()
        .map(|w| w.text(dash.strings(), &paths.data_dir))
        .collect();
    for warning in &dash.warnings {
        services::log::warn(warning);
    }
    crate::runtime::dashboard_loop::run(dash, state).map_err(Failure::new)
}

/// Prints how to reach the session without a dashboard: the lines scripts read (join, check
/// digits, discovery, feedback, instructor key) and, unless headless, the name, a QR code, the
/// projector and status lines.
fn print_access(
    cli: &Cli,
    args: &ServeArgs,
    content: &content::Content,
    state: &HostState,
    reach: &Reach,
    projector: &str,
) {
    let url = &reach.url;
    if !args.headless {
        say!("{}", state.name);
        print_qr(
            &url.to_string(),
            cli.globals.ascii,
            &content.course(content::Lang::En).strings,
        );
    }
    say!("join: {url}");
    say!("join short: {}", url.short_line());
    say!("check digits: {}", reach.digits);
    say!(
        "discovery: {}",
        reach
            .discovery
            .as_deref()
            .unwrap_or("off (trainees type HOST:PORT CODE)")
    );
    say!(
        "feedback: {}",
        if state.hold_feedback() {
            "held until the reveal"
        } else {
            "immediate"
        }
    );
    say!("instructor key: {}", state.key);
    if !args.headless {
        say!("projector: {projector}");
        say!(
            "status: {}={} queuelab host status --url '{url}'",
            super::host_key::KEY_ENV,
            state.key
        );
        say!("Ctrl+C stops the session; a restart with the same --data-dir continues it.");
    }
}

/// Advertises the session on the LAN unless `--no-discovery`; a network that refuses it is a
/// warning, not a failure (trainees then type `HOST:PORT CODE`).
fn advertise(
    args: &ServeArgs,
    name: &str,
    bind: IpAddr,
    url: &JoinUrl,
) -> Option<discovery::Advertisement> {
    if args.no_discovery {
        return None;
    }
    // Unique per host, stable across restarts: the certificate's fingerprint names it.
    let label = format!("queuelab-{}", url.fingerprint.get(..12).unwrap_or("host"));
    match discovery::Advertisement::start(name, bind, url.port, &label) {
        Ok(advertised) => Some(advertised),
        Err(e) => {
            warn(&format!(
                "{e}; the session is not advertised, trainees type HOST:PORT CODE"
            ));
            None
        }
    }
}

/// What the host found wrong at its start that the instructor should act on.
enum StartWarning {
    /// Other users of this computer can read the data folder.
    SharedFolder,
    /// The config has no mail settings, so reports cannot be mailed through the host.
    NoRelay,
}

impl StartWarning {
    /// The warning in the language of `strings`, for the dashboard.
    fn text(&self, strings: &content::Strings, data_dir: &std::path::Path) -> String {
        match self {
            StartWarning::SharedFolder => strings.fill(
                key::host::WARN_SHARED_FOLDER,
                &[
                    ("path", &data_dir.display().to_string()),
                    ("files", files::HOST_FILES),
                ],
            ),
            StartWarning::NoRelay => strings.get(key::host::WARN_NO_RELAY).to_owned(),
        }
    }
}

/// A warning on stderr (the headless host's stdout is read by scripts) and in the log.
fn warn(message: &str) {
    services::log::warn(message);
    eprintln!("queuelab host: warning: {message}");
}

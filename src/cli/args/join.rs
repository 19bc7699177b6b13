//! The arguments of `queuelab join`.

use clap::Args;

// `queuelab join [CODE | HOST:PORT CODE | URL] --name NAME`. No doc comment here: clap would take it
// for the command's help and hide the one on `Command::Join`.
#[derive(Debug, Args)]
pub struct JoinArgs {
    /// The join code from the projector (the session is looked for on the LAN), or `HOST:PORT`
    /// from the projector followed by the code, or the whole join URL
    /// (https://HOST:PORT/join?code=...&fp=...).
    #[arg(value_name = "CODE|HOST:PORT|URL")]
    pub url: Option<String>,
    /// The join code from the projector (after `HOST:PORT`).
    pub code: Option<String>,
    /// The name the instructor sees.
    #[arg(long)]
    pub name: Option<String>,
    /// For scripts: the check digits the projector shows; the join goes ahead only when
    /// the host's certificate gives the same digits (no question asked).
    #[arg(long, value_name = "DIGITS")]
    pub check_digits: Option<String>,
}

impl JoinArgs {
    /// What to join as one text: `HOST:PORT CODE` from two arguments, else the URL as typed.
    pub fn target(&self) -> Option<String> {
        match (&self.url, &self.code) {
            (Some(address), Some(code)) => Some(format!("{address} {code}")),
            (url, _) => url.clone(),
        }
    }
}

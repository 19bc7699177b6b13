//! Side effects that know nothing of the UI: files and paths, the workshop config, the progress
//! store, the log, the map exports, the LAN share and the workshop's discovery.

pub mod config;
pub mod discovery;
pub mod export;
pub mod host;
pub mod host_client;
pub mod http;
pub mod log;
pub mod mail;
pub mod paths;
mod platform;
pub mod share;
pub mod store;
pub mod tls;
pub mod trainee;

pub use config::{Config, ConfigError};
pub use host_client::{HostClient, HostError};
pub use paths::Paths;
pub use store::{Store, StoreError};

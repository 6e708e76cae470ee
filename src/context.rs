//! What the use cases are given: the pool, the wake-ups, and the settings
//! that shape what they do. Nothing about any game lives here, and nothing
//! of HTTP: the HTTP layer's own settings are in `routes::app_state::AppState`, which
//! holds a context.

use std::sync::Arc;

use crate::auth::JwtKeys;
use crate::auth::limits::LoginLimits;
use crate::db::Pool;
use crate::metrics::Metrics;
use crate::retention::Retention;
use crate::wake::{Announcer, GameWatch};

/// The shared context of every use case.
#[derive(Clone)]
pub struct Context {
    pub pool: Pool,
    /// Tells waiters in every process about committed changes.
    pub announcer: Announcer,
    /// The latest version of each game someone waits on (long polls, streams).
    pub watch: Arc<GameWatch>,
    /// The latest notification id of each user someone streams (`/v1/me/stream`).
    pub users: Arc<GameWatch>,
    /// How long idempotency keys, notifications and deliveries are kept.
    pub retention: Retention,
    /// Signs and checks access tokens.
    pub jwt: JwtKeys,
    /// How long a refresh token lives without use.
    pub refresh_ttl: chrono::TimeDelta,
    /// Failed logins per account and per client address in a window.
    pub login_limits: LoginLimits,
    /// Addresses over their failed-login limit, answered in this process.
    pub login_refusals: Arc<crate::auth::refused::RefusedAddresses>,
    /// Addresses over their registration limit, answered in this process.
    pub registration_refusals: Arc<crate::auth::refused::RefusedAddresses>,
    /// What a user or a client address may cost (`docs/limits.md`).
    pub cost_limits: crate::auth::limits::CostLimits,
    /// The password threads' bounded queue.
    pub passwords: Arc<crate::auth::password::PasswordQueue>,
    /// Whether webhooks may point to non-public addresses.
    pub webhook_allow_private: bool,
    /// The server's VAPID public key (docs/push.md).
    pub push_key: Arc<str>,
    /// Whether push endpoints may be `http://`.
    pub push_allow_http: bool,
    /// The native push channels the server is configured for.
    pub push_native: crate::config::NativeChannels,
    /// The key of mail reply tokens and unsubscribe links.
    pub mail_secret: std::sync::Arc<Vec<u8>>,
    /// What this process counts for `/metrics`.
    pub metrics: Arc<Metrics>,
    /// Signs audits and the transparency log's tree heads (records: #48).
    pub signer: Arc<crate::transparency::keys::CurrentSigner>,
}

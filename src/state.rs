//! What every handler shares: the pool, the token keys, the long-poll
//! watchers and the settings. Nothing about any game lives here.

use std::sync::Arc;

use crate::auth::JwtKeys;
use crate::auth::limits::TokenLimits;
use crate::db::Pool;
use crate::notify::{Announcer, GameWatch};

/// Shared application state.
#[derive(Clone)]
pub struct AppState {
    pub pool: Pool,
    pub jwt: JwtKeys,
    /// How long a refresh token lives without use.
    pub refresh_ttl: chrono::TimeDelta,
    /// Request rates per access token.
    pub token_limits: Arc<TokenLimits>,
    /// Failed logins per account and per client address in a window.
    pub login_limits: crate::auth::users::LoginLimits,
    /// How long idempotency keys, notifications and deliveries are kept.
    pub retention: crate::retention::Retention,
    /// How long a request body may take to arrive.
    pub body_timeout: std::time::Duration,
    pub watch: Arc<GameWatch>,
    pub announcer: Announcer,
    /// The latest notification id of each user someone streams (`/v1/me/stream`).
    pub users: Arc<GameWatch>,
    /// Whether webhooks may point to non-public addresses.
    pub webhook_allow_private: bool,
}

//! What every HTTP handler shares: the use cases' [`Context`] and the
//! settings of the HTTP layer itself. It dereferences to the context, so a
//! handler passes `&state` to a use case.

use std::sync::Arc;

use crate::auth::limits::TokenLimits;
use crate::context::Context;

/// Shared application state.
#[derive(Clone)]
pub struct AppState {
    /// The use cases' context; its pool is the background workers' until
    /// `startup::serve` gives each HTTP worker thread its own.
    pub context: Context,
    /// Every database pool of the process, and how to open another.
    pub pools: Arc<crate::db::pools::Pools>,
    /// Request rates per access token.
    pub token_limits: Arc<TokenLimits>,
    /// How long a request body may take to arrive.
    pub body_timeout: std::time::Duration,
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Arc<[std::net::IpAddr]>,
    /// The key of the per-viewer entity tags.
    pub view_tags: Arc<crate::routes::tags::ViewTags>,
    /// Streams and long polls open per client address and per user.
    pub streams: Arc<crate::auth::limits::OpenStreams>,
}

impl std::ops::Deref for AppState {
    type Target = Context;

    fn deref(&self) -> &Context {
        &self.context
    }
}

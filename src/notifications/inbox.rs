//! The inbox: a user's notifications, read in pages by id (`after`) and
//! streamed by `/v1/me/stream`. Old ones are pruned (see `retention`); a
//! cursor into what may have been pruned is refused, so a client never
//! silently misses one.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::webhooks::WebhookPayload;
use crate::context::Context;
use crate::db::notifications;
use crate::error::Failure;

/// The most notifications one read returns.
pub const MAX_NOTIFICATIONS: i64 = 100;

/// A page of notifications.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct NotificationPage {
    /// Oldest first, each as webhooks receive it.
    pub notifications: Vec<WebhookPayload>,
}

/// The notifications of `user` with ids after `after`, oldest first, at most `limit`.
///
/// # Errors
/// `bad_request` for out-of-range parameters; `cursor_expired` when
/// notifications after `after` may have been pruned (refetch from 0).
pub async fn notifications(
    state: &Context,
    user: Uuid,
    after: i64,
    limit: i64,
) -> Result<Vec<WebhookPayload>, Failure> {
    if after < 0 {
        return Err(Failure::bad_request("after must be 0 or more"));
    }
    if !(1..=MAX_NOTIFICATIONS).contains(&limit) {
        return Err(Failure::bad_request(format!(
            "limit must be 1–{MAX_NOTIFICATIONS}"
        )));
    }
    let mut conn = state.pool.get().await?;
    if after > 0 && after < crate::db::retention::notifications_pruned_upto(&mut conn).await? {
        return Err(Failure::cursor_expired(
            "notifications after this id may have been pruned (they are kept 30 days by default); fetch again from after=0",
        ));
    }
    let rows = notifications::list(&mut conn, user, after, limit).await?;
    Ok(rows.iter().map(WebhookPayload::from).collect())
}

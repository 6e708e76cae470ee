//! Webhooks: a user registers URLs, and every notification of theirs
//! (`your_turn`, `game_finished`, `invited`) is POSTed to each, at least once.
//!
//! The outbox: every statement that writes notifications also inserts one
//! `webhook_deliveries` row per webhook of the user (see
//! `db::notifications`), so deliveries commit with the events that cause
//! them. Each process runs a delivery worker that claims due rows
//! (`FOR UPDATE SKIP LOCKED`, leasing them by pushing `next_attempt_at`),
//! posts them, and records the outcome: `delivered` on a 2xx answer,
//! otherwise a retry after `retry · 2^(attempts-1)` (at most one hour), and
//! `failed` after the last attempt. It is woken when a committed statement
//! queued deliveries (by its own process at once, by others through the
//! `hatstand_users` channel) and also looks every tick.
//!
//! The request: `POST <url>` with `Content-Type: application/json`,
//! `Hatstand-Delivery: <delivery id>` (the same for every retry of it), and
//! `Hatstand-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`;
//! the body is `{"id", "type", "game_id", "user_id", "created_at", "data"}`
//! where `id` is the notification's id (for de-duplication).

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;
use utoipa::ToSchema;

pub use crate::db::webhooks::Webhook;
use uuid::Uuid;

use super::channel::Channel;
use crate::auth::Caller;
use crate::config::Background;
use crate::context::Context;
use crate::db::errors::unknown_user_is_unauthenticated;
use crate::db::notifications::NoteRow;
use crate::db::{Pool, webhooks};
use crate::error::{ErrorCode, Failure};

pub mod target;

/// The most webhooks one user may register.
pub const MAX_WEBHOOKS: i64 = 10;

/// A request to register a webhook.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewWebhook {
    /// An `http://` or `https://` URL that accepts POSTed JSON (at most
    /// 2,048 characters). Unless the server allows it, it may not point to
    /// a loopback, private or link-local address; `https://` receivers must
    /// present a certificate the server trusts.
    #[schema(
        example = "https://example.com/hatstand",
        format = "uri",
        pattern = "^https?://[^/?#@:\\[\\]]",
        max_length = 2048
    )]
    pub url: String,
}

/// A webhook just registered, with its signing secret (shown only now).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CreatedWebhook {
    pub id: Uuid,
    pub url: String,
    /// The HMAC-SHA256 key of `Hatstand-Signature`; shown once.
    #[schema(example = "whsec_9f86d081884c7d659a2feaa0c55ad015")]
    pub secret: String,
    pub created_at: DateTime<Utc>,
}

/// The JSON body of a webhook request.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookPayload {
    /// The notification's id: the same for every retry; use it to de-duplicate.
    pub id: i64,
    /// `your_turn`, `game_finished` or `invited`.
    #[serde(rename = "type")]
    #[schema(example = "your_turn", value_type = super::NotificationKind)]
    pub kind: String,
    pub game_id: Option<Uuid>,
    pub user_id: Uuid,
    pub created_at: DateTime<Utc>,
    /// The notification's details (`game_id`, `ruleset`, `seat`, `version`, `deadline`, ...).
    #[schema(value_type = Object)]
    pub data: Value,
}

impl From<&NoteRow> for WebhookPayload {
    fn from(row: &NoteRow) -> Self {
        WebhookPayload {
            id: row.id,
            kind: row.kind.clone(),
            game_id: row.game_id,
            user_id: row.user_id,
            created_at: row.created_at,
            data: row.payload.clone(),
        }
    }
}

/// Registers a webhook for the caller.
///
/// # Errors
/// `bad_request` (url), `too_many_webhooks`.
pub async fn create(
    state: &Context,
    caller: &Caller,
    request: NewWebhook,
) -> Result<CreatedWebhook, Failure> {
    target::check_url(&request.url, state.webhook_allow_private)?;
    let mut bytes = [0u8; 24];
    rand::fill(&mut bytes);
    let secret = format!("whsec_{}", hex::encode(bytes));
    let id = Uuid::new_v4();
    let now = crate::record::chain::now();
    let mut conn = state.pool.get().await?;
    let row = webhooks::NewRow {
        id,
        user: caller.user_id,
        url: &request.url,
        secret: &secret,
        at: now,
    };
    let inserted = webhooks::insert_capped(&mut conn, row, MAX_WEBHOOKS)
        .await
        .map_err(unknown_user_is_unauthenticated)?;
    if !inserted {
        return Err(Failure::new(
            ErrorCode::TooManyWebhooks,
            format!("at most {MAX_WEBHOOKS} webhooks per user"),
        ));
    }
    Ok(CreatedWebhook {
        id,
        url: request.url,
        secret,
        created_at: now,
    })
}

/// The caller's webhooks with their delivery state.
///
/// # Errors
/// Database errors.
pub async fn list(state: &Context, caller: &Caller) -> Result<Vec<Webhook>, Failure> {
    let mut conn = state.pool.get().await?;
    Ok(webhooks::list(&mut conn, caller.user_id).await?)
}

/// Deletes one of the caller's webhooks (and its pending deliveries).
///
/// # Errors
/// `not_found`.
pub async fn delete(state: &Context, caller: &Caller, id: Uuid) -> Result<(), Failure> {
    let mut conn = state.pool.get().await?;
    if !webhooks::delete(&mut conn, id, caller.user_id).await? {
        return Err(Failure::not_found("you have no such webhook"));
    }
    Ok(())
}

/// `Hatstand-Signature` of `body` sent at unix time `t`.
#[must_use]
pub fn signature(secret: &str, t: i64, body: &[u8]) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of any length"));
    mac.update(format!("{t}.").as_bytes());
    mac.update(body);
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

/// The delay before retrying after `attempts` failed attempts.
#[must_use]
pub fn backoff(base: Duration, attempts: i32) -> Duration {
    let exponent = u32::try_from(attempts.saturating_sub(1))
        .unwrap_or(0)
        .min(30);
    base.saturating_mul(1 << exponent)
        .min(Duration::from_secs(3600))
}

/// The webhook channel: posts each queued delivery, signed, to its URL.
pub struct Webhooks {
    client: awc::Client,
    settings: Background,
}

impl Webhooks {
    /// The channel, reaching `https://` receivers with `tls` (its HTTP
    /// client is not `Send`: it runs on the actix runtime).
    #[must_use]
    pub fn new(settings: Background, tls: Arc<rustls::ClientConfig>) -> Self {
        let client = target::client(
            tls,
            Duration::from_millis(settings.webhook_timeout_ms),
            settings.webhook_allow_private,
        );
        Webhooks { client, settings }
    }
}

impl Channel for Webhooks {
    const NAME: &'static str = "webhook";

    fn every(&self) -> Duration {
        Duration::from_millis(self.settings.webhook_tick_ms)
    }

    /// Claims and attempts the due deliveries; returns how many were attempted.
    async fn deliver_due(&self, pool: &Pool) -> Result<usize, Failure> {
        let settings = &self.settings;
        let lease = Duration::from_millis(settings.webhook_timeout_ms) * 2 + Duration::from_secs(5);
        let claimed = {
            let mut conn = pool.get().await?;
            webhooks::claim_due(&mut conn, lease.as_secs_f64()).await?
        };
        let count = claimed.len();
        let outcomes = futures_util::future::join_all(
            claimed
                .iter()
                .map(|d| attempt(&self.client, d, settings.webhook_allow_private)),
        )
        .await;
        let mut conn = pool.get().await?;
        let max_attempts = i32::try_from(settings.webhook_attempts).unwrap_or(i32::MAX);
        for (delivery, outcome) in claimed.iter().zip(outcomes) {
            match outcome {
                Ok(status) => webhooks::delivered(&mut conn, delivery, status).await?,
                Err((status, error)) => {
                    let retry = backoff(
                        Duration::from_millis(settings.webhook_retry_ms),
                        delivery.attempts,
                    );
                    tracing::info!(delivery = delivery.delivery_id, attempts = delivery.attempts, %error, "webhook delivery failed");
                    webhooks::failed(
                        &mut conn,
                        delivery,
                        status,
                        &error,
                        max_attempts,
                        retry.as_secs_f64(),
                    )
                    .await?;
                }
            }
        }
        Ok(count)
    }
}

/// One POST: `Ok(status)` on 2xx, else the status (if any) and what went wrong.
///
/// A URL naming a non-public address is not attempted unless
/// `allow_private` (it may have been registered while that was allowed).
async fn attempt(
    client: &awc::Client,
    d: &webhooks::Claimed,
    allow_private: bool,
) -> Result<i32, (Option<i32>, String)> {
    let uri: actix_web::http::Uri = d
        .url
        .parse()
        .map_err(|e| (None, format!("request failed: {e}")))?;
    if let Some(why) = uri
        .host()
        .and_then(|host| target::refusal(host, allow_private))
    {
        return Err((None, why));
    }
    let payload = WebhookPayload::from(&d.note);
    let body = serde_json::to_vec(&payload).map_err(|e| (None, e.to_string()))?;
    let t = Utc::now().timestamp();
    let sent = client
        .post(uri)
        .insert_header(("Content-Type", "application/json"))
        .insert_header(("User-Agent", "hatstand-webhooks/1"))
        .insert_header(("Hatstand-Delivery", d.delivery_id.to_string()))
        .insert_header(("Hatstand-Signature", signature(&d.secret, t, &body)))
        .send_body(body)
        .await;
    match sent {
        Ok(response) => {
            let status = i32::from(response.status().as_u16());
            if response.status().is_success() {
                Ok(status)
            } else {
                Err((Some(status), format!("the receiver answered {status}")))
            }
        }
        // Not the resolver's words: they would tell a name that does not
        // resolve from one that resolves inward (see `target::UNREACHABLE`).
        Err(awc::error::SendRequestError::Connect(
            e @ (awc::error::ConnectError::Resolver(_)
            | awc::error::ConnectError::NoRecords
            | awc::error::ConnectError::Unresolved),
        )) => {
            tracing::debug!(error = %e, "a webhook receiver could not be reached");
            Err((None, format!("request failed: {}", target::UNREACHABLE)))
        }
        Err(e) => Err((None, format!("request failed: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_are_hmac_sha256_of_time_dot_body() {
        // HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog"), split as t.body.
        let sig = signature("key", 0, b"The quick brown fox jumps over the lazy dog");
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(b"key").unwrap();
        mac.update(b"0.The quick brown fox jumps over the lazy dog");
        assert_eq!(
            sig,
            format!("t=0,v1={}", hex::encode(mac.finalize().into_bytes()))
        );
    }

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        let base = Duration::from_secs(1);
        assert_eq!(backoff(base, 1), Duration::from_secs(1));
        assert_eq!(backoff(base, 2), Duration::from_secs(2));
        assert_eq!(backoff(base, 5), Duration::from_secs(16));
        assert_eq!(backoff(base, 40), Duration::from_secs(3600));
    }
}

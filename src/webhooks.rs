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
use diesel::QueryableByName;
use diesel::sql_types::{
    BigInt, Double, Int4, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid,
};
use diesel_async::{AsyncConnection, RunQueryDsl};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Caller;
use crate::config::Background;
use crate::db::Pool;
use crate::error::{ErrorCode, Failure};
use crate::state::AppState;

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
    #[schema(example = "https://example.com/hatstand")]
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

/// A registered webhook and how its deliveries are going.
#[derive(Debug, Serialize, Deserialize, ToSchema, QueryableByName)]
pub struct Webhook {
    #[diesel(sql_type = SqlUuid)]
    pub id: Uuid,
    #[diesel(sql_type = Text)]
    pub url: String,
    #[diesel(sql_type = Timestamptz)]
    pub created_at: DateTime<Utc>,
    /// Requests made, over all deliveries.
    #[diesel(sql_type = BigInt)]
    pub attempts: i64,
    /// Notifications delivered.
    #[diesel(sql_type = BigInt)]
    pub delivered: i64,
    /// Notifications not delivered yet whose last attempt failed (they will be retried).
    #[diesel(sql_type = BigInt)]
    pub failing: i64,
    /// Notifications given up after the last attempt.
    #[diesel(sql_type = BigInt)]
    pub failed: i64,
    /// Notifications waiting to be delivered (first attempt or retry).
    #[diesel(sql_type = BigInt)]
    pub pending: i64,
    /// The HTTP status of the latest attempt (null when no answer came).
    #[diesel(sql_type = Nullable<Int4>)]
    pub last_status: Option<i32>,
    /// What went wrong in the latest attempt, if it failed.
    #[diesel(sql_type = Nullable<Text>)]
    pub last_error: Option<String>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    pub last_attempt_at: Option<DateTime<Utc>>,
}

/// The JSON body of a webhook request.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookPayload {
    /// The notification's id: the same for every retry; use it to de-duplicate.
    pub id: i64,
    /// `your_turn`, `game_finished` or `invited`.
    #[serde(rename = "type")]
    #[schema(example = "your_turn")]
    pub kind: String,
    pub game_id: Option<Uuid>,
    pub user_id: Uuid,
    pub created_at: DateTime<Utc>,
    /// The notification's details (`game_id`, `ruleset`, `seat`, `version`, `deadline`, ...).
    #[schema(value_type = Object)]
    pub data: Value,
}

/// Registers a webhook for the caller.
///
/// # Errors
/// `bad_request` (url), `too_many_webhooks`.
pub async fn create(
    state: &AppState,
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
    #[derive(QueryableByName)]
    struct Inserted {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    // The cap holds under concurrent registrations: the user's row is locked
    // first, so the count below (a new statement, a new snapshot) sees every
    // webhook committed before this transaction got the lock.
    let inserted: Inserted = conn
        .transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::sql_query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE")
                .bind::<SqlUuid, _>(caller.user_id)
                .execute(conn)
                .await?;
            diesel::sql_query(
                "WITH ins AS (
                    INSERT INTO webhooks (id, user_id, url, secret, created_at)
                    SELECT $1, $2, $3, $4, $5
                     WHERE (SELECT count(*) FROM webhooks WHERE user_id = $2) < $6
                    RETURNING 1)
                 SELECT count(*) AS n FROM ins",
            )
            .bind::<SqlUuid, _>(id)
            .bind::<SqlUuid, _>(caller.user_id)
            .bind::<Text, _>(&request.url)
            .bind::<Text, _>(&secret)
            .bind::<Timestamptz, _>(now)
            .bind::<BigInt, _>(MAX_WEBHOOKS)
            .get_result(conn)
            .await
        })
        .await
        .map_err(crate::games::join::unknown_user_is_unauthenticated)?;
    if inserted.n == 0 {
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

const LIST: &str = "
SELECT w.id, w.url, w.created_at,
       COALESCE(sum(d.attempts), 0)::int8 AS attempts,
       count(d.id) FILTER (WHERE d.state = 'delivered') AS delivered,
       count(d.id) FILTER (WHERE d.state = 'pending' AND d.attempts > 0) AS failing,
       count(d.id) FILTER (WHERE d.state = 'failed') AS failed,
       count(d.id) FILTER (WHERE d.state = 'pending') AS pending,
       l.last_status, l.last_error, l.last_attempt_at
  FROM webhooks w
  LEFT JOIN webhook_deliveries d ON d.webhook_id = w.id
  LEFT JOIN LATERAL (
        SELECT x.last_status, x.last_error, x.last_attempt_at
          FROM webhook_deliveries x
         WHERE x.webhook_id = w.id AND x.last_attempt_at IS NOT NULL
         ORDER BY x.last_attempt_at DESC, x.id DESC
         LIMIT 1) l ON true
 WHERE w.user_id = $1
 GROUP BY w.id, l.last_status, l.last_error, l.last_attempt_at
 ORDER BY w.created_at, w.id";

/// The caller's webhooks with their delivery state.
///
/// # Errors
/// Database errors.
pub async fn list(state: &AppState, caller: &Caller) -> Result<Vec<Webhook>, Failure> {
    let mut conn = state.pool.get().await?;
    Ok(diesel::sql_query(LIST)
        .bind::<SqlUuid, _>(caller.user_id)
        .load(&mut conn)
        .await?)
}

/// Deletes one of the caller's webhooks (and its pending deliveries).
///
/// # Errors
/// `not_found`.
pub async fn delete(state: &AppState, caller: &Caller, id: Uuid) -> Result<(), Failure> {
    let mut conn = state.pool.get().await?;
    let deleted = diesel::sql_query("DELETE FROM webhooks WHERE id = $1 AND user_id = $2")
        .bind::<SqlUuid, _>(id)
        .bind::<SqlUuid, _>(caller.user_id)
        .execute(&mut conn)
        .await?;
    if deleted == 0 {
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

#[derive(QueryableByName)]
struct Claimed {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Int4)]
    attempts: i32,
    #[diesel(sql_type = Text)]
    url: String,
    #[diesel(sql_type = Text)]
    secret: String,
    #[diesel(sql_type = BigInt)]
    notification_id: i64,
    #[diesel(sql_type = SqlUuid)]
    user_id: Uuid,
    #[diesel(sql_type = Nullable<SqlUuid>)]
    game_id: Option<Uuid>,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = Jsonb)]
    payload: Value,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
}

const CLAIM: &str = "
UPDATE webhook_deliveries d
   SET attempts = d.attempts + 1, last_attempt_at = now(),
       next_attempt_at = now() + make_interval(secs => $1)
  FROM webhooks w, notifications n
 WHERE d.id IN (SELECT id FROM webhook_deliveries
                 WHERE state = 'pending' AND next_attempt_at <= now()
                 ORDER BY next_attempt_at
                 LIMIT 16
                   FOR UPDATE SKIP LOCKED)
   AND w.id = d.webhook_id AND n.id = d.notification_id
RETURNING d.id, d.attempts, w.url, w.secret, n.id AS notification_id, n.user_id, n.game_id,
          n.kind, n.payload, n.created_at";

const DELIVERED: &str = "
UPDATE webhook_deliveries
   SET state = 'delivered', delivered_at = now(), last_status = $2, last_error = NULL
 WHERE id = $1";

const FAILED: &str = "
UPDATE webhook_deliveries
   SET last_status = $2, last_error = $3,
       state = CASE WHEN attempts >= $4 THEN 'failed' ELSE 'pending' END,
       next_attempt_at = now() + make_interval(secs => $5)
 WHERE id = $1";

/// The delay before retrying after `attempts` failed attempts.
#[must_use]
pub fn backoff(base: Duration, attempts: i32) -> Duration {
    let exponent = u32::try_from(attempts.saturating_sub(1))
        .unwrap_or(0)
        .min(30);
    base.saturating_mul(1 << exponent)
        .min(Duration::from_secs(3600))
}

/// Runs the delivery worker forever (on the actix runtime: the HTTP client
/// is not `Send`), reaching `https://` receivers with `tls`.
pub async fn deliver_forever(
    pool: Pool,
    settings: Background,
    tls: Arc<rustls::ClientConfig>,
    wake: Arc<tokio::sync::Notify>,
) {
    let client = target::client(
        tls,
        Duration::from_millis(settings.webhook_timeout_ms),
        settings.webhook_allow_private,
    );
    let every = Duration::from_millis(settings.webhook_tick_ms);
    loop {
        match deliver_due(&pool, &client, &settings).await {
            // A full batch: there may be more due at once.
            Ok(n) if n >= 16 => continue,
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "webhook worker failed; retrying"),
        }
        let _ = tokio::time::timeout(every, wake.notified()).await;
    }
}

/// Claims and attempts the due deliveries; returns how many were attempted.
///
/// # Errors
/// Database errors.
pub async fn deliver_due(
    pool: &Pool,
    client: &awc::Client,
    settings: &Background,
) -> Result<usize, Failure> {
    let lease = Duration::from_millis(settings.webhook_timeout_ms) * 2 + Duration::from_secs(5);
    let claimed: Vec<Claimed> = {
        let mut conn = pool.get().await?;
        diesel::sql_query(CLAIM)
            .bind::<Double, _>(lease.as_secs_f64())
            .load(&mut conn)
            .await?
    };
    let count = claimed.len();
    let outcomes = futures_util::future::join_all(
        claimed
            .iter()
            .map(|d| attempt(client, d, settings.webhook_allow_private)),
    )
    .await;
    let mut conn = pool.get().await?;
    for (delivery, outcome) in claimed.iter().zip(outcomes) {
        match outcome {
            Ok(status) => {
                diesel::sql_query(DELIVERED)
                    .bind::<BigInt, _>(delivery.id)
                    .bind::<Int4, _>(status)
                    .execute(&mut conn)
                    .await?;
            }
            Err((status, error)) => {
                let retry = backoff(
                    Duration::from_millis(settings.webhook_retry_ms),
                    delivery.attempts,
                );
                tracing::info!(delivery = delivery.id, attempts = delivery.attempts, %error, "webhook delivery failed");
                diesel::sql_query(FAILED)
                    .bind::<BigInt, _>(delivery.id)
                    .bind::<Nullable<Int4>, _>(status)
                    .bind::<Text, _>(error)
                    .bind::<Int4, _>(i32::try_from(settings.webhook_attempts).unwrap_or(i32::MAX))
                    .bind::<Double, _>(retry.as_secs_f64())
                    .execute(&mut conn)
                    .await?;
            }
        }
    }
    Ok(count)
}

/// One POST: `Ok(status)` on 2xx, else the status (if any) and what went wrong.
///
/// A URL naming a non-public address is not attempted unless
/// `allow_private` (it may have been registered while that was allowed).
async fn attempt(
    client: &awc::Client,
    d: &Claimed,
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
    let payload = WebhookPayload {
        id: d.notification_id,
        kind: d.kind.clone(),
        game_id: d.game_id,
        user_id: d.user_id,
        created_at: d.created_at,
        data: d.payload.clone(),
    };
    let body = serde_json::to_vec(&payload).map_err(|e| (None, e.to_string()))?;
    let t = Utc::now().timestamp();
    let sent = client
        .post(uri)
        .insert_header(("Content-Type", "application/json"))
        .insert_header(("User-Agent", "hatstand-webhooks/1"))
        .insert_header(("Hatstand-Delivery", d.id.to_string()))
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

//! The push channel's worker: claims due pushes from the outbox and sends
//! each at least once — a Web Push encrypted for its device (RFC 8291,
//! `aes128gcm`), signed as the server (VAPID, RFC 8292) and POSTed to the
//! device's push service (RFC 8030); an FCM or APNs push to its service
//! ([`super::fcm`], [`super::apns`]).
//!
//! Rules:
//! - A device gets a game's pushes in order: a push waits while an earlier
//!   one of the same game to the same subscription is pending (see
//!   `db::push::CLAIM`), retries included.
//! - A 2xx answer: sent. 404 or 410 (Web Push), or a native service's
//!   answers for a dead token: the registration is gone; it is
//!   removed with everything it had still to get. 429, 5xx or no answer:
//!   retried after the larger of `Retry-After` and 1 s, 2 s, 4 s... (from
//!   `--push-retry-ms`, at most an hour), and given up (`failed`) after
//!   `--push-attempts`. Any other answer (400, 403, 413...): `failed` at once.
//! - A push due in its user's quiet hours is held until they end (not an
//!   attempt); when it may go, a newer push of its game to its device that
//!   is due by then replaces it (docs/push.md).
//! - A reminder is not sent once the game has moved on from the version it
//!   was queued at (`skipped`), nor a push for a native channel the server
//!   is no longer configured for.

use std::sync::Arc;
use std::time::Duration;

use data_encoding::BASE64URL_NOPAD;

use super::message::{self, Delivery};
use super::native::Native;
use super::vapid::Vapid;
use super::verdict::Verdict;
use super::{PushChannel, apns, fcm};
use chrono::{DateTime, Utc};

use crate::config::Background;
use crate::db::notification_preferences;
use crate::db::push::{self, Claimed};
use crate::db::{Conn, Pool};
use crate::error::Failure;
use crate::i18n::Language;
use crate::mail::compose::ruleset_name;
use crate::notifications::channel::Channel;
use crate::notifications::kind::Kind;
use crate::notifications::preferences;
use crate::notifications::webhooks::{backoff, target};

/// The push channel.
pub struct Push {
    poster: target::Poster,
    vapid: Arc<Vapid>,
    native: Native,
    settings: Background,
}

impl Push {
    /// The channel (its HTTP clients are not `Send`: it runs on the actix runtime).
    ///
    /// # Errors
    /// Unusable FCM or APNs settings (see [`Native::from_settings`]).
    pub fn new(
        settings: Background,
        tls: Arc<rustls::ClientConfig>,
        vapid: Arc<Vapid>,
    ) -> Result<Self, String> {
        let native = Native::from_settings(&settings, &tls)?;
        let poster = target::Poster::new(
            tls,
            Duration::from_millis(settings.webhook_timeout_ms),
            settings.webhook_allow_private,
        );
        Ok(Push {
            poster,
            vapid,
            native,
            settings,
        })
    }
}

/// What became of one attempt.
enum Outcome {
    Sent(u16),
    /// The push service no longer knows the subscription.
    Gone(u16),
    /// Worth another try, not before the given delay (`Retry-After`).
    Retry(Option<u16>, String, Option<Duration>),
    /// Not worth another try.
    Failed(Option<u16>, String),
    Skipped(&'static str),
    /// In the user's quiet hours: due again when they end.
    Held(DateTime<Utc>),
}

/// What to do with a claimed row.
enum Planned {
    Send(Delivery),
    Skip(&'static str),
    Hold(DateTime<Utc>),
}

/// When `user`'s quiet hours that hold `now` end, if they do.
async fn quiet_until(conn: &mut Conn, user: uuid::Uuid) -> Result<Option<DateTime<Utc>>, Failure> {
    let Some((start, end, zone)) = notification_preferences::quiet_hours(conn, user).await? else {
        return Ok(None);
    };
    let zone = zone
        .and_then(|z| z.parse::<chrono_tz::Tz>().ok())
        .unwrap_or(chrono_tz::UTC);
    Ok(preferences::quiet_until(Utc::now(), zone, start, end))
}

/// The push for `row`, or why none goes now.
async fn plan(conn: &mut Conn, row: &Claimed) -> Result<Planned, Failure> {
    let Some(kind) = Kind::parse(&row.kind) else {
        return Ok(Planned::Skip("not a kind of push"));
    };
    if kind == Kind::Reminder {
        let now = match row.game_id {
            Some(game) => push::game_version(conn, game).await?,
            None => None,
        };
        if now.is_none() || now != row.version {
            return Ok(Planned::Skip("the game has moved on"));
        }
    }
    if let Some(until) = quiet_until(conn, row.user_id).await? {
        return Ok(Planned::Hold(until));
    }
    if row.held_until.is_some() && push::replaced(conn, row).await? {
        return Ok(Planned::Skip("replaced by a newer push"));
    }
    let ruleset = ruleset_name(row.ruleset.as_deref().unwrap_or("a game"));
    // The reader's chosen language (docs/i18n.md); none chosen: English,
    // since a push answers no request whose Accept-Language could say.
    let language = crate::db::user_settings::get(conn, row.user_id)
        .await?
        .language
        .as_deref()
        .and_then(Language::from_code)
        .unwrap_or(Language::En);
    Ok(
        match message::delivery(kind, row.game_id, row.version, ruleset, language) {
            Some(delivery) => Planned::Send(delivery),
            None => Planned::Skip("not a kind of push"),
        },
    )
}

/// The outcome of a native service's verdict.
fn outcome(status: u16, verdict: Verdict) -> Outcome {
    match verdict {
        Verdict::Sent => Outcome::Sent(status),
        Verdict::Gone(_) => Outcome::Gone(status),
        Verdict::Retry(why, after) => Outcome::Retry(Some(status), why, after),
        Verdict::Reauthorize(why) => Outcome::Retry(Some(status), why, None),
        Verdict::Failed(why) => Outcome::Failed(Some(status), why),
    }
}

impl Push {
    /// Sends `delivery` to `row`'s device, on its channel.
    async fn attempt(&self, row: &Claimed, delivery: &Delivery) -> Outcome {
        match PushChannel::parse(&row.channel) {
            Some(PushChannel::Web) => self.web_push(row, delivery).await,
            Some(PushChannel::Fcm) => self.fcm(row, delivery).await,
            Some(PushChannel::Apns) => self.apns(row, delivery).await,
            None => Outcome::Skipped("not a push channel"),
        }
    }

    /// POSTs `delivery` to FCM for `row`'s registration token.
    async fn fcm(&self, row: &Claimed, delivery: &Delivery) -> Outcome {
        let Some((fcm, client)) = &self.native.fcm else {
            return Outcome::Skipped("FCM is not configured");
        };
        let token = match fcm.access_token(client).await {
            Ok(token) => token,
            Err(e) => return Outcome::Retry(None, e, None),
        };
        let body = fcm::body(&row.endpoint, delivery).to_string().into_bytes();
        let headers = [
            ("Authorization", format!("Bearer {token}")),
            ("Content-Type", "application/json".to_owned()),
        ];
        match client.post(&fcm.send_url(), &headers, body).await {
            Ok(answer) => {
                let verdict = fcm::judge(answer.status, &answer.body, answer.retry_after);
                if matches!(verdict, Verdict::Reauthorize(_)) {
                    fcm.forget_token().await;
                }
                outcome(answer.status, verdict)
            }
            Err(error) => Outcome::Retry(None, error, None),
        }
    }

    /// POSTs `delivery` to APNs for `row`'s device token, over HTTP/2.
    async fn apns(&self, row: &Claimed, delivery: &Delivery) -> Outcome {
        let Some((apns, client)) = &self.native.apns else {
            return Outcome::Skipped("APNs is not configured");
        };
        let bearer = match apns.bearer() {
            Ok(bearer) => bearer,
            Err(e) => return Outcome::Failed(None, e),
        };
        let now = chrono::Utc::now().timestamp();
        let headers = apns.headers(delivery, &bearer, now);
        let body = apns::body(delivery).to_string().into_bytes();
        match client.post(&apns.url(&row.endpoint), &headers, body).await {
            Ok(answer) => {
                let verdict = apns::judge(answer.status, &answer.body, answer.retry_after);
                if matches!(verdict, Verdict::Reauthorize(_)) {
                    apns.forget_token();
                }
                outcome(answer.status, verdict)
            }
            Err(error) => Outcome::Retry(None, error, None),
        }
    }

    /// Encrypts, signs and POSTs `delivery` to `row`'s push service.
    async fn web_push(&self, row: &Claimed, delivery: &Delivery) -> Outcome {
        let body = match encrypt(row, delivery) {
            Ok(body) => body,
            Err(e) => return Outcome::Failed(None, e),
        };
        let now = chrono::Utc::now().timestamp();
        let authorization =
            match self
                .vapid
                .authorization(&row.endpoint, &self.settings.push_contact, now)
            {
                Ok(a) => a,
                Err(e) => return Outcome::Failed(None, e),
            };
        let mut headers = vec![
            ("TTL", delivery.ttl.to_string()),
            ("Urgency", delivery.urgency.to_owned()),
            ("Content-Encoding", "aes128gcm".to_owned()),
            ("Content-Type", "application/octet-stream".to_owned()),
            ("Authorization", authorization),
        ];
        if let Some(topic) = &delivery.topic {
            headers.push(("Topic", topic.clone()));
        }
        match self.poster.post(&row.endpoint, &headers, body).await {
            Ok(answer) => match answer.status {
                200..=299 => Outcome::Sent(answer.status),
                404 | 410 => Outcome::Gone(answer.status),
                429 | 500..=599 => Outcome::Retry(
                    Some(answer.status),
                    format!("the push service answered {}", answer.status),
                    answer.retry_after.map(Duration::from_secs),
                ),
                status => {
                    Outcome::Failed(Some(status), format!("the push service answered {status}"))
                }
            },
            Err(error) => Outcome::Retry(None, error, None),
        }
    }

    /// Records `outcome` of `row`.
    async fn record(
        &self,
        conn: &mut Conn,
        row: &Claimed,
        outcome: Outcome,
    ) -> Result<(), Failure> {
        let attempts = i32::try_from(self.settings.push_attempts).unwrap_or(i32::MAX);
        match outcome {
            Outcome::Sent(status) => {
                push::finish(
                    conn,
                    row.user_id,
                    row.id,
                    "sent",
                    Some(i32::from(status)),
                    None,
                )
                .await?;
            }
            Outcome::Held(until) => {
                push::hold(conn, row.user_id, row.id, until).await?;
            }
            Outcome::Skipped(why) => {
                push::finish(conn, row.user_id, row.id, "skipped", None, Some(why)).await?;
            }
            Outcome::Gone(status) => {
                tracing::info!(user = %row.user_id, subscription = %row.subscription_id, status, "push subscription gone; removed");
                push::delete(conn, row.user_id, row.subscription_id).await?;
            }
            Outcome::Retry(status, error, after) => {
                let retry = backoff(
                    Duration::from_millis(self.settings.push_retry_ms),
                    row.attempts,
                )
                .max(after.unwrap_or_default())
                .min(Duration::from_secs(3600));
                tracing::info!(push = row.id, attempts = row.attempts, %error, "push not delivered; retrying");
                push::failed(
                    conn,
                    row.user_id,
                    row.id,
                    status.map(i32::from),
                    &error,
                    attempts,
                    retry.as_secs_f64(),
                )
                .await?;
            }
            Outcome::Failed(status, error) => {
                tracing::info!(push = row.id, %error, "push refused; given up");
                push::failed(
                    conn,
                    row.user_id,
                    row.id,
                    status.map(i32::from),
                    &error,
                    0,
                    0.0,
                )
                .await?;
            }
        }
        Ok(())
    }
}

/// The body of `delivery` encrypted for `row`'s device.
fn encrypt(row: &Claimed, delivery: &Delivery) -> Result<Vec<u8>, String> {
    let decode = |text: &str| {
        BASE64URL_NOPAD
            .decode(text.as_bytes())
            .map_err(|e| e.to_string())
    };
    let (Some(p256dh), Some(auth)) = (&row.p256dh, &row.auth) else {
        return Err("a web subscription without keys".to_owned());
    };
    let public = p256::PublicKey::from_sec1_bytes(&decode(p256dh)?)
        .map_err(|_| "the subscription's p256dh is no P-256 key".to_owned())?;
    let auth: [u8; 16] = decode(auth)?
        .try_into()
        .map_err(|_| "the subscription's auth is not 16 bytes".to_owned())?;
    let auth = web_push_native::Auth::from(auth);
    let body = serde_json::to_vec(&delivery.message).map_err(|e| e.to_string())?;
    web_push_native::encrypt(body, &public, &auth).map_err(|e| e.to_string())
}

impl Channel for Push {
    const NAME: &'static str = "push";

    fn every(&self) -> Duration {
        Duration::from_millis(self.settings.push_tick_ms)
    }

    async fn deliver_due(&self, pool: &Pool) -> Result<usize, Failure> {
        let lease =
            Duration::from_millis(self.settings.webhook_timeout_ms) * 2 + Duration::from_secs(5);
        let mut conn = pool.get().await?;
        let claimed = push::claim_due(&mut conn, lease.as_secs_f64()).await?;
        let count = claimed.len();
        let mut planned = Vec::with_capacity(count);
        for row in &claimed {
            planned.push(plan(&mut conn, row).await?);
        }
        drop(conn);
        // One row per subscription and game at most: the posts may go at once.
        let outcomes = futures_util::future::join_all(claimed.iter().zip(&planned).map(
            |(row, planned)| async move {
                match planned {
                    Planned::Send(delivery) => self.attempt(row, delivery).await,
                    Planned::Skip(why) => Outcome::Skipped(why),
                    Planned::Hold(until) => Outcome::Held(*until),
                }
            },
        ))
        .await;
        let mut conn = pool.get().await?;
        for (row, outcome) in claimed.iter().zip(outcomes) {
            self.record(&mut conn, row, outcome).await?;
        }
        Ok(count)
    }
}

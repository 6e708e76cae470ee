//! Web Push (docs/push.md): a user registers a subscription per device
//! (the endpoint its browser's push service gave it, and the keys to
//! encrypt for it); each notification of a pushed kind goes to each of the
//! user's subscriptions through the push outbox, as mail does.
//!
//! Rules:
//! - At most [`MAX_SUBSCRIPTIONS`] per user. Registering an endpoint the
//!   user has already replaces its keys (a browser renews them).
//! - An endpoint must be `https://` (push services are; `--push-allow-http`
//!   lets tests use a local one), at most 2,048 characters, and may not
//!   name a loopback, private or other non-public address (the webhook
//!   guard, `--webhook-allow-private`).
//! - `keys.p256dh` must be an uncompressed P-256 point (65 bytes) and
//!   `keys.auth` 16 bytes, each URL-safe base64 (RFC 8291).
//! - Bad input is refused whole (`invalid_push_subscription`,
//!   `too_many_push_subscriptions`): nothing is stored.

use data_encoding::BASE64URL_NOPAD;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Caller;
use crate::context::Context;
use crate::db::errors::unknown_user_is_unauthenticated;
pub use crate::db::push::PushSubscription;
use crate::db::push::{self, NewSubscription, Stored};
use crate::error::{ErrorCode, Failure};
use crate::notifications::webhooks::target;

pub mod message;
pub mod outbox;
pub mod vapid;

/// The most push subscriptions one user may have.
pub const MAX_SUBSCRIPTIONS: i64 = 10;

/// The server's VAPID public key.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PushKey {
    /// The uncompressed P-256 point, URL-safe base64 without padding: the
    /// `applicationServerKey` of `pushManager.subscribe`.
    #[schema(
        example = "BJ5pl4dQZ0QQXfI0wUjVj3mLhzKkp9PV8rK6RfHh2EFoKZiySV3Gk0TpEmhIo-F8F3cQ1LrxUn1NbMBg8qW8-Cs"
    )]
    pub public_key: String,
}

/// The keys a browser gives with a subscription (`PushSubscription.toJSON().keys`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionKeys {
    /// The device's P-256 public key: 65 bytes, URL-safe base64.
    #[schema(
        example = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
    )]
    pub p256dh: String,
    /// The authentication secret: 16 bytes, URL-safe base64.
    #[schema(example = "tBHItJI5svbpez7KI4CCXg")]
    pub auth: String,
}

/// A push subscription to register, as `PushSubscription.toJSON()` gives it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPushSubscription {
    /// The push service's `https://` URL for the device.
    #[schema(
        example = "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl",
        format = "uri",
        max_length = 2048
    )]
    pub endpoint: String,
    /// When the push service ends the subscription (ignored: a push to an
    /// ended subscription answers 404 or 410, and it is removed then).
    #[serde(default, rename = "expirationTime")]
    #[schema(nullable)]
    pub expiration_time: Option<f64>,
    pub keys: SubscriptionKeys,
}

/// A subscription as stored (`201`: new; `200`: an endpoint the caller had
/// already, its keys replaced).
pub struct Registered {
    pub subscription: PushSubscription,
    pub created: bool,
}

/// The server's VAPID public key.
#[must_use]
pub fn key(state: &Context) -> PushKey {
    PushKey {
        public_key: state.push_key.to_string(),
    }
}

/// Decodes URL-safe base64, padded or not.
fn base64url(text: &str) -> Option<Vec<u8>> {
    BASE64URL_NOPAD
        .decode(text.trim_end_matches('=').as_bytes())
        .ok()
}

/// Checks a subscription: its endpoint and keys (see the module's rules).
///
/// # Errors
/// `invalid_push_subscription`, saying what is wrong.
pub fn check(
    request: &NewPushSubscription,
    allow_http: bool,
    allow_private: bool,
) -> Result<(), Failure> {
    let invalid = |detail: String| Failure::new(ErrorCode::InvalidPushSubscription, detail);
    let endpoint = &request.endpoint;
    let plain = allow_http && endpoint.starts_with("http://");
    if !(endpoint.starts_with("https://") || plain) {
        return Err(invalid("endpoint must be an https:// URL".to_owned()));
    }
    target::check_url(endpoint, allow_private)
        .map_err(|f| invalid(format!("endpoint: {}", f.detail.replacen("url ", "", 1))))?;
    let point = base64url(&request.keys.p256dh)
        .filter(|b| b.len() == 65 && b[0] == 4)
        .and_then(|b| p256::PublicKey::from_sec1_bytes(&b).ok());
    if point.is_none() {
        return Err(invalid(
            "keys.p256dh must be an uncompressed P-256 public key (65 bytes) in URL-safe base64"
                .to_owned(),
        ));
    }
    if base64url(&request.keys.auth).is_none_or(|b| b.len() != 16) {
        return Err(invalid(
            "keys.auth must be 16 bytes in URL-safe base64".to_owned(),
        ));
    }
    Ok(())
}

/// Registers a push subscription for the caller.
///
/// # Errors
/// `invalid_push_subscription`, `too_many_push_subscriptions`.
pub async fn subscribe(
    state: &Context,
    caller: &Caller,
    request: NewPushSubscription,
) -> Result<Registered, Failure> {
    check(&request, state.push_allow_http, state.webhook_allow_private)?;
    let mut conn = state.pool.get().await?;
    let row = NewSubscription {
        id: Uuid::new_v4(),
        user: caller.user_id,
        endpoint: &request.endpoint,
        p256dh: request.keys.p256dh.trim_end_matches('='),
        auth: request.keys.auth.trim_end_matches('='),
        at: crate::record::chain::now(),
    };
    let stored = push::insert_capped(&mut conn, row, MAX_SUBSCRIPTIONS)
        .await
        .map_err(unknown_user_is_unauthenticated)?;
    match stored {
        Stored::Created(subscription) => Ok(Registered {
            subscription,
            created: true,
        }),
        Stored::Renewed(subscription) => Ok(Registered {
            subscription,
            created: false,
        }),
        Stored::Full => Err(Failure::new(
            ErrorCode::TooManyPushSubscriptions,
            format!("at most {MAX_SUBSCRIPTIONS} push subscriptions per user"),
        )),
    }
}

/// The caller's push subscriptions.
///
/// # Errors
/// Database errors.
pub async fn list(state: &Context, caller: &Caller) -> Result<Vec<PushSubscription>, Failure> {
    let mut conn = state.pool.get().await?;
    Ok(push::list(&mut conn, caller.user_id).await?)
}

/// Deletes one of the caller's subscriptions (and what it had still to get).
///
/// # Errors
/// `not_found`.
pub async fn unsubscribe(state: &Context, caller: &Caller, id: Uuid) -> Result<(), Failure> {
    let mut conn = state.pool.get().await?;
    if !push::delete(&mut conn, caller.user_id, id).await? {
        return Err(Failure::not_found("you have no such push subscription"));
    }
    Ok(())
}

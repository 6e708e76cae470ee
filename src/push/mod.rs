//! Push (docs/push.md): a user registers each device on one channel — a
//! Web Push subscription (`web`: the endpoint its browser's push service
//! gave it, and the keys to encrypt for it), or an app's device token of
//! Firebase Cloud Messaging (`fcm`) or of the Apple Push Notification
//! service (`apns`); each notification of a pushed kind goes to each of the
//! user's registrations through the push outbox, as mail does.
//!
//! Rules:
//! - At most [`MAX_SUBSCRIPTIONS`] per user, all channels together.
//!   Registering an endpoint or token the user has already replaces its
//!   keys (a browser renews them) and answers the same registration.
//! - `channel` is `web` (the default), `fcm` or `apns`
//!   (`unknown_channel`); a native channel the server is not configured
//!   for is refused (`push_channel_not_configured`).
//! - `web` takes `endpoint` and `keys`, no `token`; `fcm` and `apns` take
//!   `token` alone. An FCM token is 1 to 4,096 characters of letters,
//!   digits and `-_:.`; an APNs token 64 to 200 hexadecimal digits.
//! - An endpoint must be `https://` (push services are; `--push-allow-http`
//!   lets tests use a local one), at most 2,048 characters, and may not
//!   name a loopback, private or other non-public address (the webhook
//!   guard, `--webhook-allow-private`).
//! - `keys.p256dh` must be an uncompressed P-256 point (65 bytes) and
//!   `keys.auth` 16 bytes, each URL-safe base64 (RFC 8291).
//! - Bad input is refused whole (`invalid_push_subscription`,
//!   `unknown_channel`, `push_channel_not_configured`,
//!   `too_many_push_subscriptions`): nothing is stored.

use data_encoding::BASE64URL_NOPAD;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Caller;
use crate::config::NativeChannels;
use crate::context::Context;
use crate::db::errors::unknown_user_is_unauthenticated;
pub use crate::db::push::PushSubscription;
use crate::db::push::{self, NewSubscription, Stored};
use crate::error::{ErrorCode, Failure};
use crate::notifications::webhooks::target;

pub mod apns;
pub mod fcm;
pub mod message;
pub mod native;
pub mod outbox;
pub mod vapid;
pub mod verdict;

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

/// A device to register: a browser's `PushSubscription.toJSON()` (channel
/// `web`, the default), or an app's device token (`fcm`, `apns`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(
    json!({"endpoint": "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl",
           "expirationTime": null,
           "keys": {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
                    "auth": "tBHItJI5svbpez7KI4CCXg"}}),
    json!({"channel": "fcm", "token": "dX3c0Yk2u8Q:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"}),
    json!({"channel": "apns", "token": "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"})
))]
pub struct NewPushSubscription {
    /// `web` (Web Push; the default), `fcm` (Firebase Cloud Messaging) or
    /// `apns` (Apple Push Notification service).
    #[serde(default)]
    #[schema(example = "web")]
    pub channel: Option<String>,
    /// `web`: the push service's `https://` URL for the device.
    #[schema(
        example = "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl",
        format = "uri",
        max_length = 2048
    )]
    pub endpoint: Option<String>,
    /// `web`: when the push service ends the subscription (ignored: a push
    /// to an ended subscription answers 404 or 410, and it is removed then).
    #[serde(default, rename = "expirationTime")]
    #[schema(nullable)]
    pub expiration_time: Option<f64>,
    /// `web`: the keys to encrypt for the device.
    pub keys: Option<SubscriptionKeys>,
    /// `fcm`: the app's registration token; `apns`: the device token in hexadecimal.
    #[schema(max_length = 4096)]
    pub token: Option<String>,
}

/// A channel a device is registered on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushChannel {
    /// Web Push (RFC 8030).
    Web,
    /// Firebase Cloud Messaging, HTTP v1.
    Fcm,
    /// Apple Push Notification service.
    Apns,
}

impl PushChannel {
    /// The channel named `name` (`web`, `fcm`, `apns`).
    #[must_use]
    pub fn parse(name: &str) -> Option<PushChannel> {
        match name {
            "web" => Some(PushChannel::Web),
            "fcm" => Some(PushChannel::Fcm),
            "apns" => Some(PushChannel::Apns),
            _ => None,
        }
    }

    /// Its name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            PushChannel::Web => "web",
            PushChannel::Fcm => "fcm",
            PushChannel::Apns => "apns",
        }
    }
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

/// What a checked registration stores.
#[derive(Debug, PartialEq, Eq)]
pub struct Checked<'a> {
    pub channel: PushChannel,
    /// The endpoint (`web`) or the device token.
    pub endpoint: String,
    /// `web`: `p256dh` and `auth`, unpadded.
    pub keys: Option<(&'a str, &'a str)>,
}

/// Checks a registration (see the module's rules).
///
/// # Errors
/// `unknown_channel`, `push_channel_not_configured`,
/// `invalid_push_subscription`, saying what is wrong.
pub fn check_registration<'a>(
    request: &'a NewPushSubscription,
    native: NativeChannels,
    allow_http: bool,
    allow_private: bool,
) -> Result<Checked<'a>, Failure> {
    let invalid = |detail: &str| Failure::new(ErrorCode::InvalidPushSubscription, detail);
    let name = request.channel.as_deref().unwrap_or("web");
    let channel = PushChannel::parse(name).ok_or_else(|| {
        Failure::new(
            ErrorCode::UnknownChannel,
            format!("unknown push channel {name:?}: web, fcm or apns"),
        )
    })?;
    let configured = match channel {
        PushChannel::Web => true,
        PushChannel::Fcm => native.fcm,
        PushChannel::Apns => native.apns,
    };
    if !configured {
        return Err(Failure::new(
            ErrorCode::PushChannelNotConfigured,
            format!("this server does not push over {name}"),
        ));
    }
    if channel == PushChannel::Web {
        let (Some(endpoint), Some(keys), None) = (&request.endpoint, &request.keys, &request.token)
        else {
            return Err(invalid(
                "a web subscription has an endpoint and keys, no token",
            ));
        };
        check(endpoint, keys, allow_http, allow_private)?;
        return Ok(Checked {
            channel,
            endpoint: endpoint.clone(),
            keys: Some((
                keys.p256dh.trim_end_matches('='),
                keys.auth.trim_end_matches('='),
            )),
        });
    }
    let (None, None, Some(token)) = (&request.endpoint, &request.keys, &request.token) else {
        return Err(invalid(
            "an fcm or apns registration has a token, no endpoint or keys",
        ));
    };
    let good = match channel {
        PushChannel::Fcm => {
            (1..=4096).contains(&token.len())
                && token
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_:.".contains(&b))
        }
        _ => (64..=200).contains(&token.len()) && token.bytes().all(|b| b.is_ascii_hexdigit()),
    };
    if !good {
        return Err(invalid(match channel {
            PushChannel::Fcm => {
                "token: an FCM registration token is 1 to 4,096 letters, digits or -_:."
            }
            _ => "token: an APNs device token is 64 to 200 hexadecimal digits",
        }));
    }
    let token = if channel == PushChannel::Apns {
        token.to_ascii_lowercase()
    } else {
        token.clone()
    };
    Ok(Checked {
        channel,
        endpoint: token,
        keys: None,
    })
}

/// Checks a Web Push subscription: its endpoint and keys (see the module's rules).
///
/// # Errors
/// `invalid_push_subscription`, saying what is wrong.
pub fn check(
    endpoint: &str,
    keys: &SubscriptionKeys,
    allow_http: bool,
    allow_private: bool,
) -> Result<(), Failure> {
    let invalid = |detail: String| Failure::new(ErrorCode::InvalidPushSubscription, detail);
    let plain = allow_http && endpoint.starts_with("http://");
    if !(endpoint.starts_with("https://") || plain) {
        return Err(invalid("endpoint must be an https:// URL".to_owned()));
    }
    target::check_url(endpoint, allow_private)
        .map_err(|f| invalid(format!("endpoint: {}", f.detail.replacen("url ", "", 1))))?;
    let point = base64url(&keys.p256dh)
        .filter(|b| b.len() == 65 && b[0] == 4)
        .and_then(|b| p256::PublicKey::from_sec1_bytes(&b).ok());
    if point.is_none() {
        return Err(invalid(
            "keys.p256dh must be an uncompressed P-256 public key (65 bytes) in URL-safe base64"
                .to_owned(),
        ));
    }
    if base64url(&keys.auth).is_none_or(|b| b.len() != 16) {
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
    let checked = check_registration(
        &request,
        state.push_native,
        state.push_allow_http,
        state.webhook_allow_private,
    )?;
    let mut conn = state.pool.get().await?;
    let row = NewSubscription {
        id: Uuid::new_v4(),
        user: caller.user_id,
        channel: checked.channel.as_str(),
        endpoint: &checked.endpoint,
        p256dh: checked.keys.map(|k| k.0),
        auth: checked.keys.map(|k| k.1),
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

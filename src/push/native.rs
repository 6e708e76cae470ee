//! The native app channels, Firebase Cloud Messaging ([`super::fcm`]) and
//! the Apple Push Notification service ([`super::apns`]): their settings,
//! their HTTP clients, and how an answer of either is judged.
//!
//! Rules:
//! - A channel is on when its settings are given (`--fcm-service-account-file`;
//!   `--apns-key-file` with `--apns-key-id`, `--apns-team-id` and
//!   `--apns-topic`), off otherwise; registering a device on a channel that
//!   is off is refused, and a push queued for one is `skipped`.
//! - Their base URLs are the operator's settings, not a user's: they are
//!   not held to the webhook guard's public addresses (tests point them at
//!   local receivers). TLS trusts the public roots and `--webhook-ca-file`.
//! - APNs is spoken over HTTP/2 only (ALPN `h2`), as Apple requires.

use std::sync::Arc;
use std::time::Duration;

use super::NativeChannels;
use super::apns::Apns;
use super::fcm::Fcm;
use crate::config::Background;
use crate::notifications::webhooks::target;

/// Which native channels `settings` turn on.
#[must_use]
pub fn configured(settings: &Background) -> NativeChannels {
    NativeChannels {
        fcm: settings.fcm_service_account_file.is_some(),
        apns: settings.apns_key_file.is_some(),
    }
}

/// What a push service's answer means for the push.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Taken.
    Sent,
    /// The device token is dead: the registration is removed.
    Gone(String),
    /// Worth another try, not before the given delay (`Retry-After`).
    Retry(String, Option<Duration>),
    /// The server's own credential was refused: forget the cached one and
    /// try again with a new one.
    Reauthorize(String),
    /// Not worth another try.
    Failed(String),
}

/// An answer: status, `Retry-After` in seconds, and the body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub retry_after: Option<u64>,
    pub body: Vec<u8>,
}

/// An HTTP client for one native service.
pub struct Client {
    client: awc::Client,
}

impl Client {
    /// A client speaking HTTP/2 only (`h2` over TLS) when `http2`, else as
    /// the service agrees.
    #[must_use]
    pub fn new(tls: &Arc<rustls::ClientConfig>, timeout: Duration, http2: bool) -> Client {
        let mut config = (**tls).clone();
        config.alpn_protocols = if http2 {
            vec![b"h2".to_vec()]
        } else {
            vec![b"h2".to_vec(), b"http/1.1".to_vec()]
        };
        Client {
            client: target::client(Arc::new(config), timeout, true),
        }
    }

    /// POSTs `body` (its content type in `headers`) to `url`: the answer,
    /// whatever its status, or why none came.
    ///
    /// # Errors
    /// A request that got no answer.
    pub async fn post(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> Result<Answer, String> {
        let mut request = self.client.post(url);
        for (name, value) in headers {
            request = request.insert_header((*name, value.as_str()));
        }
        let mut response = request
            .send_body(body)
            .await
            .map_err(|e| format!("request failed: {e}"))?;
        let body = response
            .body()
            .limit(64 * 1024)
            .await
            .map_err(|e| format!("reading the answer: {e}"))?;
        Ok(Answer {
            status: response.status().as_u16(),
            retry_after: response
                .headers()
                .get("Retry-After")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse().ok()),
            body: body.to_vec(),
        })
    }
}

/// The native channels a push worker sends through.
pub struct Native {
    pub fcm: Option<(Fcm, Client)>,
    pub apns: Option<(Apns, Client)>,
}

impl Native {
    /// The channels `settings` configure, each with its client.
    ///
    /// # Errors
    /// A key file that cannot be read or holds no usable key, or APNs
    /// settings given in part.
    pub fn from_settings(
        settings: &Background,
        tls: &Arc<rustls::ClientConfig>,
    ) -> Result<Native, String> {
        let timeout = Duration::from_millis(settings.webhook_timeout_ms);
        let fcm = match &settings.fcm_service_account_file {
            Some(path) => Some((
                Fcm::load(path, &settings.fcm_base_url)?,
                Client::new(tls, timeout, false),
            )),
            None => None,
        };
        let apns = match Apns::from_settings(settings)? {
            Some(apns) => Some((apns, Client::new(tls, timeout, true))),
            None => None,
        };
        Ok(Native { fcm, apns })
    }
}

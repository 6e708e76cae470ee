//! The native app channels, Firebase Cloud Messaging ([`super::fcm`]) and
//! the Apple Push Notification service ([`super::apns`]): their settings
//! and their HTTP clients.
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

use super::apns::Apns;
use super::fcm::Fcm;
use crate::config::Background;
use crate::notifications::webhooks::target::Sender;

/// The native channels a push worker sends through.
pub struct Native {
    pub fcm: Option<(Fcm, Sender)>,
    pub apns: Option<(Apns, Sender)>,
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
                Sender::new(tls, timeout, false),
            )),
            None => None,
        };
        let apns =
            Apns::from_settings(settings)?.map(|apns| (apns, Sender::new(tls, timeout, true)));
        Ok(Native { fcm, apns })
    }
}

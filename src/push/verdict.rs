//! What a native push service's answer means for the push (FCM's and
//! APNs's answers are judged by [`super::fcm::judge`] and
//! [`super::apns::judge`]).

use std::time::Duration;

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

//! Request rates per access token: a generous token bucket per sign-in
//! session (GCRA, by the `governor` crate), so one client in a loop cannot
//! take the server from everyone else. Over the limit answers `429
//! rate_limited` with `Retry-After`, as failed logins do.
//!
//! The buckets live in each process: behind N processes a session may make
//! up to N times the rate, which is fine for a limit meant to stop runaway
//! clients. (Login throttling, which guards passwords, is shared through
//! PostgreSQL instead.)

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{Quota, RateLimiter};
use uuid::Uuid;

use crate::error::Failure;

type Buckets =
    RateLimiter<Uuid, governor::state::keyed::DefaultKeyedStateStore<Uuid>, DefaultClock>;

/// The per-token limiter (none when the rate is 0).
pub struct TokenLimits {
    buckets: Option<Buckets>,
}

impl TokenLimits {
    /// `per_second` requests a second per session on average, in bursts of
    /// up to `burst`; a rate of 0 turns the limit off.
    #[must_use]
    pub fn new(per_second: u32, burst: u32) -> Self {
        let buckets = NonZeroU32::new(per_second).map(|rate| {
            let burst = NonZeroU32::new(burst.max(per_second)).unwrap_or(rate);
            RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst))
        });
        TokenLimits { buckets }
    }

    /// Counts one request of `session`.
    ///
    /// # Errors
    /// `rate_limited` when the session is over its rate.
    pub fn check(&self, session: Uuid) -> Result<(), Failure> {
        let Some(buckets) = &self.buckets else {
            return Ok(());
        };
        buckets.check_key(&session).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            Failure::rate_limited(
                "too many requests with this token; slow down",
                wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
            )
        })
    }

    /// Forgets the buckets that are full again (run now and then, so idle
    /// sessions take no memory).
    pub fn forget_idle(&self) {
        if let Some(buckets) = &self.buckets {
            buckets.retain_recent();
            buckets.shrink_to_fit();
        }
    }

    /// Forgets idle buckets every `every`, for as long as the process runs.
    pub async fn forget_idle_forever(limits: std::sync::Arc<Self>, every: Duration) {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            limits.forget_idle();
        }
    }
}

/// How many failed logins a window (15 minutes) allows before every login
/// answers `429 rate_limited` until the window ends (settings
/// `--login-account-failures`, 10, and `--login-address-failures`, 100:
/// generous, since many players share an address behind a carrier's NAT).
#[derive(Debug, Clone, Copy)]
pub struct LoginLimits {
    pub per_account: i32,
    pub per_address: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_over_its_burst_is_limited_and_others_are_not() {
        let limits = TokenLimits::new(1, 3);
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        for _ in 0..3 {
            assert!(limits.check(a).is_ok());
        }
        let refused = limits.check(a).unwrap_err();
        assert_eq!(refused.code(), crate::error::ErrorCode::RateLimited);
        assert!(limits.check(b).is_ok());
    }

    #[test]
    fn a_rate_of_zero_limits_nothing() {
        let limits = TokenLimits::new(0, 0);
        let a = Uuid::new_v4();
        for _ in 0..10_000 {
            assert!(limits.check(a).is_ok());
        }
    }
}

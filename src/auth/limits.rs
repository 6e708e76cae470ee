//! What a client may cost: request rates per access token, failed logins,
//! and the cost limits of `docs/limits.md` (their rules are pure here; the
//! counters shared by every process are in `db::throttle`).
//!
//! Request rates per access token: a generous token bucket per sign-in
//! session (GCRA, by the `governor` crate), so one client in a loop cannot
//! take the server from everyone else. Over the limit answers `429
//! rate_limited` with `Retry-After`, as failed logins do.
//!
//! The buckets live in each process: behind N processes a session may make
//! up to N times the rate, which is fine for a limit meant to stop runaway
//! clients. (Login throttling, which guards passwords, is shared through
//! PostgreSQL instead.)

pub use crate::rate::{Rule, Window};
use std::num::NonZeroU32;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
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

/// How failed logins are limited (see `docs/limits.md`): per account and
/// client address (`pair`, a fixed window), per client address (a fixed
/// window), and per account (`account`: rising delays, skipped from an
/// address the account signed in from lately). Every attempt is reserved
/// before its password is hashed; a success gives its reservation back.
#[derive(Debug, Clone, Copy)]
pub struct LoginLimits {
    pub pair: Rule,
    pub address: Rule,
    pub account: Rule,
}

/// The window of the login limits.
pub const LOGIN_WINDOW: TimeDelta = TimeDelta::minutes(15);

impl LoginLimits {
    /// The login limits of `settings`.
    #[must_use]
    pub fn from_settings(settings: &crate::config::Settings) -> Self {
        let limits = &settings.limits;
        LoginLimits {
            pair: Rule::Fixed {
                most: i32::try_from(limits.login_pair_failures).unwrap_or(i32::MAX),
                window: LOGIN_WINDOW,
            },
            address: Rule::Fixed {
                most: settings.login_address_failures,
                window: LOGIN_WINDOW,
            },
            account: Rule::Slowing {
                free: settings.login_account_failures.max(1),
                first: TimeDelta::seconds(i64::from(limits.login_account_delay_secs.max(1))),
                longest: TimeDelta::seconds(i64::from(limits.login_account_delay_max_secs.max(1))),
                quiet: LOGIN_WINDOW,
            },
        }
    }
}

/// Seconds from `now` until `until`, for `Retry-After` (at least 1).
#[must_use]
pub fn retry_after(until: DateTime<Utc>, now: DateTime<Utc>) -> u64 {
    let millis = u64::try_from((until - now).num_milliseconds()).unwrap_or(0);
    millis.div_ceil(1000).max(1)
}

/// What a user (or a client address) may cost the server; every number is
/// a setting (see `docs/limits.md`), 0 turning its limit off.
#[derive(Debug, Clone, Copy)]
pub struct CostLimits {
    /// Accounts registered from one client address an hour.
    pub registrations: Rule,
    /// Email confirmation codes requested from one client address an hour.
    pub codes_per_client: Rule,
    /// Email confirmation codes mailed to one email address a day.
    pub codes_per_mailbox: Rule,
    /// Games a user creates an hour.
    pub games: Rule,
    /// Games a user created that are open or active at once.
    pub games_at_once: i64,
    /// Of those, games with no human seat (bots only).
    pub bot_games_at_once: i64,
    /// Games a user holds a seat in, open or in play, at once (0: no cap).
    pub seats_at_once: i64,
    /// Seats of the strongest bot level in those games.
    pub strong_bots_at_once: i64,
    /// Invitations a user sends an hour that are mailed (beyond: listed only).
    pub invitations_sent: Rule,
    /// Invitations a user receives a day that are mailed (beyond: listed only).
    pub invitations_received: Rule,
    /// "Not accepted" mails to one seat of a game a day.
    pub refusal_mails: Rule,
    /// Talk messages a user posts in one game a minute.
    pub talk: Rule,
    /// Vacation one player may take over the last 365 days, in seconds (0: no cap).
    pub vacation_per_year_secs: i64,
}

impl CostLimits {
    /// The cost limits of `settings`.
    #[must_use]
    pub fn from_settings(s: &crate::config::LimitSettings) -> Self {
        CostLimits {
            registrations: Rule::per_hour(s.registrations_per_address),
            codes_per_client: Rule::per_hour(s.codes_per_address),
            codes_per_mailbox: Rule::per_day(s.codes_per_mailbox),
            games: Rule::per_hour(s.games_per_hour),
            games_at_once: i64::from(s.games_at_once),
            bot_games_at_once: i64::from(s.bot_games_at_once),
            seats_at_once: i64::from(s.seats_at_once),
            strong_bots_at_once: i64::from(s.strong_bots_at_once),
            invitations_sent: Rule::per_hour(s.invitations_per_hour),
            invitations_received: Rule::per_day(s.invitations_received_per_day),
            refusal_mails: Rule::per_day(s.refusal_mails_per_seat),
            talk: Rule::per_minute(s.talk_per_minute),
            vacation_per_year_secs: i64::from(s.vacation_days_per_year) * 86_400,
        }
    }
}

/// How long a key of [`Rule`] `rule` must be kept after its last use.
#[must_use]
pub fn keep_for(rule: &Rule) -> TimeDelta {
    match *rule {
        Rule::Fixed { window, .. } => window,
        Rule::Slowing { quiet, .. } => quiet,
    }
}

/// Streams and long polls open at once: per client address without a
/// token, per user with one. Counted in each process (like the token
/// rates): behind N processes, N times as many.
pub struct OpenStreams {
    per_address: usize,
    per_user: usize,
    open: std::sync::Mutex<std::collections::HashMap<StreamKey, usize>>,
}

/// Whose open streams are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamKey {
    Address(std::net::IpAddr),
    User(Uuid),
}

/// One open stream or long poll, counted until dropped.
pub struct StreamHeld {
    streams: std::sync::Arc<OpenStreams>,
    key: StreamKey,
}

impl OpenStreams {
    /// At most `per_address` anonymous and `per_user` signed-in streams at
    /// once (0: no limit).
    #[must_use]
    pub fn new(per_address: usize, per_user: usize) -> Self {
        OpenStreams {
            per_address,
            per_user,
            open: std::sync::Mutex::default(),
        }
    }

    /// Counts one more stream of `key` while the answer lives.
    ///
    /// # Errors
    /// `limit_reached` (`Retry-After: 5`) when `key` has as many as it may.
    pub fn open(
        streams: &std::sync::Arc<Self>,
        key: StreamKey,
    ) -> Result<Option<StreamHeld>, Failure> {
        let most = match key {
            StreamKey::Address(_) => streams.per_address,
            StreamKey::User(_) => streams.per_user,
        };
        if most == 0 {
            return Ok(None);
        }
        let mut open = streams
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = open.entry(key).or_insert(0);
        if *count >= most {
            let whose = match key {
                StreamKey::Address(_) => "from this address without a token",
                StreamKey::User(_) => "for this account",
            };
            return Err(Failure::limit_reached(
                format!("at most {most} streams and long polls may be open at once {whose}"),
                5,
            ));
        }
        *count += 1;
        Ok(Some(StreamHeld {
            streams: std::sync::Arc::clone(streams),
            key,
        }))
    }

    /// How many streams of `key` are open.
    #[must_use]
    pub fn count(&self, key: StreamKey) -> usize {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
            .copied()
            .unwrap_or(0)
    }
}

impl Drop for StreamHeld {
    fn drop(&mut self) {
        let mut open = self
            .streams
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
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

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_900_000_000 + secs, 0).unwrap()
    }

    /// Uses `rule` at each of `times` (seconds), from an empty window; what
    /// each use answered (`None`: admitted; `Some(s)`: refused until `s`).
    fn uses(rule: Rule, times: &[i64]) -> Vec<Option<i64>> {
        let mut window = Window::empty(at(0));
        times
            .iter()
            .map(|&t| match rule.admit(window, at(t)) {
                Ok(next) => {
                    window = next;
                    None
                }
                Err(until) => Some((until - at(0)).num_seconds()),
            })
            .collect()
    }

    #[test]
    fn a_fixed_window_admits_its_most_then_refuses_until_it_ends() {
        // Given at most 3 an hour, when 5 uses come in the first minute and
        // one after the hour, then the 4th and 5th wait for the window's
        // end (an hour after the first), and the last starts a new window.
        let rule = Rule::per_hour(3);
        assert_eq!(
            uses(rule, &[10, 20, 30, 40, 50, 3610, 3611]),
            [None, None, None, Some(3610), Some(3610), None, None]
        );
    }

    #[test]
    fn a_rule_of_zero_admits_everything() {
        let rule = Rule::per_hour(0);
        assert!(!rule.limits());
        assert!(uses(rule, &[1; 100]).iter().all(Option::is_none));
    }

    #[test]
    fn slowing_admits_its_free_uses_then_doubles_the_wait() {
        // Given 2 free uses, then waits of 1 s doubling to at most 4 s …
        let rule = Rule::Slowing {
            free: 2,
            first: TimeDelta::seconds(1),
            longest: TimeDelta::seconds(4),
            quiet: TimeDelta::minutes(15),
        };
        // … uses at once: two admitted, the third waits a second after the
        // second; then 2 s, then 4 s, and never more than 4 s.
        assert_eq!(
            uses(rule, &[0, 0, 0, 1, 2, 3, 4, 7, 10, 11, 15]),
            [
                None,
                None,
                Some(1),
                None,
                Some(3),
                None,
                Some(7),
                None,
                Some(11),
                None,
                None
            ]
        );
        // A quiet quarter of an hour starts afresh.
        assert_eq!(uses(rule, &[0, 0, 900, 900]), [None, None, None, None]);
    }

    #[test]
    fn a_released_use_is_given_back() {
        let rule = Rule::per_hour(1);
        let window = rule.admit(Window::empty(at(0)), at(0)).unwrap();
        assert!(rule.admit(window, at(1)).is_err());
        assert!(rule.admit(Rule::release(window), at(1)).is_ok());
        assert_eq!(retry_after(at(10), at(0)), 10);
        assert_eq!(retry_after(at(0), at(10)), 1);
    }

    #[test]
    fn streams_are_counted_per_key_until_dropped() {
        let streams = std::sync::Arc::new(OpenStreams::new(2, 1));
        let address = StreamKey::Address("203.0.113.1".parse().unwrap());
        let (a, b) = (
            OpenStreams::open(&streams, address).unwrap(),
            OpenStreams::open(&streams, address).unwrap(),
        );
        let refused = OpenStreams::open(&streams, address).err().unwrap();
        assert_eq!(refused.code, crate::error::ErrorCode::LimitReached);
        assert_eq!(refused.retry_after, Some(5));
        let user = StreamKey::User(Uuid::from_u128(1));
        let mine = OpenStreams::open(&streams, user).unwrap();
        assert!(OpenStreams::open(&streams, user).is_err());
        drop(a);
        assert_eq!(streams.count(address), 1);
        assert!(OpenStreams::open(&streams, address).is_ok());
        drop((b, mine));
        assert_eq!(streams.count(user), 0);
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

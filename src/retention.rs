//! Retention: what clients no longer need is pruned, so storage stays
//! bounded by the load of the last few weeks, not by the server's age.
//!
//! Rules (settings in brackets, with their defaults):
//! - An `Idempotency-Key` answers its stored response for 24 hours
//!   (`--idempotency-ttl-hours`); after that the same key is a new request,
//!   as payment APIs promise. An expired key is treated as absent at once,
//!   pruned or not.
//! - Notifications are kept 30 days (`--notification-retention-days`), with
//!   their webhook deliveries. A client that resumes a notification list or
//!   stream from an id that may have been pruned gets `410 cursor_expired`
//!   (refetch from the start), never a silent gap.
//! - Finished webhook deliveries (delivered or failed) are kept 7 days
//!   (`--delivery-retention-days`).
//! - Sessions are kept 7 days after they expire or are signed out.
//! - Games over for 30 days (`--archive-after-days`) are archived: their
//!   record moves into one compressed row (see `games/archive_old.rs`; `games/read_archived.rs` reads it back).
//! - Events written before events were compacted are converted, a batch at
//!   a time (see `db::retention::compact_events`).
//!
//! Every process prunes every `--prune-tick-ms` (60 s; 0: never) in batches
//! of [`BATCH`] rows that skip locked rows, so processes share the work and
//! never wait on each other or on a command.

use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

use crate::config::RetentionSettings;
use crate::db::retention::Expiring;

/// Rows pruned by one statement.
pub const BATCH: i64 = 1_000;

/// The pause between two full batches: a backlog is pruned at some
/// thousands of rows a second per process, not as fast as PostgreSQL can
/// delete, so commands keep most of the database meanwhile.
pub const BATCH_PAUSE: Duration = Duration::from_millis(100);

/// How long sessions are kept after they end.
pub const SESSION_RETENTION: TimeDelta = TimeDelta::days(7);

/// The longest any retention may be set to (ten years).
const MOST_DAYS: u32 = 3_650;

/// How long each kind of row is kept.
#[derive(Debug, Clone, Copy)]
pub struct Retention {
    pub idempotency: TimeDelta,
    pub notifications: TimeDelta,
    pub deliveries: TimeDelta,
    pub archive_after: TimeDelta,
    /// How often this process prunes (`None`: never).
    pub tick: Option<Duration>,
}

impl Retention {
    /// How long rows of `what` are kept after they expire.
    #[must_use]
    pub fn kept(&self, what: Expiring) -> TimeDelta {
        match what {
            Expiring::IdempotencyKeys => self.idempotency,
            Expiring::Notifications => self.notifications,
            Expiring::Deliveries => self.deliveries,
            Expiring::Sessions => SESSION_RETENTION,
        }
    }

    /// The retention the settings ask for.
    ///
    /// # Errors
    /// A message naming the setting, for a value out of bounds (at least 1
    /// hour or day, at most ten years).
    pub fn from_settings(settings: &RetentionSettings) -> Result<Self, String> {
        let check = |flag: &str, value: u32, most: u32| {
            if (1..=most).contains(&value) {
                Ok(i64::from(value))
            } else {
                Err(format!(
                    "--{flag} must be between 1 and {most} (got {value})"
                ))
            }
        };
        Ok(Retention {
            idempotency: TimeDelta::hours(check(
                "idempotency-ttl-hours",
                settings.idempotency_ttl_hours,
                MOST_DAYS * 24,
            )?),
            notifications: TimeDelta::days(check(
                "notification-retention-days",
                settings.notification_retention_days,
                MOST_DAYS,
            )?),
            deliveries: TimeDelta::days(check(
                "delivery-retention-days",
                settings.delivery_retention_days,
                MOST_DAYS,
            )?),
            archive_after: TimeDelta::days(check(
                "archive-after-days",
                settings.archive_after_days,
                MOST_DAYS,
            )?),
            tick: (settings.prune_tick_ms > 0)
                .then(|| Duration::from_millis(settings.prune_tick_ms)),
        })
    }

    /// Whether something stored at `at` has expired by `now` as an
    /// idempotency key.
    #[must_use]
    pub fn key_expired(&self, at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
        at <= now - self.idempotency
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> RetentionSettings {
        RetentionSettings {
            idempotency_ttl_hours: 24,
            notification_retention_days: 30,
            delivery_retention_days: 7,
            archive_after_days: 30,
            prune_tick_ms: 60_000,
        }
    }

    #[test]
    fn the_defaults_are_valid() {
        let retention = Retention::from_settings(&settings()).unwrap();
        assert_eq!(retention.idempotency, TimeDelta::hours(24));
        assert_eq!(retention.notifications, TimeDelta::days(30));
        assert_eq!(retention.deliveries, TimeDelta::days(7));
        assert_eq!(retention.tick, Some(Duration::from_secs(60)));
    }

    #[test]
    fn each_setting_out_of_bounds_is_refused_by_name() {
        type Spoil = fn(&mut RetentionSettings);
        let cases: [(Spoil, &str); 4] = [
            (|s| s.idempotency_ttl_hours = 0, "--idempotency-ttl-hours"),
            (
                |s| s.notification_retention_days = 0,
                "--notification-retention-days",
            ),
            (
                |s| s.delivery_retention_days = 0,
                "--delivery-retention-days",
            ),
            (
                |s| s.notification_retention_days = 3_651,
                "--notification-retention-days",
            ),
        ];
        for (spoil, flag) in cases {
            let mut s = settings();
            spoil(&mut s);
            let message = Retention::from_settings(&s).unwrap_err();
            assert!(message.starts_with(flag), "{message}");
        }
    }

    #[test]
    fn a_key_expires_after_its_ttl() {
        let retention = Retention::from_settings(&settings()).unwrap();
        let now = Utc::now();
        assert!(!retention.key_expired(now - TimeDelta::hours(23), now));
        assert!(retention.key_expired(now - TimeDelta::hours(24), now));
    }
}

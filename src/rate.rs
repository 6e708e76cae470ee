//! A rate rule, pure: how many uses one key may make and how they are
//! spread over time ([`Rule`]), and the uses counted so far ([`Window`]).
//! `auth::limits` says which keys have which rules; `db::throttle` counts
//! the uses in PostgreSQL, asking the rule in the same transaction.

use chrono::{DateTime, TimeDelta, Utc};

/// The most one key may use, and how its uses are spread over time. A rule
/// of at most 0 (`Fixed { most: 0 }`) limits nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// At most `most` uses in a window that starts at the first use and
    /// lasts `window`; once it has passed, the next use starts a new one.
    Fixed { most: i32, window: TimeDelta },
    /// `free` uses at any pace; after them, each use must wait after the
    /// one before it: `first`, then twice as long each time, at most
    /// `longest`. A pause of `quiet` since the last use starts afresh.
    Slowing {
        free: i32,
        first: TimeDelta,
        longest: TimeDelta,
        quiet: TimeDelta,
    },
}

/// The uses of one key: since `start`, `used` of them, the last at `last`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub start: DateTime<Utc>,
    pub used: i32,
    pub last: DateTime<Utc>,
}

impl Window {
    /// A window with no use yet.
    #[must_use]
    pub fn empty(now: DateTime<Utc>) -> Self {
        Window {
            start: now,
            used: 0,
            last: now,
        }
    }
}

impl Rule {
    /// A fixed window of `most` uses an hour.
    #[must_use]
    pub fn per_hour(most: u32) -> Self {
        Rule::Fixed {
            most: i32::try_from(most).unwrap_or(i32::MAX),
            window: TimeDelta::hours(1),
        }
    }

    /// A fixed window of `most` uses a minute.
    #[must_use]
    pub fn per_minute(most: u32) -> Self {
        Rule::Fixed {
            most: i32::try_from(most).unwrap_or(i32::MAX),
            window: TimeDelta::minutes(1),
        }
    }

    /// A fixed window of `most` uses a day.
    #[must_use]
    pub fn per_day(most: u32) -> Self {
        Rule::Fixed {
            most: i32::try_from(most).unwrap_or(i32::MAX),
            window: TimeDelta::days(1),
        }
    }

    /// Whether the rule limits anything.
    #[must_use]
    pub fn limits(&self) -> bool {
        match *self {
            Rule::Fixed { most, .. } => most > 0,
            Rule::Slowing { .. } => true,
        }
    }

    /// One more use of `window` at `now`: the window after it, or when
    /// such a use may come.
    ///
    /// # Errors
    /// The time from which the use would be allowed.
    pub fn admit(&self, window: Window, now: DateTime<Utc>) -> Result<Window, DateTime<Utc>> {
        match *self {
            Rule::Fixed { most, window: span } => {
                if most <= 0 {
                    return Ok(window);
                }
                if window.used == 0 || window.start + span <= now {
                    return Ok(Window {
                        start: now,
                        used: 1,
                        last: now,
                    });
                }
                if window.used >= most {
                    return Err(window.start + span);
                }
                Ok(Window {
                    used: window.used + 1,
                    last: now,
                    ..window
                })
            }
            Rule::Slowing {
                free,
                first,
                longest,
                quiet,
            } => {
                if window.used == 0 || window.last + quiet <= now {
                    return Ok(Window {
                        start: now,
                        used: 1,
                        last: now,
                    });
                }
                if window.used >= free {
                    let doublings = u32::try_from(window.used - free).unwrap_or(0).min(30);
                    let delay = first
                        .checked_mul(1 << doublings.min(20))
                        .unwrap_or(longest)
                        .min(longest);
                    let from = window.last + delay;
                    if from > now {
                        return Err(from);
                    }
                }
                Ok(Window {
                    used: window.used + 1,
                    last: now,
                    ..window
                })
            }
        }
    }

    /// Gives one use of `window` back (a login that succeeded).
    #[must_use]
    pub fn release(window: Window) -> Window {
        Window {
            used: (window.used - 1).max(0),
            ..window
        }
    }
}

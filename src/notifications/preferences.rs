//! A user's notification preferences (docs/push.md): which kinds each
//! channel leaves out, quiet hours for pushes, and how long before a clock
//! runs out the reminder comes. Pure: the checks of a change and the
//! reckoning of quiet hours.
//!
//! Rules:
//! - Channels: `push` (every registered device, whatever its service),
//!   `email`, `webhooks` (`unknown_channel` else). Kinds: `your_turn`,
//!   `reminder`, `invited`, `game_finished`, `talk`, `takeback_offered`,
//!   `seat_substituted`, `tournament_round`, `tournament_finished`
//!   (`unknown_notification_kind` else). A kind left out of a channel is
//!   not queued on it; the feed (`/v1/me/notifications`) keeps everything.
//!   Webhooks get no `reminder` (it is no notification), so leaving it out
//!   there changes nothing.
//! - Quiet hours are `start` and `end` as `HH:MM` on the user's clock
//!   (their `time_zone` setting; UTC when none), from `start` up to but not
//!   including `end`, across midnight when `end` is earlier; `start` equal
//!   to `end` is refused (`invalid_quiet_hours`). A push due in them is held
//!   until they end, on the local calendar (so across a change of daylight
//!   saving time it ends at the same local time; an end that the change
//!   skips is the first instant after the gap). Mail and webhooks have no
//!   quiet hours: mail has its digest, a webhook is a program's.
//! - The reminder comes `reminder_before_minutes` (5 to 10,080, a week;
//!   `invalid_duration` else) before the deadline, or when a quarter of the
//!   turn's time is left when none is chosen; a lead as long as the turn or
//!   longer sends none.
//! - A change is checked whole before anything is written.

use std::collections::BTreeMap;

use chrono::{DateTime, Days, NaiveTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ErrorCode, Failure};
use crate::notifications::kind::Kind;

/// The channels preferences are about.
pub const CHANNELS: [&str; 3] = ["push", "email", "webhooks"];

/// The kinds a user may leave out.
pub const KINDS: [Kind; 9] = [
    Kind::YourTurn,
    Kind::Reminder,
    Kind::Invited,
    Kind::GameFinished,
    Kind::Talk,
    Kind::TakebackOffered,
    Kind::SeatSubstituted,
    Kind::TournamentRound,
    Kind::TournamentFinished,
];

/// The shortest and longest reminder lead, in minutes.
pub const LEAD_MINUTES: std::ops::RangeInclusive<i32> = 5..=10_080;

/// Quiet hours on the user's clock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuietHours {
    /// When they begin, `HH:MM` (24-hour clock).
    #[schema(example = "22:00")]
    pub start: String,
    /// When they end, `HH:MM`; earlier than `start`: the next day.
    #[schema(example = "07:30")]
    pub end: String,
}

/// A user's notification preferences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "off": {"push": ["talk"], "email": ["your_turn", "reminder"], "webhooks": []},
    "quiet_hours": {"start": "22:00", "end": "07:30"},
    "reminder_before_minutes": 120
}))]
pub struct NotificationPreferences {
    /// Per channel (`push`, `email`, `webhooks`), the kinds it leaves out.
    pub off: BTreeMap<String, Vec<String>>,
    /// When pushes wait, on the user's clock; null: never.
    pub quiet_hours: Option<QuietHours>,
    /// How long before a clock runs out the reminder comes, in minutes;
    /// null: when a quarter of the turn's time is left.
    #[schema(example = 120)]
    pub reminder_before_minutes: Option<i32>,
}

/// A change of preferences: what is absent stays.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"off": {"push": ["talk", "game_finished"]}, "quiet_hours": {"start": "23:00", "end": "07:00"}, "reminder_before_minutes": 60}))]
pub struct PreferencesChange {
    /// Per channel named, the kinds it leaves out from now on (the whole
    /// list; a channel not named stays as it is).
    #[serde(default)]
    pub off: Option<BTreeMap<String, Vec<String>>>,
    /// New quiet hours; `null`: none.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<QuietHours>, nullable)]
    pub quiet_hours: Option<Option<QuietHours>>,
    /// Minutes (5 to 10,080); `null`: a quarter of the turn's time.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>, nullable, example = 60)]
    pub reminder_before_minutes: Option<Option<i64>>,
}

/// A member that is present, `null` or not: `Some(None)` for `null`.
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// A checked change, ready to store.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Checked {
    /// New lists for `push`, `email`, `webhooks` (None: unchanged).
    pub off: [Option<Vec<String>>; 3],
    /// New quiet hours as minutes of the day (`Some(None)`: none).
    pub quiet: Option<Option<(i16, i16)>>,
    /// New reminder lead (`Some(None)`: a quarter of the turn's time).
    pub lead: Option<Option<i32>>,
}

/// Minutes of the day of `HH:MM`.
#[must_use]
pub fn minutes(text: &str) -> Option<i16> {
    let (h, m) = text.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (i16, i16) = (h.parse().ok()?, m.parse().ok()?);
    ((0..24).contains(&h) && (0..60).contains(&m)).then_some(h * 60 + m)
}

/// `HH:MM` of minutes of the day.
#[must_use]
pub fn clock(minutes: i16) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// Checks `change` (see the module's rules).
///
/// # Errors
/// `unknown_channel`, `unknown_notification_kind`, `invalid_quiet_hours`,
/// `invalid_duration`.
pub fn check(change: &PreferencesChange) -> Result<Checked, Failure> {
    let mut checked = Checked::default();
    for (channel, kinds) in change.off.iter().flatten() {
        let Some(at) = CHANNELS.iter().position(|c| c == channel) else {
            return Err(Failure::new(
                ErrorCode::UnknownChannel,
                format!("unknown channel {channel:?}: push, email or webhooks"),
            ));
        };
        let mut list = Vec::new();
        for kind in kinds {
            if !KINDS.iter().any(|k| k.as_str() == kind) {
                return Err(Failure::new(
                    ErrorCode::UnknownNotificationKind,
                    format!(
                        "unknown kind {kind:?}: {}",
                        KINDS.map(Kind::as_str).join(", ")
                    ),
                ));
            }
            if !list.contains(kind) {
                list.push(kind.clone());
            }
        }
        checked.off[at] = Some(list);
    }
    checked.quiet = match &change.quiet_hours {
        None => None,
        Some(None) => Some(None),
        Some(Some(hours)) => {
            let bad = |why: &str| Failure::new(ErrorCode::InvalidQuietHours, why.to_owned());
            let start = minutes(&hours.start).ok_or_else(|| bad("start must be HH:MM"))?;
            let end = minutes(&hours.end).ok_or_else(|| bad("end must be HH:MM"))?;
            if start == end {
                return Err(bad("start and end must differ"));
            }
            Some(Some((start, end)))
        }
    };
    checked.lead = match change.reminder_before_minutes {
        None => None,
        Some(None) => Some(None),
        Some(Some(lead)) => Some(Some(
            i32::try_from(lead)
                .ok()
                .filter(|l| LEAD_MINUTES.contains(l))
                .ok_or_else(|| {
                    Failure::new(
                        ErrorCode::InvalidDuration,
                        "reminder_before_minutes must be 5 to 10080 (a week)",
                    )
                })?,
        )),
    };
    Ok(checked)
}

/// When quiet hours `start..end` (minutes of the day in `zone`) that hold
/// `now` end; `None` when `now` is not in them.
#[must_use]
pub fn quiet_until(now: DateTime<Utc>, zone: Tz, start: i16, end: i16) -> Option<DateTime<Utc>> {
    let local = now.with_timezone(&zone);
    let minute = i16::try_from(local.hour() * 60 + local.minute()).ok()?;
    let within = if start < end {
        (start..end).contains(&minute)
    } else {
        minute >= start || minute < end
    };
    if !within {
        return None;
    }
    // The end is today, unless it comes after midnight and it is not yet midnight.
    let date = if minute < end {
        local.date_naive()
    } else {
        local.date_naive().checked_add_days(Days::new(1))?
    };
    let at = NaiveTime::from_hms_opt(
        u32::try_from(end / 60).ok()?,
        u32::try_from(end % 60).ok()?,
        0,
    )?;
    let naive = date.and_time(at);
    let instant = zone.from_local_datetime(&naive).earliest().or_else(|| {
        // An end the clocks skip: the first local instant after the gap.
        (1..=180).find_map(|m| {
            zone.from_local_datetime(&(naive + chrono::TimeDelta::minutes(m)))
                .earliest()
        })
    })?;
    Some(instant.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).unwrap().to_utc()
    }

    const PARIS: Tz = chrono_tz::Europe::Paris;

    #[test]
    fn a_push_at_night_waits_for_the_morning_on_the_users_clock() {
        // Given quiet hours 22:00 to 07:30 in Paris (UTC+1 in January),
        let (start, end) = (minutes("22:00").unwrap(), minutes("07:30").unwrap());
        // when a push is due at 23:10 Paris time, then it waits until 07:30 the next day;
        assert_eq!(
            quiet_until(utc("2027-01-10T22:10:00Z"), PARIS, start, end),
            Some(utc("2027-01-11T06:30:00Z"))
        );
        // at 05:00 the same morning's 07:30;
        assert_eq!(
            quiet_until(utc("2027-01-11T04:00:00Z"), PARIS, start, end),
            Some(utc("2027-01-11T06:30:00Z"))
        );
        // at 07:30 and at 21:59 it goes at once.
        assert_eq!(
            quiet_until(utc("2027-01-11T06:30:00Z"), PARIS, start, end),
            None
        );
        assert_eq!(
            quiet_until(utc("2027-01-11T20:59:00Z"), PARIS, start, end),
            None
        );
    }

    #[test]
    fn quiet_hours_within_a_day_and_across_daylight_saving_time() {
        // Given quiet hours 13:00 to 15:00 in UTC,
        let (start, end) = (13 * 60, 15 * 60);
        assert_eq!(
            quiet_until(utc("2027-03-01T14:00:00Z"), chrono_tz::UTC, start, end),
            Some(utc("2027-03-01T15:00:00Z"))
        );
        assert_eq!(
            quiet_until(utc("2027-03-01T12:59:00Z"), chrono_tz::UTC, start, end),
            None
        );
        // Given 01:00 to 02:30 in Paris on the night the clocks skip 02:00-03:00,
        // then the end is the first instant after the gap (03:00 CEST = 01:00 UTC).
        assert_eq!(
            quiet_until(utc("2027-03-28T00:30:00Z"), PARIS, 60, 150),
            Some(utc("2027-03-28T01:00:00Z"))
        );
        // Across the autumn change the end stays at 07:00 local (UTC+1 from then).
        assert_eq!(
            quiet_until(utc("2027-10-30T21:00:00Z"), PARIS, 22 * 60, 7 * 60),
            Some(utc("2027-10-31T06:00:00Z"))
        );
    }

    #[test]
    fn changes_are_checked_whole() {
        let change = |v: serde_json::Value| serde_json::from_value::<PreferencesChange>(v).unwrap();
        let code = |v: serde_json::Value| check(&change(v)).unwrap_err().code;
        assert_eq!(
            code(serde_json::json!({"off": {"sms": []}})),
            ErrorCode::UnknownChannel
        );
        assert_eq!(
            code(serde_json::json!({"off": {"push": ["your_turn", "confirm_address"]}})),
            ErrorCode::UnknownNotificationKind
        );
        for hours in [
            serde_json::json!({"start": "24:00", "end": "07:00"}),
            serde_json::json!({"start": "7:00", "end": "08:00"}),
            serde_json::json!({"start": "22:00", "end": "22:00"}),
            serde_json::json!({"start": "22:00", "end": "07:60"}),
        ] {
            assert_eq!(
                code(serde_json::json!({"quiet_hours": hours})),
                ErrorCode::InvalidQuietHours
            );
        }
        for lead in [4, 10_081, -1] {
            assert_eq!(
                code(serde_json::json!({"reminder_before_minutes": lead})),
                ErrorCode::InvalidDuration
            );
        }
        let checked = check(&change(serde_json::json!({
            "off": {"email": ["talk", "talk"]},
            "quiet_hours": {"start": "23:15", "end": "06:00"},
            "reminder_before_minutes": null
        })))
        .unwrap();
        assert_eq!(
            checked,
            Checked {
                off: [None, Some(vec!["talk".into()]), None],
                quiet: Some(Some((23 * 60 + 15, 360))),
                lead: Some(None),
            }
        );
        assert_eq!(clock(23 * 60 + 15), "23:15");
    }
}

//! The server-level options of a game — its clock — and ISO 8601 durations.
//!
//! `options.turn_timeout` (none by default), `options.on_timeout`
//! (`autoplay`, the default, or `forfeit`), `options.max_vacation` (`P7D`)
//! and `options.abandon_after` (3 consecutive timeouts; 0 never) are taken
//! out of a new game's options before the ruleset sees them, like `seed`,
//! and shown back in the game's `options`. So are `options.autoplay_level`
//! (the level the server plays a timed-out turn at: `random`, the default,
//! `greedy` or `ismcts`), `options.humans_only` (no bots may sit) and
//! `options.rated` (rated or casual; docs/ratings.md).

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use hatstand_engine::bots::Level;

use crate::error::{ErrorCode, Failure};

/// The longest duration accepted anywhere: 366 days.
pub const MAX_SECONDS: u64 = 366 * 86_400;

/// Parses the ISO 8601 duration subset `PnDTnHnMnS` (also `PnW` alone) into
/// seconds: non-negative integers, each unit at most once and in order, at
/// least one unit, `T` only before a time unit. `PT24H` is 86400.
///
/// # Errors
/// A message saying what is wrong.
pub fn parse_duration(text: &str) -> Result<u64, String> {
    let bad = || format!("{text:?} is not an ISO 8601 duration such as PT24H or P1DT12H");
    let rest = text.strip_prefix('P').ok_or_else(bad)?;
    if let Some(weeks) = rest.strip_suffix('W') {
        let n: u64 = digits(weeks).ok_or_else(bad)?;
        return checked(n.checked_mul(7 * 86_400), text);
    }
    let (date, time) = match rest.split_once('T') {
        Some((d, t)) if !t.is_empty() => (d, Some(t)),
        Some(_) => return Err(bad()),
        None => (rest, None),
    };
    let mut total: u64 = 0;
    let mut units = 0;
    let mut add = |part: &str, allowed: &[(char, u64)]| -> Result<(), String> {
        let mut rest = part;
        let mut next_unit = 0;
        while !rest.is_empty() {
            let end = rest.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
            let n: u64 = digits(&rest[..end]).ok_or_else(bad)?;
            let unit = rest[end..].chars().next().ok_or_else(bad)?;
            let index = allowed[next_unit..]
                .iter()
                .position(|(u, _)| *u == unit)
                .ok_or_else(bad)?
                + next_unit;
            next_unit = index + 1;
            let secs = n.checked_mul(allowed[index].1).ok_or_else(bad)?;
            total = total.checked_add(secs).ok_or_else(bad)?;
            units += 1;
            rest = &rest[end + unit.len_utf8()..];
        }
        Ok(())
    };
    add(date, &[('D', 86_400)])?;
    if let Some(time) = time {
        add(time, &[('H', 3600), ('M', 60), ('S', 1)])?;
    }
    if units == 0 {
        return Err(bad());
    }
    checked(Some(total), text)
}

fn digits(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 12 {
        return None;
    }
    s.parse().ok()
}

fn checked(secs: Option<u64>, text: &str) -> Result<u64, String> {
    match secs {
        Some(s) if s <= MAX_SECONDS => Ok(s),
        _ => Err(format!("{text:?} is longer than 366 days")),
    }
}

/// What happens to a seat whose time runs out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// The server plays one of the seat's legal commands, chosen from the
    /// game's randomness (`stream("autoplay", version)`).
    #[default]
    Autoplay,
    /// The seat is out (`player_resigned` with reason `timeout`).
    Forfeit,
}

/// The server-level options of a game, as stored and shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ServerOptions {
    /// The time each turn may take (an ISO 8601 duration, e.g. `PT24H`), or none.
    #[serde(default)]
    pub turn_timeout: Option<String>,
    #[serde(default)]
    pub on_timeout: OnTimeout,
    /// The most vacation each seat may take over the game.
    #[serde(default = "default_max_vacation")]
    pub max_vacation: String,
    /// Consecutive timeouts after which the seat is out (`inactive`); 0: never.
    #[serde(default = "default_abandon_after")]
    #[schema(format = Int64, maximum = 4_294_967_295_u64)]
    pub abandon_after: u32,
    /// The level the server plays a timed-out turn at (with `on_timeout:
    /// autoplay`): `random` (default), `greedy` or `ismcts`, shown the
    /// seat's view only; recorded and replayed by `verify` like any autoplay.
    #[serde(default = "default_level")]
    #[schema(value_type = hatstand_engine::bots::Level)]
    pub autoplay_level: Level,
    /// No bots: neither built-in bots nor players' bot accounts may sit.
    #[serde(default)]
    pub humans_only: bool,
    /// Who may watch: `public` (anyone; listed), `link` (anyone with the
    /// game's address) or `players` (its players, creator and invitees);
    /// by default `players` for a private game, else `public`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spectators: Option<super::watchers::Spectators>,
    /// Rated or casual (docs/ratings.md). Unset: rated when the game is
    /// public and no seat is a bot, casual otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// Seeking by strength: the lowest rating (in the game's pool) that may
    /// join; a newcomer counts at the method's start (1500, or 25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_min: Option<f64>,
    /// The highest rating that may join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_max: Option<f64>,
}

fn default_level() -> Level {
    Level::Random
}

fn default_max_vacation() -> String {
    "P7D".to_owned()
}

fn default_abandon_after() -> u32 {
    3
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            turn_timeout: None,
            on_timeout: OnTimeout::Autoplay,
            max_vacation: default_max_vacation(),
            abandon_after: default_abandon_after(),
            autoplay_level: Level::Random,
            humans_only: false,
            spectators: None,
            rated: None,
            rating_min: None,
            rating_max: None,
        }
    }
}

/// The names of the server-level options.
pub const NAMES: [&str; 10] = [
    "turn_timeout",
    "on_timeout",
    "max_vacation",
    "abandon_after",
    "autoplay_level",
    "humans_only",
    "spectators",
    "rated",
    "rating_min",
    "rating_max",
];

impl ServerOptions {
    /// Takes the server-level options out of a new game's `options`.
    ///
    /// # Errors
    /// `invalid_options`.
    pub fn take(options: &mut Map<String, Value>) -> Result<Self, Failure> {
        let mut mine = Map::new();
        for name in NAMES {
            if let Some(value) = options.remove(name)
                && !value.is_null()
            {
                mine.insert(name.to_owned(), value);
            }
        }
        if let Some(level) = mine.get("autoplay_level")
            && level.as_str().is_none_or(|l| l.parse::<Level>().is_err())
        {
            return Err(Failure::new(
                ErrorCode::UnknownBotLevel,
                format!("autoplay_level {level} is not a bot level: random, greedy or ismcts"),
            ));
        }
        let parsed: ServerOptions = serde_json::from_value(Value::Object(mine))
            .map_err(|e| Failure::invalid_options(format!("options: {e}")))?;
        if let Some(t) = &parsed.turn_timeout {
            let secs = parse_duration(t)
                .map_err(|e| Failure::invalid_options(format!("turn_timeout: {e}")))?;
            if secs == 0 {
                return Err(Failure::invalid_options(
                    "turn_timeout must be at least one second",
                ));
            }
        }
        parse_duration(&parsed.max_vacation)
            .map_err(|e| Failure::invalid_options(format!("max_vacation: {e}")))?;
        let range = [parsed.rating_min, parsed.rating_max];
        if range
            .iter()
            .flatten()
            .any(|r| !(0.0..=10_000.0).contains(r))
            || matches!(range, [Some(lo), Some(hi)] if lo > hi)
        {
            return Err(Failure::invalid_options(
                "rating_min and rating_max must be 0 to 10000, rating_min at most rating_max",
            ));
        }
        Ok(parsed)
    }

    /// The stored options of a game (defaults for games without any).
    #[must_use]
    pub fn of(stored: &Value) -> Self {
        serde_json::from_value(stored.clone()).unwrap_or_default()
    }

    /// The turn timeout.
    #[must_use]
    pub fn turn_timeout(&self) -> Option<TimeDelta> {
        self.turn_timeout
            .as_deref()
            .and_then(|t| parse_duration(t).ok())
            .and_then(|s| TimeDelta::try_seconds(i64::try_from(s).ok()?))
    }

    /// The vacation allowance of each seat, in seconds.
    #[must_use]
    pub fn max_vacation_secs(&self) -> u64 {
        parse_duration(&self.max_vacation).unwrap_or(0)
    }

    /// The deadline of a turn that starts `at`.
    #[must_use]
    pub fn deadline_from(&self, at: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.turn_timeout().and_then(|t| at.checked_add_signed(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn durations_parse_in_the_iso_subset() {
        assert_eq!(parse_duration("PT24H"), Ok(86_400));
        assert_eq!(parse_duration("PT1S"), Ok(1));
        assert_eq!(parse_duration("P1DT12H"), Ok(129_600));
        assert_eq!(parse_duration("P7D"), Ok(604_800));
        assert_eq!(parse_duration("PT1H30M5S"), Ok(5405));
        assert_eq!(parse_duration("P2W"), Ok(1_209_600));
        assert_eq!(parse_duration("PT0S"), Ok(0));
        for bad in [
            "",
            "P",
            "PT",
            "24H",
            "PT24",
            "PTH",
            "P1H",
            "PT1D",
            "PT1M1H",
            "PT1H1H",
            "P-1D",
            "PT1.5S",
            "pt1h",
            "P1DT",
            "P400D",
            "PT99999999999999S",
            "P1W1D",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn server_options_are_taken_out_with_defaults() {
        let mut options = json!({"turn_timeout": "PT1H", "rounds": 2})
            .as_object()
            .cloned()
            .unwrap();
        let taken = ServerOptions::take(&mut options).unwrap();
        assert_eq!(options, json!({"rounds": 2}).as_object().cloned().unwrap());
        assert_eq!(taken.turn_timeout.as_deref(), Some("PT1H"));
        assert_eq!(taken.on_timeout, OnTimeout::Autoplay);
        assert_eq!(taken.max_vacation_secs(), 604_800);
        assert_eq!(taken.abandon_after, 3);
        for bad in [
            json!({"turn_timeout": "soon"}),
            json!({"turn_timeout": "PT0S"}),
            json!({"on_timeout": "explode"}),
            json!({"max_vacation": 7}),
            json!({"abandon_after": -1}),
        ] {
            let mut map = bad.as_object().cloned().unwrap();
            assert_eq!(
                ServerOptions::take(&mut map).unwrap_err().code(),
                crate::error::ErrorCode::InvalidOptions
            );
        }
    }
}

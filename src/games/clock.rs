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

use std::borrow::Cow;
use std::sync::LazyLock;

use chrono::{DateTime, TimeDelta, Utc};
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::{PartialSchema, ToSchema};

use hatstand_engine::bots::Level;

use crate::error::{ErrorCode, Failure};

pub use crate::record::clock::{MAX_SECONDS, parse_duration};

/// The units of a duration after `P`: (unit, the largest number it may
/// have alone, leading several units, and after a larger unit). A duration
/// of several units is less than 366 days, and each unit after the first is
/// below the next larger one (`PT23H59M`, not `PT1H90M`); so the bound of
/// each is its own and the document's pattern states them all.
const UNITS: [(char, u64, u64, u64); 4] = [
    ('D', 366, 365, 0),
    ('H', 8_784, 8_783, 23),
    ('M', 527_040, 527_039, 59),
    ('S', 31_622_400, 31_622_399, 59),
];

/// The most weeks (`PnW`, alone).
const MAX_WEEKS: u64 = 52;

/// A regular expression for the numbers `min..=max` (`min` 0 or 1), written
/// without leading zeros.
fn numbers(min: u64, max: u64) -> String {
    let digits: Vec<u64> = max
        .to_string()
        .bytes()
        .map(|b| u64::from(b - b'0'))
        .collect();
    let mut alternatives = Vec::new();
    if min == 0 {
        alternatives.push("0".to_owned());
    }
    for len in 1..digits.len() {
        alternatives.push(match len {
            1 => "[1-9]".to_owned(),
            2 => "[1-9][0-9]".to_owned(),
            _ => format!("[1-9][0-9]{{{}}}", len - 1),
        });
    }
    for (i, &digit) in digits.iter().enumerate() {
        let low = u64::from(i == 0);
        if digit > low {
            let prefix: String = digits[..i].iter().map(u64::to_string).collect();
            let class = if digit - 1 == low {
                low.to_string()
            } else {
                format!("[{low}-{}]", digit - 1)
            };
            let rest = match digits.len() - i - 1 {
                0 => String::new(),
                1 => "[0-9]".to_owned(),
                n => format!("[0-9]{{{n}}}"),
            };
            alternatives.push(format!("{prefix}{class}{rest}"));
        }
    }
    if max > 0 {
        alternatives.push(max.to_string());
    }
    format!("(?:{})", alternatives.join("|"))
}

/// The pattern of the durations the server takes (`positive`: more than
/// zero), anchored: `PnW`, or `PnDTnHnMnS` with at least one unit, each
/// number within its bounds (`UNITS`).
#[must_use]
pub fn duration_pattern(positive: bool) -> String {
    let low = u64::from(positive);
    let mut forms = vec![format!("{}W", numbers(low, MAX_WEEKS))];
    for subset in 1..16_u8 {
        let units: Vec<_> = (0..4)
            .filter(|i| subset & (1 << i) != 0)
            .map(|i| UNITS[i])
            .collect();
        let bound = |i: usize| match (units.len(), i) {
            (1, _) => units[i].1,
            (_, 0) => units[i].2,
            _ => units[i].3,
        };
        // Positive: the first unit that is not zero is unit `first`.
        let firsts: Vec<Option<usize>> = if positive {
            (0..units.len()).map(Some).collect()
        } else {
            vec![None]
        };
        for first in firsts {
            let mut form = String::new();
            for (i, (unit, ..)) in units.iter().enumerate() {
                if *unit != 'D' && !form.contains('T') {
                    form.push('T');
                }
                let number = match first {
                    Some(f) if i < f => "0".to_owned(),
                    Some(f) if i == f => numbers(1, bound(i)),
                    _ => numbers(0, bound(i)),
                };
                form.push_str(&number);
                form.push(*unit);
            }
            forms.push(form);
        }
    }
    format!("^P(?:{})$", forms.join("|"))
}

static DURATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&duration_pattern(false)).expect("the duration pattern compiles"));

/// Reads a duration sent to the server: one `duration_pattern` matches,
/// in seconds. (Stored durations are read by the looser `parse_duration`,
/// which took every duration ever accepted.)
///
/// # Errors
/// A message saying what is wrong.
pub fn accept_duration(text: &str) -> Result<u64, String> {
    let secs = parse_duration(text)?;
    if !DURATION.is_match(text) {
        return Err(format!(
            "{text:?} is not a duration the server takes: numbers without leading zeros, \
             and in a duration of several units less than 366 days with each unit after \
             the first below the next larger one (P1DT12H, PT1H30M)"
        ));
    }
    Ok(secs)
}

/// An ISO 8601 duration of at most 366 days, as `accept_duration` takes it.
pub struct IsoDuration;

/// An `IsoDuration` of at least one second.
pub struct PositiveDuration;

fn duration_schema(positive: bool) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::Type(Type::String))
        .description(Some(format!(
            "An ISO 8601 duration (`PnW` or `PnDTnHnMnS`) of at most 366 days{}: numbers \
             without leading zeros; a duration of several units is less than 366 days and \
             each unit after the first is below the next larger one (`P1DT12H`, `PT1H30M`, \
             `PT36H`, but not `PT1H90M`).",
            if positive {
                " and at least one second"
            } else {
                ""
            }
        )))
        .pattern(Some(duration_pattern(positive)))
        .max_length(Some(64))
        .examples([Value::from("PT12H")])
        .into()
}

impl PartialSchema for IsoDuration {
    fn schema() -> RefOr<Schema> {
        duration_schema(false)
    }
}

impl ToSchema for IsoDuration {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("IsoDuration")
    }
}

impl PartialSchema for PositiveDuration {
    fn schema() -> RefOr<Schema> {
        duration_schema(true)
    }
}

impl ToSchema for PositiveDuration {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("PositiveDuration")
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
    #[schema(value_type = Option<PositiveDuration>)]
    pub turn_timeout: Option<String>,
    #[serde(default)]
    pub on_timeout: OnTimeout,
    /// A clock other than the fixed per-turn one (docs/clocks.md): `bank`,
    /// `daily` or `per_turn`; not with `turn_timeout`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<crate::record::clock::ClockOption>,
    /// No clock runs on Saturdays and Sundays (from Saturday 00:00 to Monday
    /// 00:00), in each seat's time zone, or in `time_zone` when given.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub weekend_pause: bool,
    /// The game's time zone (IANA) for the weekend pause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "Europe/Paris")]
    pub time_zone: Option<String>,
    /// The most vacation each seat may take over the game.
    #[serde(default = "default_max_vacation")]
    #[schema(value_type = IsoDuration)]
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
    /// Who may talk (docs/talk.md): `none`, `table` (every seat at once;
    /// the default, and the rule for games created before the option) or
    /// `press` (also to chosen seats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub talk: Option<crate::record::talk::TalkMode>,
    /// With `talk: press`: the private messages are shown to everyone, and
    /// in the audit, once the game is over (else only their commitment is).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub press_revealed_at_end: bool,
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
    /// Whether a player may take back their last command with every other
    /// player's consent (docs/turn-conveniences.md). Off by default; only
    /// in casual games (`takebacks_in_rated_game` otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub takebacks: bool,
    /// The lowest reliability (0 to 100, docs/seats.md) that may join;
    /// below it, `403 reliability_too_low`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 100, example = 80)]
    pub min_reliability: Option<u8>,
    /// Whether a seat whose player left may be taken by a substitute
    /// (docs/seats.md). Unset: no in a rated two-player game, yes in every
    /// other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub substitutes: Option<bool>,
    /// Whether the players may pause the table by unanimous vote
    /// (docs/clocks.md); true by default, false for tournaments.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    #[schema(default = true)]
    pub pauses: bool,
}

fn yes() -> bool {
    true
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_yes(b: &bool) -> bool {
    *b
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
            clock: None,
            weekend_pause: false,
            time_zone: None,
            on_timeout: OnTimeout::Autoplay,
            max_vacation: default_max_vacation(),
            abandon_after: default_abandon_after(),
            autoplay_level: Level::Random,
            humans_only: false,
            spectators: None,
            talk: None,
            press_revealed_at_end: false,
            rated: None,
            rating_min: None,
            rating_max: None,
            takebacks: false,
            min_reliability: None,
            substitutes: None,
            pauses: true,
        }
    }
}

/// The names of the server-level options.
pub const NAMES: [&str; 19] = [
    "takebacks",
    "pauses",
    "turn_timeout",
    "clock",
    "weekend_pause",
    "time_zone",
    "on_timeout",
    "max_vacation",
    "abandon_after",
    "autoplay_level",
    "humans_only",
    "spectators",
    "talk",
    "press_revealed_at_end",
    "rated",
    "rating_min",
    "rating_max",
    "min_reliability",
    "substitutes",
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
            let secs = accept_duration(t)
                .map_err(|e| Failure::invalid_options(format!("turn_timeout: {e}")))?;
            if secs == 0 {
                return Err(Failure::invalid_options(
                    "turn_timeout must be at least one second",
                ));
            }
        }
        parsed.check_clock()?;
        accept_duration(&parsed.max_vacation)
            .map_err(|e| Failure::invalid_options(format!("max_vacation: {e}")))?;
        if parsed.press_revealed_at_end && parsed.talk != Some(crate::record::talk::TalkMode::Press)
        {
            return Err(Failure::invalid_options(
                "press_revealed_at_end needs talk: press",
            ));
        }
        if parsed.min_reliability.is_some_and(|m| m > 100) {
            return Err(Failure::invalid_options("min_reliability must be 0 to 100"));
        }
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

    /// The clock options hold together: `clock` or `turn_timeout`, not
    /// both; every duration as `accept_duration` takes it and in range
    /// (`invalid_duration`); known time zones (`unknown_time_zone`); the
    /// weekend pause and a time zone only with a clock to pause.
    fn check_clock(&self) -> Result<(), Failure> {
        use crate::record::clock::{BadClock, ClockOption};
        if self.clock.is_some() && self.turn_timeout.is_some() {
            return Err(Failure::invalid_options(
                "give clock or turn_timeout, not both",
            ));
        }
        if (self.weekend_pause || self.time_zone.is_some())
            && self.clock.is_none()
            && self.turn_timeout.is_none()
        {
            return Err(Failure::invalid_options(
                "weekend_pause and time_zone need a clock or a turn_timeout",
            ));
        }
        if self.time_zone.is_some() && !self.weekend_pause {
            return Err(Failure::invalid_options(
                "time_zone is the zone of the weekend pause: it needs weekend_pause",
            ));
        }
        let durations: Vec<(&str, &str)> = match &self.clock {
            Some(ClockOption::PerTurn { turn }) => vec![("turn", turn)],
            Some(ClockOption::Bank {
                initial,
                increment,
                max,
            }) => vec![("initial", initial), ("increment", increment), ("max", max)],
            Some(ClockOption::Daily { min, .. }) => vec![("min", min)],
            None => Vec::new(),
        };
        for (name, text) in durations {
            accept_duration(text).map_err(|e| {
                Failure::new(ErrorCode::InvalidDuration, format!("clock.{name}: {e}"))
            })?;
        }
        let stored = serde_json::to_value(self).map_err(Failure::internal)?;
        crate::record::clock::rules_of(&stored).map_err(|e| match e {
            BadClock::Duration(why) => {
                Failure::new(ErrorCode::InvalidDuration, format!("clock: {why}"))
            }
            BadClock::Zone(_) => Failure::new(ErrorCode::UnknownTimeZone, e.to_string()),
            BadClock::Other(why) => Failure::invalid_options(why),
        })?;
        Ok(())
    }

    /// The clock rules of a game played with the clock module (a `clock`,
    /// or a weekend pause); none for the fixed per-turn clock.
    #[must_use]
    pub fn clock_rules(&self) -> Option<crate::record::clock::Rules> {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| crate::record::clock::rules_of(&v).ok().flatten())
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

    /// The rule `duration_pattern` states, written out: what
    /// `parse_duration` reads, with numbers without leading zeros, and a
    /// duration of several units under 366 days with each unit after the
    /// first below the next larger one.
    fn taken(text: &str) -> Option<u64> {
        let secs = parse_duration(text).ok()?;
        let mut units = Vec::new();
        let mut number = String::new();
        for c in text.chars().skip(1).filter(|c| *c != 'T') {
            if c.is_ascii_digit() {
                number.push(c);
            } else {
                units.push((c, number.clone()));
                number.clear();
            }
        }
        if units.iter().any(|(_, n)| n.len() > 1 && n.starts_with('0')) {
            return None;
        }
        if units.len() > 1 {
            let below = |unit| match unit {
                'H' => 24,
                _ => 60,
            };
            let carried = units[1..]
                .iter()
                .all(|(unit, n)| n.parse::<u64>().is_ok_and(|n| n < below(*unit)));
            if secs >= MAX_SECONDS || !carried {
                return None;
            }
        }
        Some(secs)
    }

    /// Durations made of every set of units, with numbers at and around
    /// each bound, and with leading zeros.
    fn corpus() -> Vec<String> {
        let numbers = [
            "0",
            "00",
            "1",
            "01",
            "9",
            "23",
            "24",
            "52",
            "53",
            "59",
            "60",
            "365",
            "366",
            "367",
            "8783",
            "8784",
            "8785",
            "527039",
            "527040",
            "527041",
            "31622399",
            "31622400",
            "31622401",
            "0000000000001",
        ];
        let mut all: Vec<String> = numbers.iter().map(|n| format!("P{n}W")).collect();
        all.extend(["P", "PT", "P1DT", "PT1D", "P1W1D", "PT1H1H", "PT1M1H"].map(String::from));
        for subset in 1..16_u8 {
            let units: Vec<char> = (0..4)
                .filter(|i| subset & (1 << i) != 0)
                .map(|i| UNITS[i].0)
                .collect();
            // Each unit once at every number, the others at a few.
            for (at, _) in units.iter().enumerate() {
                for number in numbers {
                    for other in ["0", "1", "23", "59"] {
                        let mut text = "P".to_owned();
                        for (i, unit) in units.iter().enumerate() {
                            if *unit != 'D' && !text.contains('T') {
                                text.push('T');
                            }
                            text.push_str(if i == at { number } else { other });
                            text.push(*unit);
                        }
                        all.push(text);
                    }
                }
            }
        }
        all
    }

    #[test]
    fn the_duration_pattern_is_the_rule() {
        let positive = Regex::new(&duration_pattern(true)).unwrap();
        let corpus = corpus();
        assert!(corpus.len() > 3000, "{}", corpus.len());
        let mut accepted = 0;
        for text in &corpus {
            let rule = taken(text);
            assert_eq!(accept_duration(text).ok(), rule, "{text}");
            assert_eq!(
                positive.is_match(text),
                rule.is_some_and(|s| s > 0),
                "{text}"
            );
            accepted += usize::from(rule.is_some());
        }
        assert!(accepted > 1000, "{accepted}");
        for (text, secs) in [
            ("PT36H", 129_600),
            ("P366D", 31_622_400),
            ("PT8784H", 31_622_400),
            ("P365DT23H59M59S", 31_622_399),
            ("PT8783H59M59S", 31_622_399),
            ("P52W", 31_449_600),
        ] {
            assert_eq!(accept_duration(text), Ok(secs), "{text}");
        }
        for text in ["PT1H90M", "P1DT24H", "P366DT0S", "P07D", "P53W", "PT0H60M"] {
            assert!(accept_duration(text).is_err(), "{text} taken");
        }
    }

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

//! Clocks, pure: no I/O, no sleeping, no "now". Given a game's clock
//! options and what happened at which recorded instant, this module says
//! how much time each seat has left and when the game's next deadline is.
//! The server's steps and `hatstand verify` run the same code over the
//! same inputs, so a replay of the record finds the live clocks again
//! (docs/clocks.md).
//!
//! Rules:
//! - A seat's clock runs from the instant it becomes to act (the time of
//!   the step that made it so) until the step in which it moves or stops
//!   being to act. A move ends the seat's turn; a seat that is to act again
//!   after its own move starts a new turn at the same instant.
//! - `per_turn` (`turn`): each turn has the same time; the deadline is
//!   `turn` of running time after the turn began. (A game on the fixed
//!   per-turn clock of `turn_timeout` alone does not come here: its one
//!   deadline restarts at every step, as it always has.)
//! - `bank` (`initial`, `increment`, `max`): each seat starts with
//!   `initial`; its bank runs while the seat is to act; after each move the
//!   seat gets `increment`, never beyond `max`. A bank that ran out is 0
//!   (never negative) when the increment is added.
//! - `daily` (`at`, `time_zone`, `min`): a turn ends at the first `at`
//!   (local time in `time_zone`) that is at least `min` of running time
//!   after the turn began. A local time that does not exist (the spring
//!   gap) is read with the offset before the gap, so 02:30 on the night
//!   clocks go forward is 03:30 of the new offset; an ambiguous one (the
//!   autumn overlap) is its first occurrence.
//! - Weekend pause: no clock runs from Saturday 00:00 to Monday 00:00 local
//!   time, in each seat's time zone (recorded when the game started) or in
//!   the game's one zone; a `daily` clock's turns also never end on a
//!   Saturday or a Sunday in its own zone.
//! - Vacation (`extra`) adds free time to the seat's current turn: its
//!   deadline moves back by it, and a bank is charged only for the running
//!   time beyond it.
//! - Table pause (`record::pause`): while the table is paused no clock
//!   runs and no turn ends by time; a turn that ends during a pause is
//!   charged only what ran before it; on resume, each running turn gets
//!   the running time the pause lasted as free time (as a vacation), so a
//!   bank or a per-turn clock has what it had, and a daily deadline moves
//!   back by the pause's length.
//! - Banks are kept in whole milliseconds, rounded down.

use chrono::{
    DateTime, Datelike, LocalResult, NaiveDate, NaiveTime, TimeDelta, TimeZone, Utc, Weekday,
};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

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

/// The `clock` option of a game, as given at creation and recorded in
/// `game_created` (durations are ISO 8601, as `parse_duration` reads them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(example = json!({"kind": "bank", "initial": "P3D", "increment": "PT12H", "max": "P7D"}))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClockOption {
    /// The same time for every turn (`turn`, e.g. `PT24H`); restarts at every move.
    PerTurn { turn: String },
    /// A time bank per seat: `initial` to start with, `increment` after
    /// each move, never beyond `max`.
    Bank {
        initial: String,
        increment: String,
        max: String,
    },
    /// Every turn ends at the next `at` (`HH:MM`) in `time_zone`, at least
    /// `min` after it began (default `PT12H`).
    Daily {
        #[schema(example = "20:00")]
        at: String,
        #[schema(example = "Europe/Paris")]
        time_zone: String,
        #[serde(default = "default_min")]
        min: String,
    },
}

fn default_min() -> String {
    "PT12H".to_owned()
}

/// Where the weekend pause is reckoned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weekends {
    /// In each seat's own time zone.
    EachSeat,
    /// In the game's one time zone.
    Zone(Tz),
}

/// What a clock is, read from its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    PerTurn {
        turn: TimeDelta,
    },
    Bank {
        initial: TimeDelta,
        increment: TimeDelta,
        max: TimeDelta,
    },
    Daily {
        at: NaiveTime,
        zone: Tz,
        min: TimeDelta,
    },
}

/// A game's clock rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub kind: Kind,
    /// The weekend pause, if the game has it.
    pub weekends: Option<Weekends>,
}

/// Why clock options cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadClock {
    /// A duration that does not parse or is out of range.
    #[error("{0}")]
    Duration(String),
    /// A time zone that is not in the IANA database.
    #[error("{0:?} is not an IANA time zone such as Europe/Paris")]
    Zone(String),
    /// Anything else (an hour that is not `HH:MM`).
    #[error("{0}")]
    Other(String),
}

/// Reads an IANA time zone name.
///
/// # Errors
/// [`BadClock::Zone`].
pub fn zone(name: &str) -> Result<Tz, BadClock> {
    name.parse::<Tz>()
        .map_err(|_| BadClock::Zone(name.to_owned()))
}

fn delta(name: &str, text: &str) -> Result<TimeDelta, BadClock> {
    let secs = parse_duration(text).map_err(|e| BadClock::Duration(format!("{name}: {e}")))?;
    i64::try_from(secs)
        .ok()
        .and_then(TimeDelta::try_seconds)
        .ok_or_else(|| BadClock::Duration(format!("{name}: too long")))
}

impl Rules {
    /// The rules of `option` with the weekend pause `weekends`: the
    /// durations read and held to their ranges (a turn, an initial bank and
    /// a maximum of at least one second; an increment at most the maximum;
    /// an initial bank at most the maximum; `min` at most 7 days).
    ///
    /// # Errors
    /// [`BadClock`].
    pub fn read(option: &ClockOption, weekends: Option<Weekends>) -> Result<Self, BadClock> {
        let positive = |name: &str, text: &str| {
            let d = delta(name, text)?;
            if d < TimeDelta::seconds(1) {
                return Err(BadClock::Duration(format!(
                    "{name} must be at least one second"
                )));
            }
            Ok(d)
        };
        let kind = match option {
            ClockOption::PerTurn { turn } => Kind::PerTurn {
                turn: positive("turn", turn)?,
            },
            ClockOption::Bank {
                initial,
                increment,
                max,
            } => {
                let initial = positive("initial", initial)?;
                let increment = delta("increment", increment)?;
                let max = positive("max", max)?;
                if initial > max || increment > max {
                    return Err(BadClock::Duration(
                        "initial and increment must be at most max".to_owned(),
                    ));
                }
                Kind::Bank {
                    initial,
                    increment,
                    max,
                }
            }
            ClockOption::Daily { at, time_zone, min } => {
                let at = (at.len() == 5)
                    .then(|| NaiveTime::parse_from_str(at, "%H:%M").ok())
                    .flatten()
                    .ok_or_else(|| {
                        BadClock::Other(format!("at: {at:?} is not an hour such as 20:00"))
                    })?;
                let min = delta("min", min)?;
                if min > TimeDelta::days(7) {
                    return Err(BadClock::Duration("min must be at most P7D".to_owned()));
                }
                Kind::Daily {
                    at,
                    zone: zone(time_zone)?,
                    min,
                }
            }
        };
        Ok(Rules { kind, weekends })
    }

    /// The zone a seat's weekends are reckoned in (its own `seat_zone`, the
    /// game's, or a daily clock's), or none without the weekend pause.
    fn weekend_zone(&self, seat_zone: Tz) -> Option<Tz> {
        match (self.weekends?, self.kind) {
            (_, Kind::Daily { zone, .. }) => Some(zone),
            (Weekends::Zone(zone), _) => Some(zone),
            (Weekends::EachSeat, _) => Some(seat_zone),
        }
    }
}

/// The clock rules of a game from its server options as recorded
/// (`game_created`'s `server_options`, or the stored ones): a `clock`, or a
/// `turn_timeout` with `weekend_pause` (a per-turn clock that pauses);
/// none for a game on the fixed per-turn clock alone (or no clock), whose
/// deadline is the last step's time plus `turn_timeout`.
///
/// # Errors
/// [`BadClock`] for options that do not read.
pub fn rules_of(server_options: &serde_json::Value) -> Result<Option<Rules>, BadClock> {
    let pause = server_options
        .get("weekend_pause")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    let weekends = match server_options
        .get("time_zone")
        .and_then(serde_json::Value::as_str)
    {
        _ if !pause => None,
        Some(name) => Some(Weekends::Zone(zone(name)?)),
        None => Some(Weekends::EachSeat),
    };
    let option = match server_options.get("clock") {
        Some(clock) if !clock.is_null() => serde_json::from_value::<ClockOption>(clock.clone())
            .map_err(|e| BadClock::Other(format!("clock: {e}")))?,
        _ => match server_options
            .get("turn_timeout")
            .and_then(serde_json::Value::as_str)
        {
            Some(turn) if pause => ClockOption::PerTurn {
                turn: turn.to_owned(),
            },
            _ => return Ok(None),
        },
    };
    Rules::read(&option, weekends).map(Some)
}

/// The clock of one seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatClock {
    /// The seat's time zone (IANA), fixed when the game started.
    pub zone: String,
    /// A bank clock's bank, in milliseconds, not counting the running turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<i64>,
    /// When the seat's running turn began; none when it is not to act.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<DateTime<Utc>>,
    /// Vacation granted in the running turn, in milliseconds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_ms: i64,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// A bank's change, to be recorded (`seat_bank_changed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BankChange {
    pub seat: u8,
    /// The bank after the change, in milliseconds.
    pub bank_ms: i64,
}

/// Every seat's clock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    pub seats: Vec<SeatClock>,
    /// Since when the table is paused (`record::pause`); kept with the
    /// game's pause, not with the seats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<DateTime<Utc>>,
}

impl Clocks {
    /// The clocks at the start of a game, whose seats live in `zones`, with
    /// `to_act` to act at `at`.
    #[must_use]
    pub fn start(rules: &Rules, zones: &[String], to_act: &[u8], at: DateTime<Utc>) -> Self {
        let bank_ms = match rules.kind {
            Kind::Bank { initial, .. } => Some(initial.num_milliseconds()),
            _ => None,
        };
        let mut clocks = Clocks {
            seats: zones
                .iter()
                .map(|zone| SeatClock {
                    zone: zone.clone(),
                    bank_ms,
                    since: None,
                    extra_ms: 0,
                })
                .collect(),
            paused: None,
        };
        clocks.to_act(rules, to_act, at);
        clocks
    }

    fn seat_zone(&self, seat: usize) -> Tz {
        self.seats
            .get(seat)
            .and_then(|s| s.zone.parse().ok())
            .unwrap_or(Tz::UTC)
    }

    /// Ends `seat`'s running turn at `at`: a bank is charged for the time
    /// that ran beyond any vacation. Returns the bank after it.
    fn end_turn(&mut self, rules: &Rules, seat: usize, at: DateTime<Utc>) -> Option<i64> {
        let weekend = rules.weekend_zone(self.seat_zone(seat));
        let clock = self.seats.get_mut(seat)?;
        let since = clock.since.take()?;
        let extra = std::mem::take(&mut clock.extra_ms);
        // During a pause, only what ran before it counts.
        let end = self.paused.map_or(at, |p| at.min(p).max(since));
        let used = running(since, end, weekend).num_milliseconds() - extra;
        if let Some(bank) = &mut clock.bank_ms {
            *bank = (*bank - used.max(0)).max(0);
        }
        clock.bank_ms
    }

    /// `seat` moved at `at`: its turn ends, and a bank gains its increment
    /// (capped at the maximum). Returns the bank's change, if the clock is
    /// a bank.
    pub fn moved(&mut self, rules: &Rules, seat: u8, at: DateTime<Utc>) -> Option<BankChange> {
        let seat_index = usize::from(seat);
        match rules.kind {
            Kind::Bank { increment, max, .. } => {
                let bank = match self.end_turn(rules, seat_index, at) {
                    Some(bank) => bank,
                    None => self.seats.get(seat_index)?.bank_ms?,
                };
                let bank = (bank + increment.num_milliseconds()).min(max.num_milliseconds());
                self.seats.get_mut(seat_index)?.bank_ms = Some(bank);
                Some(BankChange {
                    seat,
                    bank_ms: bank,
                })
            }
            _ => {
                self.end_turn(rules, seat_index, at);
                None
            }
        }
    }

    /// The seats to act at `at` are `to_act`: the turns of the others end,
    /// and those of seats newly to act begin.
    pub fn to_act(&mut self, rules: &Rules, to_act: &[u8], at: DateTime<Utc>) {
        for seat in 0..self.seats.len() {
            let acting = to_act.iter().any(|&s| usize::from(s) == seat);
            if acting && self.seats[seat].since.is_none() {
                self.seats[seat].since = Some(at);
            } else if !acting {
                self.end_turn(rules, seat, at);
            }
        }
    }

    /// The table pauses at `at`: no clock runs until [`Clocks::resume`].
    pub fn pause(&mut self, at: DateTime<Utc>) {
        self.paused.get_or_insert(at);
    }

    /// The table resumes at `at`: each running turn gets the running time
    /// the pause lasted (since the turn began, for a turn begun during it)
    /// as free time.
    pub fn resume(&mut self, rules: &Rules, at: DateTime<Utc>) {
        let Some(paused) = self.paused.take() else {
            return;
        };
        for seat in 0..self.seats.len() {
            let weekend = rules.weekend_zone(self.seat_zone(seat));
            let clock = &mut self.seats[seat];
            if let Some(since) = clock.since {
                clock.extra_ms += running(since.max(paused), at, weekend).num_milliseconds();
            }
        }
    }

    /// `seat` takes `extra` of vacation in its running turn.
    pub fn vacation(&mut self, seat: u8, extra: TimeDelta) {
        if let Some(clock) = self.seats.get_mut(usize::from(seat))
            && clock.since.is_some()
        {
            clock.extra_ms += extra.num_milliseconds();
        }
    }

    /// When `seat`'s running turn times out; none when it is not to act,
    /// or while the table is paused.
    #[must_use]
    pub fn deadline(&self, rules: &Rules, seat: u8) -> Option<DateTime<Utc>> {
        if self.paused.is_some() {
            return None;
        }
        self.unpaused_deadline(rules, seat)
    }

    /// When `seat`'s running turn would time out if the table ran.
    fn unpaused_deadline(&self, rules: &Rules, seat: u8) -> Option<DateTime<Utc>> {
        let clock = self.seats.get(usize::from(seat))?;
        let since = clock.since?;
        let weekend = rules.weekend_zone(self.seat_zone(usize::from(seat)));
        let extra = TimeDelta::milliseconds(clock.extra_ms);
        match rules.kind {
            Kind::PerTurn { turn } => Some(deadline_after(since, turn + extra, weekend)),
            Kind::Bank { .. } => {
                let bank = TimeDelta::milliseconds(clock.bank_ms.unwrap_or(0));
                Some(deadline_after(since, bank + extra, weekend))
            }
            Kind::Daily { at, zone, min } => {
                let earliest = deadline_after(since, min, weekend);
                let end = next_local(earliest, at, zone, weekend.is_some());
                Some(deadline_after(end, extra, weekend))
            }
        }
    }

    /// The time `seat` has left at `now` (zero when it ran out; while the
    /// table is paused, what it had when the pause began), and, for a seat
    /// not to act, its bank (or none, for other clocks).
    #[must_use]
    pub fn remaining(&self, rules: &Rules, seat: u8, now: DateTime<Utc>) -> Option<TimeDelta> {
        let clock = self.seats.get(usize::from(seat))?;
        let now = self
            .paused
            .map_or(now, |p| now.min(p).max(clock.since.unwrap_or(p).min(now)));
        match self.unpaused_deadline(rules, seat) {
            Some(deadline) => {
                let weekend = rules.weekend_zone(self.seat_zone(usize::from(seat)));
                Some(if deadline <= now {
                    TimeDelta::zero()
                } else {
                    running(now, deadline, weekend)
                })
            }
            None => clock.bank_ms.map(TimeDelta::milliseconds),
        }
    }

    /// The earliest deadline of a running turn: the game's next deadline.
    #[must_use]
    pub fn next_deadline(&self, rules: &Rules) -> Option<DateTime<Utc>> {
        (0..self.seats.len())
            .filter_map(|s| self.deadline(rules, u8::try_from(s).ok()?))
            .min()
    }

    /// The seats whose turn has timed out at `now`.
    #[must_use]
    pub fn due(&self, rules: &Rules, now: DateTime<Utc>) -> Vec<u8> {
        (0..self.seats.len())
            .filter_map(|s| u8::try_from(s).ok())
            .filter(|&s| self.deadline(rules, s).is_some_and(|d| d <= now))
            .collect()
    }

    /// When the clock of `seat` next changes pace after `now` (a weekend
    /// pause beginning or ending), if it has a weekend pause.
    #[must_use]
    pub fn next_change(
        &self,
        rules: &Rules,
        seat: u8,
        now: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        let zone = rules.weekend_zone(self.seat_zone(usize::from(seat)))?;
        if self.paused.is_some() {
            return None;
        }
        let (start, end) = weekend_of(now, zone);
        Some(if now < start { start } else { end })
    }
}

/// Local midnight of `date` in `zone` (the first instant of the day, should
/// midnight itself fall in a gap).
fn midnight(zone: Tz, date: NaiveDate) -> DateTime<Utc> {
    local(zone, date.and_time(NaiveTime::MIN))
}

/// The instant of local time `naive` in `zone`: the first of two in an
/// overlap; in a gap, read with the offset in force before it.
fn local(zone: Tz, naive: chrono::NaiveDateTime) -> DateTime<Utc> {
    match zone.from_local_datetime(&naive) {
        LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => t.with_timezone(&Utc),
        LocalResult::None => {
            // Gaps are at most a few hours long: the offset three hours
            // before is the one in force before the gap.
            let before = naive - TimeDelta::hours(3);
            let offset = match zone.from_local_datetime(&before) {
                LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => {
                    chrono::Offset::fix(t.offset()).local_minus_utc()
                }
                LocalResult::None => 0,
            };
            (naive - TimeDelta::seconds(i64::from(offset))).and_utc()
        }
    }
}

/// The weekend (Saturday 00:00 to Monday 00:00 in `zone`) that contains
/// `at`, or the next one.
fn weekend_of(at: DateTime<Utc>, zone: Tz) -> (DateTime<Utc>, DateTime<Utc>) {
    let date = at.with_timezone(&zone).date_naive();
    let saturday = match date.weekday() {
        Weekday::Sat => date,
        Weekday::Sun => date - TimeDelta::days(1),
        other => date + TimeDelta::days(5 - i64::from(other.num_days_from_monday())),
    };
    (
        midnight(zone, saturday),
        midnight(zone, saturday + TimeDelta::days(2)),
    )
}

/// The running time from `from` to `to`: all of it, less the weekends in
/// `weekend` when the game pauses them.
#[must_use]
pub fn running(from: DateTime<Utc>, to: DateTime<Utc>, weekend: Option<Tz>) -> TimeDelta {
    if to <= from {
        return TimeDelta::zero();
    }
    let Some(zone) = weekend else {
        return to - from;
    };
    let mut total = TimeDelta::zero();
    let mut at = from;
    while at < to {
        let (start, end) = weekend_of(at, zone);
        if at >= start {
            at = end;
            continue;
        }
        total += to.min(start) - at;
        at = end;
    }
    total
}

/// The instant at which `budget` of running time after `from` is used up.
#[must_use]
pub fn deadline_after(
    from: DateTime<Utc>,
    budget: TimeDelta,
    weekend: Option<Tz>,
) -> DateTime<Utc> {
    let Some(zone) = weekend else {
        return from + budget;
    };
    let mut at = from;
    let mut left = budget.max(TimeDelta::zero());
    loop {
        let (start, end) = weekend_of(at, zone);
        if at >= start {
            at = end;
            continue;
        }
        if at + left <= start {
            return at + left;
        }
        left -= start - at;
        at = end;
    }
}

/// The first `at` (local time in `zone`) at or after `after`, on a weekday
/// when `skip_weekends`.
#[must_use]
pub fn next_local(
    after: DateTime<Utc>,
    at: NaiveTime,
    zone: Tz,
    skip_weekends: bool,
) -> DateTime<Utc> {
    let mut date = after.with_timezone(&zone).date_naive() - TimeDelta::days(1);
    loop {
        let weekend = matches!(date.weekday(), Weekday::Sat | Weekday::Sun);
        let candidate = local(zone, date.and_time(at));
        if candidate >= after && !(skip_weekends && weekend) {
            return candidate;
        }
        date += TimeDelta::days(1);
    }
}

#[cfg(test)]
mod tests;

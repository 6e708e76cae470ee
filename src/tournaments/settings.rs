//! What an organiser sets when creating a tournament, and the rules those
//! settings must keep (pure: the ruleset's options are checked by the
//! engine in the use case).
//!
//! Rules (each broken one is `invalid_tournament`, nothing written):
//! - a registration window that opens before it closes, and closes after now;
//! - one schedule entry (`starts_at`, `deadline`) per round, each starting
//!   at or after registration closes and after the round before has its
//!   deadline, each deadline after its start;
//! - 1 to [`MAX_ROUNDS`] rounds; a player cap of 2 to [`MAX_PLAYERS`], at
//!   least the table size;
//! - an elimination has at least the rounds its bracket needs for the cap
//!   ([`super::elimination::rounds`]); a round robin at most the rounds of
//!   a full field ([`super::round_robin::rounds`] of the cap);
//! - duplicate mode only for a ruleset that has it
//!   ([`super::duplicate::supports`]);
//! - a minimum reliability of 0 to 100.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{elimination, round_robin};
use crate::error::{ErrorCode, Failure};

/// The most rounds a tournament may have.
pub const MAX_ROUNDS: usize = 64;
/// The largest player cap.
pub const MAX_PLAYERS: u32 = 1024;

/// How a tournament pairs its rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    RoundRobin,
    Swiss,
    Elimination,
}

impl Format {
    /// The format as stored and shown.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Format::RoundRobin => "round_robin",
            Format::Swiss => "swiss",
            Format::Elimination => "elimination",
        }
    }

    /// The format stored as `text`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Format> {
        [Format::RoundRobin, Format::Swiss, Format::Elimination]
            .into_iter()
            .find(|f| f.as_str() == text)
    }
}

/// One round's times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundTimes {
    /// When the round's tables are created.
    pub starts_at: DateTime<Utc>,
    /// When the round is due to be over (its games keep their own clocks
    /// and timeout rule).
    pub deadline: DateTime<Utc>,
}

/// A new tournament, as its organiser sends it.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    /// A name for people, 1–100 characters.
    pub name: String,
    /// The ruleset every table plays (see `/v1/rulesets`).
    pub ruleset: String,
    /// The ruleset's options for every table (explicit `deals` are not taken:
    /// duplicate mode draws them).
    #[serde(default)]
    #[schema(value_type = crate::games::wire_types::AnyOptions)]
    pub options: Value,
    /// Seats at each table.
    #[schema(maximum = 255)]
    pub table_size: u8,
    pub format: Format,
    /// Each round's start and deadline, in order: one entry per round.
    pub schedule: Vec<RoundTimes>,
    pub registration_opens: DateTime<Utc>,
    pub registration_closes: DateTime<Utc>,
    /// The most players who may register.
    #[schema(maximum = 4_294_967_295_u32)]
    pub player_cap: u32,
    /// A rating (in the ruleset at this table size) a player needs to register.
    #[serde(default)]
    pub min_rating: Option<f64>,
    /// A reliability score (0–100) a player needs to register.
    #[serde(default)]
    #[schema(maximum = 255)]
    pub min_reliability: Option<u8>,
    /// Every table of a round plays the same deals, scored by matchpoints
    /// (card games only).
    #[serde(default)]
    pub duplicate: bool,
    /// Whether a bot may take the seat of a player who leaves a table.
    #[serde(default)]
    pub bots_substitute: bool,
}

fn invalid(detail: impl Into<String>) -> Failure {
    Failure::new(ErrorCode::InvalidTournament, detail)
}

impl NewTournament {
    /// Checks the rules above at `now`, `duplicate_supported` saying whether
    /// the ruleset has a duplicate mode.
    ///
    /// # Errors
    /// `invalid_tournament`, saying which rule is broken.
    pub fn check(&self, now: DateTime<Utc>, duplicate_supported: bool) -> Result<(), Failure> {
        let name = self.name.trim().chars().count();
        if !(1..=100).contains(&name) {
            return Err(invalid("a name of 1 to 100 characters"));
        }
        if self.registration_opens >= self.registration_closes {
            return Err(invalid("registration must open before it closes"));
        }
        if self.registration_closes <= now {
            return Err(invalid("registration must close in the future"));
        }
        let rounds = self.schedule.len();
        if !(1..=MAX_ROUNDS).contains(&rounds) {
            return Err(invalid(format!(
                "1 to {MAX_ROUNDS} rounds, one schedule entry each"
            )));
        }
        let mut earliest = self.registration_closes;
        for (r, times) in self.schedule.iter().enumerate() {
            if times.starts_at < earliest {
                return Err(invalid(format!(
                    "round {} starts before registration closes or the round before it ends",
                    r + 1
                )));
            }
            if times.deadline <= times.starts_at {
                return Err(invalid(format!("round {} ends before it starts", r + 1)));
            }
            earliest = times.deadline;
        }
        let table = usize::from(self.table_size);
        if !(2..=MAX_PLAYERS).contains(&self.player_cap) || (self.player_cap as usize) < table {
            return Err(invalid(format!(
                "a player cap of 2 to {MAX_PLAYERS}, and at least the table size"
            )));
        }
        let cap = self.player_cap as usize;
        match self.format {
            Format::Elimination if rounds < elimination::rounds(cap, table) => {
                return Err(invalid(format!(
                    "an elimination of {cap} at tables of {table} needs {} rounds",
                    elimination::rounds(cap, table)
                )));
            }
            Format::RoundRobin if rounds > round_robin::rounds(cap) => {
                return Err(invalid(format!(
                    "a round robin of {cap} has at most {} rounds",
                    round_robin::rounds(cap)
                )));
            }
            _ => {}
        }
        if self.duplicate && !duplicate_supported {
            return Err(invalid(format!(
                "{} has no duplicate mode (Hats, Goathead and Hat Trick have)",
                self.ruleset
            )));
        }
        if self.min_reliability.is_some_and(|r| r > 100) {
            return Err(invalid("a minimum reliability of 0 to 100"));
        }
        if !self.options.is_object() {
            return Err(Failure::invalid_options("options must be a JSON object"));
        }
        if self.options.get("deals").is_some() {
            return Err(Failure::invalid_options(
                "a tournament's tables take no explicit deals (duplicate mode draws them)",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeDelta;

    fn at(hours: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap() + TimeDelta::hours(hours)
    }

    fn valid() -> NewTournament {
        NewTournament {
            name: "Winter duplicate".to_owned(),
            ruleset: "hats".to_owned(),
            options: serde_json::json!({}),
            table_size: 2,
            format: Format::Swiss,
            schedule: (0..3)
                .map(|r| RoundTimes {
                    starts_at: at(24 + 48 * r),
                    deadline: at(24 + 48 * r + 40),
                })
                .collect(),
            registration_opens: at(0),
            registration_closes: at(24),
            player_cap: 8,
            min_rating: None,
            min_reliability: None,
            duplicate: true,
            bots_substitute: false,
        }
    }

    fn refusal(t: &NewTournament) -> ErrorCode {
        t.check(at(1), true).unwrap_err().code
    }

    #[test]
    fn given_a_sound_swiss_then_it_is_accepted() {
        assert_eq!(valid().check(at(1), true), Ok(()));
    }

    #[test]
    fn given_a_window_closed_or_reversed_then_it_is_refused() {
        let mut t = valid();
        t.registration_opens = at(30);
        assert_eq!(refusal(&t), ErrorCode::InvalidTournament);
        assert_eq!(
            valid().check(at(25), true).unwrap_err().code,
            ErrorCode::InvalidTournament
        );
    }

    #[test]
    fn given_rounds_overlapping_or_starting_before_registration_closes_then_refused() {
        let mut t = valid();
        t.schedule[1].starts_at = at(50);
        assert!(t.check(at(1), true).unwrap_err().detail.contains("round 2"));
        let mut t = valid();
        t.schedule[0].starts_at = at(10);
        assert_eq!(refusal(&t), ErrorCode::InvalidTournament);
        let mut t = valid();
        t.schedule[2].deadline = t.schedule[2].starts_at;
        assert!(
            t.check(at(1), true)
                .unwrap_err()
                .detail
                .contains("round 3 ends")
        );
        let mut t = valid();
        t.schedule.clear();
        assert_eq!(refusal(&t), ErrorCode::InvalidTournament);
    }

    #[test]
    fn given_an_elimination_too_short_for_its_cap_then_refused() {
        let mut t = valid();
        t.format = Format::Elimination;
        t.player_cap = 16; // 4 rounds needed, 3 scheduled
        assert_eq!(refusal(&t), ErrorCode::InvalidTournament);
        t.player_cap = 8;
        assert_eq!(t.check(at(1), true), Ok(()));
    }

    #[test]
    fn given_a_round_robin_longer_than_a_full_field_then_refused() {
        let mut t = valid();
        t.format = Format::RoundRobin;
        t.player_cap = 3; // 3 rounds at most
        assert_eq!(t.check(at(1), true), Ok(()));
        t.player_cap = 2; // 1 round at most
        assert_eq!(refusal(&t), ErrorCode::InvalidTournament);
    }

    #[test]
    fn given_duplicate_for_a_ruleset_without_it_then_refused() {
        assert_eq!(
            valid().check(at(1), false).unwrap_err().code,
            ErrorCode::InvalidTournament
        );
        let mut t = valid();
        t.duplicate = false;
        assert_eq!(t.check(at(1), false), Ok(()));
    }

    #[test]
    fn given_a_cap_below_the_table_or_explicit_deals_then_refused() {
        let mut t = valid();
        t.table_size = 4;
        t.player_cap = 3;
        assert_eq!(refusal(&t), ErrorCode::InvalidTournament);
        let mut t = valid();
        t.options = serde_json::json!({"deals": []});
        assert_eq!(refusal(&t), ErrorCode::InvalidOptions);
        let mut t = valid();
        t.min_reliability = Some(101);
        assert_eq!(refusal(&t), ErrorCode::InvalidTournament);
        let mut t = valid();
        t.name = "  ".to_owned();
        assert_eq!(refusal(&t), ErrorCode::InvalidTournament);
    }

    #[test]
    fn given_options_that_are_not_an_object_then_refused() {
        for options in [
            serde_json::Value::Null,
            serde_json::json!([]),
            serde_json::json!(3),
        ] {
            let mut t = valid();
            t.options = options;
            assert_eq!(refusal(&t), ErrorCode::InvalidOptions);
        }
    }
}

//! Reliability (docs/seats.md): how surely a player sees their games to
//! the end, from their seats in games over, as the Diplomacy sites keep it.
//!
//! `score = 100 × max(0, played − left − timeouts / 4 − vacation days / 30) / played`,
//! rounded down, and 100 before the first game over, where
//! - `played`: their seats in games over (finished or abandoned);
//! - `left`: those seats they left before the end (resigned, out on a
//!   timeout, out after `abandon_after` timeouts);
//! - `timeouts`: their turns that ran out, in those games;
//! - `vacation days`: the vacation they took in them.
//!
//! A game left costs a whole game; four turns run out cost one; thirty
//! days of vacation cost one. The counters are kept by the database as
//! games end, and a rebuild counts them again from the seats.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::db::Conn;
use crate::db::reliability::{self as rows, Counters};
use crate::error::{ErrorCode, Failure};

/// A player's reliability, on their profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"score": 87, "played": 12, "left": 1, "timeouts": 3, "vacation_days": 4}))]
pub struct Reliability {
    /// 0 to 100 (see docs/seats.md for the formula); 100 before the first game over.
    #[schema(minimum = 0, maximum = 100)]
    pub score: u8,
    /// Seats in games over.
    pub played: i64,
    /// Of those, seats left before the end.
    pub left: i64,
    /// Turns run out in those games.
    pub timeouts: i64,
    /// Days of vacation taken in those games (rounded down).
    pub vacation_days: i64,
}

impl Default for Reliability {
    fn default() -> Self {
        Reliability::of(Counters::default())
    }
}

/// Seconds in a day.
const DAY: i64 = 86_400;

impl Reliability {
    /// The reliability of `counters` (the formula of the module).
    #[must_use]
    pub fn of(counters: Counters) -> Self {
        let Counters {
            played,
            left_seats,
            timeouts,
            vacation_secs,
        } = counters;
        let score = if played <= 0 {
            100
        } else {
            // In 120ths of a game, so that the sum is exact in integers:
            // a game 120, a timeout 30, a day of vacation 4 (per second:
            // 4 / 86 400).
            let kept = 120 * (played - left_seats) - 30 * timeouts - (4 * vacation_secs) / DAY;
            let score = (100 * kept.max(0)) / (120 * played);
            u8::try_from(score.clamp(0, 100)).unwrap_or(0)
        };
        Reliability {
            score,
            played,
            left: left_seats,
            timeouts,
            vacation_days: vacation_secs / DAY,
        }
    }
}

/// The reliability of `user`.
///
/// # Errors
/// Database errors.
pub async fn of_user(conn: &mut Conn, user: Uuid) -> Result<Reliability, Failure> {
    Ok(Reliability::of(rows::counters(conn, user).await?))
}

/// Refuses `user` a seat at `game` when the table's `min_reliability` is
/// above their score.
///
/// # Errors
/// `reliability_too_low`; database errors.
pub async fn check(conn: &mut Conn, min: Option<u8>, user: Uuid) -> Result<(), Failure> {
    let Some(min) = min else {
        return Ok(());
    };
    let yours = of_user(conn, user).await?;
    if yours.score >= min {
        return Ok(());
    }
    Err(Failure::new(
        ErrorCode::ReliabilityTooLow,
        format!(
            "this table asks a reliability of {min} or more; yours is {}",
            yours.score
        ),
    ))
}

/// Players counted again per transaction by [`rebuild`].
pub const REBUILD_BATCH: i64 = 1000;

/// Counts every player's reliability again from their seats in games over,
/// a batch of players per transaction (the numbers the database keeps as
/// games end, the same); returns how many players were counted.
///
/// # Errors
/// Database errors.
pub async fn rebuild(conn: &mut Conn) -> Result<u64, Failure> {
    let mut after = Uuid::nil();
    while let Some(upto) = rows::recount_batch(conn, after, REBUILD_BATCH).await? {
        after = upto;
    }
    Ok(rows::counted(conn).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given(played: i64, left: i64, timeouts: i64, vacation_days: i64) -> u8 {
        Reliability::of(Counters {
            played,
            left_seats: left,
            timeouts,
            vacation_secs: vacation_days * DAY,
        })
        .score
    }

    #[test]
    fn given_no_game_over_then_the_score_is_100() {
        assert_eq!(given(0, 0, 0, 0), 100);
    }

    #[test]
    fn given_every_game_played_out_on_time_then_the_score_is_100() {
        assert_eq!(given(7, 0, 0, 0), 100);
    }

    #[test]
    fn given_a_game_left_then_it_costs_a_whole_game() {
        assert_eq!(given(4, 1, 0, 0), 75);
        assert_eq!(given(1, 1, 0, 0), 0);
    }

    #[test]
    fn given_timeouts_and_vacation_then_four_timeouts_or_thirty_days_cost_a_game() {
        assert_eq!(given(4, 0, 4, 0), 75);
        assert_eq!(given(4, 0, 0, 30), 75);
        assert_eq!(given(10, 0, 1, 0), 97);
    }

    #[test]
    fn given_more_lost_than_played_then_the_score_stops_at_0() {
        assert_eq!(given(2, 2, 40, 300), 0);
    }
}

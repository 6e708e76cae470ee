//! Vacation: a player pushes their running clock back.
//!
//! Vacation is taken while the game waits on the seat: it pushes the
//! game's current deadline back by the duration (a seat not to act has no
//! running clock to pause, and is answered `not_your_turn`). The total per
//! seat is bounded by `options.max_vacation`, and each player's vacation
//! over the last 365 days, all games together, by the server's yearly
//! allowance (`--vacation-days-per-year`, 30 days by default;
//! `vacation_allowance_exceeded`; `GET /v1/me/vacation` says what is left). Event: `seat_vacation`.
//!
//! The yearly sum is read before the step: two vacations taken at the
//! same instant in two games may pass it together (by at most one of them).

use chrono::TimeDelta;
use hatstand_engine::Ruleset;
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::clock::{PositiveDuration, accept_duration};
use super::leave::{Leave, change};
use super::projection::Game;
use super::step::Step;
use crate::auth::Caller;
use crate::context::Context;
use crate::error::{ErrorCode, Failure};
use crate::record::chain::{Actor, format_time};
use crate::record::server_event::{SeatVacation, ServerEvent};

/// A request for vacation.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VacationRequest {
    /// How long: an ISO 8601 duration of at least one second, e.g. `PT12H`.
    #[schema(value_type = PositiveDuration)]
    pub duration: String,
}

/// The caller's seat takes `duration` of vacation: event `seat_vacation`.
///
/// # Errors
/// `bad_request` (duration), `not_found`, `not_a_player`, `game_not_open`,
/// `game_finished`, `no_deadline`, `not_your_turn`, `already_resigned`,
/// `vacation_exceeded`, `vacation_allowance_exceeded`.
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn vacation(
    state: &Context,
    caller: &Caller,
    id: Uuid,
    request: &VacationRequest,
) -> Result<Game, Failure> {
    let secs = accept_duration(&request.duration).map_err(Failure::bad_request)?;
    if secs == 0 {
        return Err(Failure::bad_request("a vacation lasts at least one second"));
    }
    let allowance = state.cost_limits.vacation_per_year_secs;
    if allowance > 0 {
        let taken = year_taken(state, caller).await?;
        let asked = i64::try_from(secs).unwrap_or(i64::MAX);
        if taken.saturating_add(asked) > allowance {
            return Err(Failure::new(
                ErrorCode::VacationAllowanceExceeded,
                format!(
                    "you have {} of your {allowance} seconds of vacation a year left",
                    (allowance - taken).max(0)
                ),
            ));
        }
    }
    change(state, caller, id, Leave::Vacation(secs)).await
}

/// The seconds of vacation the caller took over the last 365 days.
///
/// # Errors
/// `unavailable`.
pub async fn year_taken(state: &Context, caller: &Caller) -> Result<i64, Failure> {
    let mut conn = state.pool.get().await?;
    let since = crate::record::chain::now() - TimeDelta::days(365);
    Ok(crate::db::vacation::taken_since(&mut conn, caller.user_id, since).await?)
}

impl<R: Ruleset> Step<'_, R> {
    /// `my_seat` takes `secs` of vacation: its deadline moves back (event
    /// `seat_vacation`).
    ///
    /// # Errors
    /// `no_deadline`, `already_resigned`, `not_your_turn`, `vacation_exceeded`.
    pub fn vacation(&mut self, my_seat: u8, secs: u64, actor: Actor) -> Result<(), Failure> {
        let current = self.loaded.game.deadline.ok_or_else(|| {
            Failure::new(
                ErrorCode::NoDeadline,
                "the game has no turn_timeout to pause",
            )
        })?;
        if self.pause.is_paused() {
            return Err(Failure::new(
                ErrorCode::NoDeadline,
                "the table is paused: no clock runs",
            ));
        }
        if self.seat_mut(my_seat)?.resigned {
            return Err(Failure::new(
                ErrorCode::AlreadyResigned,
                "the seat is out of the game",
            ));
        }
        if !self.to_act().contains(&my_seat) {
            return Err(Failure::not_your_turn(
                "vacation pauses a running clock: the game is not waiting for your seat",
            ));
        }
        let max = self.options.max_vacation_secs();
        let row = self.seat_mut(my_seat)?;
        let used = u64::try_from(row.vacation_used_secs).unwrap_or(0);
        if used.saturating_add(secs) > max {
            return Err(Failure::new(
                ErrorCode::VacationExceeded,
                format!(
                    "this seat has {} of its {max} seconds of vacation left",
                    max.saturating_sub(used)
                ),
            ));
        }
        row.vacation_used_secs = i64::try_from(used + secs).map_err(Failure::internal)?;
        let extra = TimeDelta::try_seconds(i64::try_from(secs).map_err(Failure::internal)?)
            .ok_or_else(|| Failure::bad_request("too long"))?;
        let until = match &mut self.clock {
            // With clocks: free time added to the seat's running turn.
            Some((rules, clocks)) => {
                clocks.vacation(my_seat, extra);
                clocks
                    .deadline(rules, my_seat)
                    .ok_or_else(|| Failure::internal("a seat to act without a running clock"))?
            }
            None => current + extra,
        };
        self.deadline = Some(until);
        self.push(
            &ServerEvent::SeatVacation(SeatVacation {
                seat: my_seat,
                duration_secs: secs,
                until: format_time(until),
            }),
            actor,
        )?;
        Ok(())
    }
}

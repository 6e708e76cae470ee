//! Leaving and pausing: a player resigns (the seat is out: the server plays
//! it whenever the game waits on it, or the game ends by forfeit when one
//! seat is left), or takes a vacation (pushes the current deadline back).
//!
//! Vacation is taken while the game waits on the seat: it pushes the
//! game's current deadline back by the duration (a seat not to act has no
//! running clock to pause, and is answered `not_your_turn`). The total per
//! seat is bounded by `options.max_vacation`.

use chrono::TimeDelta;
use hatstand_engine::{Ruleset, with_ruleset};
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::clock::parse_duration;
use super::command::{Decided, append_finished, respond};
use super::kind_of;
use super::resource::Game;
use super::step::Step;
use crate::auth::Caller;
use crate::context::Context;
use crate::db::games::{self, LoadedGame};
use crate::error::{ErrorCode, Failure};
use crate::record::chain::{Actor, format_time};
use crate::record::server_event::{OutReason, SeatVacation, ServerEvent};

/// A request for vacation.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VacationRequest {
    /// ISO 8601 duration (`PnDTnHnMnS`), e.g. `PT12H`.
    #[schema(example = "PT12H")]
    pub duration: String,
}

#[derive(Debug, Clone, Copy)]
enum Leave {
    Resign,
    Vacation(u64),
}

/// The caller resigns: event `player_resigned` with reason `resigned`.
///
/// # Errors
/// `not_found`, `not_a_player`, `game_not_open`, `game_finished`, `already_resigned`.
pub async fn resign(state: &Context, caller: &Caller, id: Uuid) -> Result<Game, Failure> {
    change(state, caller, id, Leave::Resign).await
}

/// The caller's seat takes `duration` of vacation: event `seat_vacation`.
///
/// # Errors
/// `bad_request` (duration), `not_found`, `not_a_player`, `game_not_open`,
/// `game_finished`, `no_deadline`, `not_your_turn`, `already_resigned`,
/// `vacation_exceeded`.
pub async fn vacation(
    state: &Context,
    caller: &Caller,
    id: Uuid,
    request: &VacationRequest,
) -> Result<Game, Failure> {
    let secs = parse_duration(&request.duration).map_err(Failure::bad_request)?;
    if secs == 0 {
        return Err(Failure::bad_request("a vacation lasts at least one second"));
    }
    change(state, caller, id, Leave::Vacation(secs)).await
}

async fn change(state: &Context, caller: &Caller, id: Uuid, leave: Leave) -> Result<Game, Failure> {
    let mut conn = state.pool.get().await?;
    // A lost race (a command, a timeout) is retried on the new version.
    for _ in 0..5 {
        let loaded = games::load(&mut conn, id, None, None)
            .await?
            .ok_or_else(|| Failure::not_found("there is no such game"))?;
        let kind = kind_of(&loaded.game)?;
        let decided = with_ruleset!(kind, |R| decide::<R>(&loaded, caller, leave))?;
        if let Some(told) =
            append_finished(&mut conn, loaded.game.version, &decided.finished, None).await?
        {
            state.announcer.announce(id, decided.response.version);
            state.announcer.tell(&told);
            return Ok(decided.response.game);
        }
    }
    Err(Failure::unavailable("the game is too busy; try again"))
}

fn decide<R: Ruleset>(
    loaded: &LoadedGame,
    caller: &Caller,
    leave: Leave,
) -> Result<Decided, Failure> {
    let my_seat = loaded.seat_of(caller.user_id);
    let mut step = Step::<R>::begin(loaded, crate::record::chain::now())?;
    let my_seat = my_seat.ok_or_else(Failure::not_a_player)?;
    let actor = Actor {
        user: Some(caller.user_id),
        seat: Some(my_seat),
    };
    match leave {
        Leave::Resign => step.resign(my_seat, OutReason::Resigned, actor)?,
        Leave::Vacation(secs) => {
            let current = loaded.game.deadline.ok_or_else(|| {
                Failure::new(
                    ErrorCode::NoDeadline,
                    "the game has no turn_timeout to pause",
                )
            })?;
            if step.seat_mut(my_seat)?.resigned {
                return Err(Failure::new(
                    ErrorCode::AlreadyResigned,
                    "the seat is out of the game",
                ));
            }
            if !step.to_act().contains(&my_seat) {
                return Err(Failure::not_your_turn(
                    "vacation pauses a running clock: the game is not waiting for your seat",
                ));
            }
            let max = step.options.max_vacation_secs();
            let row = step.seat_mut(my_seat)?;
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
            let until = current
                + TimeDelta::try_seconds(i64::try_from(secs).map_err(Failure::internal)?)
                    .ok_or_else(|| Failure::bad_request("too long"))?;
            step.deadline = Some(until);
            step.push(
                &ServerEvent::SeatVacation(SeatVacation {
                    seat: my_seat,
                    duration_secs: secs,
                    until: format_time(until),
                }),
                actor,
            )?;
        }
    }
    step.settle()?;
    respond::<R>(step, Some(my_seat))
}

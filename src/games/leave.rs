//! A player's own change of their seat in an active game: resigning (the
//! seat is out: the server plays it whenever the game waits on it, or the
//! game ends by forfeit when one seat is left; see `record::out`), a
//! vacation (see `vacation`), or an act on the table's pause (see `pause`). Both go through the command path's step and
//! version-guarded append, retried on a lost race.

use hatstand_engine::{Ruleset, with_ruleset};
use uuid::Uuid;

use super::advance::{Decided, append_finished, respond};
use super::kind_of;
use super::projection::Game;
use super::step::Step;
use crate::auth::Caller;
use crate::context::Context;
use crate::db::games::LoadedGame;
use crate::error::Failure;
use crate::record::chain::Actor;
use crate::record::server_event::OutReason;

/// What a player does to the table's pause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PauseAct {
    Propose(Option<chrono::DateTime<chrono::Utc>>),
    Vote(bool),
    Resume,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Leave {
    Resign,
    Vacation(u64),
    Pause(PauseAct),
}

/// The caller resigns: event `player_resigned` with reason `resigned`.
///
/// # Errors
/// `not_found`, `not_a_player`, `game_not_open`, `game_finished`, `already_resigned`.
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn resign(state: &Context, caller: &Caller, id: Uuid) -> Result<Game, Failure> {
    change(state, caller, id, Leave::Resign).await
}

#[tracing::instrument(skip_all, fields(game = %id, version))]
pub(super) async fn change(
    state: &Context,
    caller: &Caller,
    id: Uuid,
    leave: Leave,
) -> Result<Game, Failure> {
    let mut conn = state.pool.get().await?;
    // A lost race (a command, a timeout) is retried on the new version.
    for _ in 0..5 {
        let loaded = super::stored(&mut conn, id).await?;
        let kind = kind_of(&loaded.game)?;
        let decided = with_ruleset!(kind, |R| decide::<R>(&loaded, caller, leave))?;
        if let Some(told) =
            append_finished(&mut conn, loaded.game.version, &decided.finished, None).await?
        {
            super::committed(state, &loaded, decided.response.version, &told);
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
        Leave::Vacation(secs) => step.vacation(my_seat, secs, actor)?,
        Leave::Pause(act) => step.table_pause(my_seat, act, actor)?,
    }
    step.settle()?;
    respond::<R>(step, Some(my_seat))
}

//! Cancelling: the creator ends a game that has not started.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::open_game::{OpenChange, change_open_game, must_be_open};
use super::projection::Game;
use super::status;
use crate::auth::Caller;
use crate::context::Context;
use crate::db::Conn;
use crate::db::games::LoadedGame;
use crate::error::Failure;
use crate::notifications::{Note, Notification};
use crate::record::chain::{Actor, Chain};
use crate::record::server_event::{Cancelled, ServerEvent};

/// The creator cancels a game that has not started: event `game_cancelled`,
/// status `abandoned`; the other seated players are told (`game_finished`).
///
/// # Errors
/// `not_found`, `forbidden` (not the creator), `game_not_open`.
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn cancel(state: &Context, caller: &Caller, id: Uuid) -> Result<Game, Failure> {
    change_open_game(state, caller, id, Cancel).await
}

/// Cancelling, as a change of a game that has not started.
struct Cancel;

impl OpenChange for Cancel {
    async fn apply(
        &self,
        _: &mut Conn,
        loaded: &mut LoadedGame,
        chain: &mut Chain,
        who: &Caller,
        _: DateTime<Utc>,
    ) -> Result<Vec<Note>, Failure> {
        cancel_in(loaded, chain, who)
    }
}

fn cancel_in(
    loaded: &mut LoadedGame,
    chain: &mut Chain,
    who: &Caller,
) -> Result<Vec<Note>, Failure> {
    if loaded.game.created_by != who.user_id {
        return Err(Failure::forbidden("only the game's creator may cancel it"));
    }
    must_be_open(loaded)?;
    chain
        .push_server(
            &ServerEvent::GameCancelled(Cancelled { by: who.user_id }),
            Actor {
                user: Some(who.user_id),
                seat: loaded.seat_of(who.user_id),
            },
        )
        .map_err(Failure::internal)?;
    loaded.game.status = status::ABANDONED.to_owned();
    let id = loaded.game.id;
    Ok(loaded
        .seats
        .iter()
        .filter(|s| s.user_id != who.user_id)
        .map(|s| Note {
            user_id: s.user_id,
            notification: Notification::GameFinished {
                game_id: id,
                ruleset: loaded.game.ruleset.clone(),
                status: status::ABANDONED.to_owned(),
                version: None,
                result: None,
            },
        })
        .collect())
}

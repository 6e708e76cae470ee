//! Cancelling: the creator ends a game that has not started.

use super::open_game::{OpenChange, OpenTx, must_be_open};
use super::status;
use crate::auth::Caller;
use crate::db::games::{GameRow, LoadedGame};
use crate::error::Failure;
use crate::notifications::{Note, Notification};
use crate::record::chain::Actor;
use crate::record::server_event::{Cancelled, ServerEvent};

/// The creator cancels a game that has not started: event `game_cancelled`,
/// status `abandoned`; the other seated players are told (`game_finished`).
///
/// Fails with `forbidden` (not the creator) or `game_not_open`.
pub struct Cancel;

impl OpenChange for Cancel {
    const NAME: &'static str = "cancel";

    async fn apply(&self, tx: OpenTx<'_>) -> Result<(), Failure> {
        if tx.loaded.game.created_by != tx.who.user_id {
            return Err(Failure::forbidden("only the game's creator may cancel it"));
        }
        must_be_open(tx.loaded)?;
        let by = tx.who.user_id;
        let actor = Actor {
            user: Some(by),
            seat: tx.loaded.seat_of(by),
        };
        tx.chain
            .push_server(&ServerEvent::GameCancelled(Cancelled { by }), actor)
            .map_err(Failure::internal)?;
        tx.loaded.game.status = status::ABANDONED.to_owned();
        Ok(())
    }

    fn tell(&self, _: &GameRow, after: &LoadedGame, who: &Caller) -> Vec<Note> {
        after
            .seats
            .iter()
            .filter(|s| s.user_id != who.user_id)
            .map(|s| Note {
                user_id: s.user_id,
                notification: Notification::GameFinished {
                    game_id: after.game.id,
                    ruleset: after.game.ruleset.clone(),
                    status: status::ABANDONED.to_owned(),
                    version: None,
                    result: None,
                },
            })
            .collect()
    }
}
